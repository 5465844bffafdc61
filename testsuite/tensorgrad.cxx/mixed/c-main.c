/* cxx.exp's C program: includes the header of cxx-kernels.cc, a C++
   file, which declares for C only the gradient of its extern "C" kernel,
   and calls that.  */

#include "cxx-kernels.gen.h"
#include "tg-test.h"

/* The C++ gradients are not declared in C: were they, these would
   clash.  */
enum { relu_grad = 0, shift_grad = 0 };

void cube (int n, const double *x, double *y);

int
main (void)
{
  enum { N = 5 };
  double x[N], y[N], dx[N] = { 0 }, dy[N];
  tg_fill (x, N, 1, -2, 2);
  tg_fill (dy, N, 2, -1, 1);
  cube (N, x, y);
  cube_grad (N, x, y, dx, dy);
  for (int i = 0; i < N; i++)
    CHECK_NEAR_AT (dx[i], 3 * x[i] * x[i] * dy[i], 1e-14, 1e-14, i);
  return tg_exit ();
}

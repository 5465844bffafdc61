// cxx.exp's C++ program: calls the gradients of c-kernels.c, a C file,
// through the header its compile wrote, and checks them by the formulas
// of c-kernels.c.

#include <cstddef>
#include "c-kernels.gen.h"
#include "tg-test.h"

extern "C" {
void scale (std::size_t n, double a, const double *x, double *y);
double kept_sum (int n, const bool *keep, const double *x);
}

int
main ()
{
  enum { N = 4, M = 3 };
  double x[N * M], y[N * M], dx[N * M] = { 0 }, dy[N * M], a = 0.5, da = 0,
         want = 0;
  tg_fill (x, N * M, 1, -1, 1);
  tg_fill (dy, N * M, 2, -1, 1);
  scale (N, a, x, y);
  scale_grad (N, a, x, y, &da, dx, dy);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], a * dy[i], 1e-15, 1e-15, i);
      want += x[i] * dy[i];
    }
  CHECK_NEAR (da, want, 1e-14, 1e-14);

  bool keep[N] = { true, false, false, true };
  double dk[N] = { 0 };
  kept_sum_grad (N, keep, x, dk, 3.0);
  for (int i = 0; i < N; i++)
    CHECK_NEAR_AT (dk[i], keep[i] ? 6 * x[i] : 0, 1e-15, 1e-15, i);

  double dr[N * M] = { 0 };
  rows_grad (N, M, x, y, dr, dy);
  for (int k = 0; k < N * M; k++)
    CHECK_NEAR_AT (dr[k], 2 * x[k] * dy[k / M], 1e-15, 1e-15, k);
  return tg_exit ();
}

// cxx.exp's C++ program for cxx-kernels.cc: every gradient through the
// header of that file.

#include "cxx-kernels.gen.h"
#include "tg-test.h"

void relu (int n, const double *x, double *y);
namespace nn {
void shift (int n, float b, const float *x, float *y);
}
extern "C" void cube (int n, const double *x, double *y);

int
main ()
{
  enum { N = 5 };
  double x[N], y[N], dx[N] = { 0 }, dy[N], dc[N] = { 0 };
  float xf[N], yf[N], dxf[N] = { 0 }, dyf[N], b = 0.25f, db = 0, want = 0;
  tg_fill_away (x, N, 1, -2, 2, 0, 0.1);
  tg_fill (dy, N, 2, -1, 1);
  tg_fill_f (xf, N, 3, -1, 1);
  tg_fill_f (dyf, N, 4, -1, 1);
  relu (N, x, y);
  relu_grad (N, x, y, dx, dy);
  nn::shift (N, b, xf, yf);
  nn::shift_grad (N, b, xf, yf, &db, dxf, dyf);
  cube (N, x, y);
  cube_grad (N, x, y, dc, dy);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], x[i] > 0 ? dy[i] : 0, 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dxf[i], dyf[i], 1e-7, 1e-7, i);
      CHECK_NEAR_AT (dc[i], 3 * x[i] * x[i] * dy[i], 1e-14, 1e-14, i);
      want += dyf[i];
    }
  CHECK_NEAR (db, want, 1e-6, 1e-6);
  return tg_exit ();
}

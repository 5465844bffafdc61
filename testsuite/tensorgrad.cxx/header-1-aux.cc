/* header-1.cc's caller: every gradient through the header the plugin
   wrote, checked against the formulas.  */

#include "cxx-header-1.gen.h"
#include "tg-test.h"

#ifndef TENSORGRAD_CXX_HEADER_1_GEN_H
#error "the header's include guard is not named after its file"
#endif

/* The gradients of internal kernels are not in the header: were they
   declared there, these would clash with them.  */
enum { hidden_grad = 0, hidden2_grad = 0 };

void axpy (std::size_t n, double a, const double *x, const double *z,
           double *y);
namespace la {
namespace blas {
void axpy (int n, double a, const double *x, const double *z, double *y);
}
inline namespace v1 {
void mask (int n, float w, const bool *keep, const float *x, float *y);
}
}
void twice (int n, const double *x, double *y);
void twice (int n, const float *x, float *y);
extern "C" void c_twice (int n, const double *x, double *y);

int
run_header_1 ()
{
  enum { N = 5 };
  double x[N], z[N], y[N], dx[N] = { 0 }, dz[N] = { 0 }, dy[N], a = 0.5,
         da = 0;
  tg_fill (x, N, 1, -1, 1);
  tg_fill (z, N, 2, -1, 1);
  tg_fill (dy, N, 3, -1, 1);
  axpy (N, a, x, z, y);
  axpy_grad (N, a, x, z, y, &da, dx, dz, dy);
  double want = 0;
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], a * dy[i], 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dz[i], dy[i], 1e-15, 1e-15, i);
      want += x[i] * dy[i];
    }
  CHECK_NEAR (da, want, 1e-14, 1e-14);

  double dx2[N] = { 0 }, dz2[N] = { 0 }, da2 = 0;
  la::blas::axpy (N, a, x, z, y);
  la::blas::axpy_grad (N, a, x, z, y, &da2, dx2, dz2, dy);
  CHECK_SAME (dx2, dx, sizeof dx);
  CHECK_NEAR (da2, da, 1e-15, 1e-15);

  bool keep[N] = { true, false, true, true, false };
  float xf[N], yf[N], dxf[N] = { 0 }, dyf[N], w = 1.5f, dw = 0;
  tg_fill_f (xf, N, 4, -1, 1);
  tg_fill_f (dyf, N, 5, -1, 1);
  la::mask (N, w, keep, xf, yf);
  la::mask_grad (N, w, keep, xf, yf, &dw, dxf, dyf);
  float wantf = 0;
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dxf[i], keep[i] ? w * dyf[i] : 0, 1e-6, 1e-7, i);
      wantf += keep[i] ? xf[i] * dyf[i] : 0;
    }
  CHECK_NEAR (dw, wantf, 1e-5, 1e-6);

  double dx3[N] = { 0 }, dx4[N] = { 0 };
  float dxf3[N] = { 0 };
  twice (N, x, y);
  twice_grad (N, x, y, dx3, dy);
  twice (N, xf, yf);
  twice_grad (N, xf, yf, dxf3, dyf);
  c_twice (N, x, y);
  c_twice_grad (N, x, y, dx4, dy);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx3[i], 2 * dy[i], 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dxf3[i], 2 * dyf[i], 1e-6, 1e-7, i);
      CHECK_NEAR_AT (dx4[i], 2 * dy[i], 1e-15, 1e-15, i);
    }
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-additional-sources "extern-c-1-aux.cc" } */
/* An extern "C" kernel of a C++ file gets a gradient with C linkage,
   named as in C: extern-c-1-aux.cc declares the gradients extern "C"
   and calls them.  Both forms of the linkage specification, and an
   extern "C" kernel in a namespace, whose gradient is the one C
   function of its name wherever a declaration of it is.

   scale:  y[i] = a * x[i];  d_x[i] += a * d_y[i], d_a += sum x[i] d_y[i]
   square: y[i] = x[i]^2;    d_x[i] += 2 x[i] d_y[i]
   cube:   y[i] = x[i]^3;    d_x[i] += 3 x[i]^2 d_y[i]  */

#include "tg-test.h"

extern "C" __attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

extern "C" {
__attribute__ ((differentiable))
void
square (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}
}

namespace ops {
extern "C" __attribute__ ((differentiable))
void
cube (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i];
}
}

extern "C" void call_grads (int n, double a, const double *x, double *y,
                            double *d_a, double *d_x, double *d_y,
                            const float *xf, float *yf, float *dxf,
                            float *dyf, double *yc, double *dxc);

int
main ()
{
  enum { N = 5 };
  double x[N], y[N], dx[N] = { 0 }, dy[N], a = 1.5, da = 0, yc[N],
         dxc[N] = { 0 };
  float xf[N], yf[N], dxf[N] = { 0 }, dyf[N];
  tg_fill (x, N, 1, -2, 2);
  tg_fill (dy, N, 2, -1, 1);
  tg_fill_f (xf, N, 3, -1, 1);
  tg_fill_f (dyf, N, 4, -1, 1);
  scale (N, a, x, y);
  square (N, xf, yf);
  ops::cube (N, x, yc);
  call_grads (N, a, x, y, &da, dx, dy, xf, yf, dxf, dyf, yc, dxc);
  double want = 0;
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], a * dy[i], 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dxf[i], 2 * xf[i] * dyf[i], 1e-6, 1e-7, i);
      CHECK_NEAR_AT (dxc[i], 3 * x[i] * x[i] * dy[i], 1e-14, 1e-14, i);
      want += x[i] * dy[i];
    }
  CHECK_NEAR (da, want, 1e-14, 1e-14);
  int n = N;
  TG_GRADCHECK (scale, &n, &a, x, y);
  TG_GRADCHECK (square, &n, xf, yf);
  return tg_exit ();
}

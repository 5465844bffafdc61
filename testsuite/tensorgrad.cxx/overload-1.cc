/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Overloads of one kernel, for float and double, are two kernels with
   two gradients of one name, told apart by their types.  One
   <name>_gradcheck could not tell them apart: they get none, and the
   dump says so.

   scale: y[i] = a x[i];  d_a += sum x[i] d_y[i], d_x[i] += a d_y[i]  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

__attribute__ ((differentiable))
void
scale (int n, float a, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

void scale_grad (int n, double a, const double *x, double *y, double *d_a,
                 double *d_x, double *d_y);
void scale_grad (int n, float a, const float *x, float *y, float *d_a,
                 float *d_x, float *d_y);

int
main ()
{
  enum { N = 4 };
  double x[N], y[N], dx[N] = { 0 }, dy[N], a = 2.5, da = 0, want = 0;
  float xf[N], yf[N], dxf[N] = { 0 }, dyf[N], af = 2.5f, daf = 0;
  tg_fill (x, N, 1, -1, 1);
  tg_fill (dy, N, 2, -1, 1);
  for (int i = 0; i < N; i++)
    {
      xf[i] = (float) x[i];
      dyf[i] = (float) dy[i];
    }
  scale (N, a, x, y);
  scale_grad (N, a, x, y, &da, dx, dy);
  scale (N, af, xf, yf);
  scale_grad (N, af, xf, yf, &daf, dxf, dyf);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], a * dy[i], 1e-15, 1e-15, i);
      CHECK_NEAR_AT (dxf[i], af * dyf[i], 1e-6, 1e-7, i);
      want += x[i] * dy[i];
    }
  CHECK_NEAR (da, want, 1e-14, 1e-14);
  CHECK_NEAR (daf, want, 1e-5, 1e-6);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "no descriptor: another kernel has the name 'scale'" 2 } } */

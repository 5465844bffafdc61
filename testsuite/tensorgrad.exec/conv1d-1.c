/* { dg-do run } */
/* A valid 1-D convolution (cross-correlation) with a by-value bias,
   x of length n = 7, filter of width kw = 3, n - kw + 1 = 5 outputs:
   for (i < n - kw + 1) { double acc = b; for (t < kw)
   acc += x[i+t] * w[t]; y[i] = acc; },
   gradient void conv1d_grad (int n, int kw, const double *x,
   const double *w, double b, double *y, double *d_x, double *d_w,
   double *d_b, double *d_y).
   d_x[i+t] += d_y[i] w[t]; d_w[t] += sum_i d_y[i] x[i+t];
   *d_b += sum_i d_y[i].  TG_GRADCHECK checks every d_x, d_w and d_b against
   central differences, accumulation into pre-filled shadows, and that x, w,
   y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv1d (int n, int kw, const double *x, const double *w, double b,
	double *y)
{
  for (int i = 0; i < n - kw + 1; i++)
    {
      double acc = b;
      for (int t = 0; t < kw; t++)
	acc += x[i + t] * w[t];
      y[i] = acc;
    }
}

int
main (void)
{
  int n = 7, kw = 3, ny = n - kw + 1;
  double *x = tg_alloc (n), *w = tg_alloc (kw), *y = tg_alloc (ny);
  double b = 0.375;
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, kw, 2, -2, 2);
  TG_GRADCHECK (conv1d, &n, &kw, x, w, &b, y);
  return tg_exit ();
}

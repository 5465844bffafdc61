/* { dg-do run } */
/* Reductions in do/while loops, whose exit test follows the update: the
   value the loop leaves is the one after the body, the whole sum.
     total:  s = sum_i x[i]                       d_x[i] += d_s;
     rows:   y[r] = sum_j w[j] x[r][j]^2 (a do/while per row, float)
     peak:   m = max_i x[i] * x[i] (compare and assign), times a scale
     prod:   p = prod_i (1 + x[i] / 4), counter stepping down to 0.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
total (int n, const double *x)
{
  double s = 0;
  int i = 0;
  do
    {
      s += x[i];
      i++;
    }
  while (i < n);
  return s;
}

__attribute__ ((differentiable))
void
rows (int R, int C, const float *x, const float *w, float *y)
{
  for (int r = 0; r < R; r++)
    {
      const float *xr = x + r * C;
      float acc = 0.0f;
      int j = 0;
      do
        {
          acc += w[j] * xr[j] * xr[j];
          j++;
        }
      while (j < C);
      y[r] = acc;
    }
}

__attribute__ ((differentiable))
double
peak (int n, double scale, const double *x)
{
  double m = x[0] * x[0];
  int i = 1;
  do
    {
      double v = x[i] * x[i];
      if (v > m)
        m = v;
      i++;
    }
  while (i < n);
  return scale * m;
}

__attribute__ ((differentiable))
double
prod (int n, const double *x)
{
  double p = 1;
  int i = n - 1;
  do
    {
      p *= 1 + x[i] / 4;
      i--;
    }
  while (i >= 0);
  return p;
}

int
main (void)
{
  int n = 6, R = 3, C = 5;
  double *x = tg_alloc (n), scale = 0.7;
  tg_fill (x, n, 1, -1, 1);
  TG_GRADCHECK (total, &n, x);
  TG_GRADCHECK (peak, &n, &scale, x);
  TG_GRADCHECK (prod, &n, x);
  float *xf = tg_alloc_f (R * C), *w = tg_alloc_f (C), *y = tg_alloc_f (R);
  tg_fill_f (xf, R * C, 2, -1, 1);
  tg_fill_f (w, C, 3, -1, 1);
  TG_GRADCHECK (rows, &R, &C, xf, w, y);
  TG_GRADCHECK_NULL (rows, "w", &R, &C, xf, w, y);
  return tg_exit ();
}

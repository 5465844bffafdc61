/* { dg-do run } */
/* Pointers walked by hand, as C code steps through arrays: *y++ = ...
   on the output parameter itself, *x++ on an input, a row pointer bumped
   by the row length after each row, and two cursors stepped in the
   loop's increment.  Each is the array at an offset that grows with the
   loop's counter.
     scale2: y[i] = 2 x[i];   rowsum: y[r] = sum_j w[j] tanh (x[r][j]);
     axpy:   y[i] = a x[i] + y0[i] (float).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scale2 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    *y++ = 2.0 * *x++;
}

__attribute__ ((differentiable))
void
rowsum (int R, int C, const double *x, const double *w, double *y)
{
  const double *row = x;
  for (int r = 0; r < R; r++)
    {
      double s = 0;
      for (int j = 0; j < C; j++)
        s += w[j] * tanh (row[j]);
      *y++ = s;
      row += C;
    }
}

__attribute__ ((differentiable))
void
axpy (int n, float a, const float *x, const float *y0, float *y)
{
  const float *p = x, *q = y0;
  float *o = y;
  for (int i = 0; i < n; i++, p++, q++, o++)
    *o = a * *p + *q;
}

int
main (void)
{
  int n = 5, R = 3, C = 4;
  double *x = tg_alloc (R * C), *y = tg_alloc (R * C), *w = tg_alloc (C);
  tg_fill (x, R * C, 1, -1, 1);
  tg_fill (w, C, 2, -1, 1);
  TG_GRADCHECK (scale2, &n, x, y);
  TG_GRADCHECK (rowsum, &R, &C, x, w, y);
  TG_GRADCHECK_NULL (rowsum, "w", &R, &C, x, w, y);
  float a = 0.7f, *xf = tg_alloc_f (n), *y0 = tg_alloc_f (n);
  float *yf = tg_alloc_f (n);
  tg_fill_f (xf, n, 3, -1, 1);
  tg_fill_f (y0, n, 4, -1, 1);
  TG_GRADCHECK (axpy, &n, &a, xf, y0, yf);
  return tg_exit ();
}

/* { dg-do run } */
/* An inner loop whose start the row loop around it computes with a
   division: the tail of an odd row after its pairs,
   for (j = 2 * (n / 2); j < n; j++), and a row's second half,
   for (j = n / 2; j < n; j++).  SCEV knows no division, so the
   counter's start is read from its definition (lift-index.cc); it was
   refused ("integer 'j' is changed inside a loop and read in it").
   Double pairs with a learnable scale and float halves, at sizes with
   and without a tail; every gradient component against central
   differences, also with NULL shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
pairs_tail (int R, int n, double a, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      for (int i = 0; i < n / 2; i++)
        {
          y[r * n + 2 * i] = a * x[r * n + 2 * i] * x[r * n + 2 * i + 1];
          y[r * n + 2 * i + 1] = x[r * n + 2 * i] - a * x[r * n + 2 * i + 1];
        }
      for (int j = 2 * (n / 2); j < n; j++)
        y[r * n + j] = sin (x[r * n + j]);
    }
}

__attribute__ ((differentiable))
void
halves (int R, int n, const float *x, const float *w, float *y)
{
  for (int r = 0; r < R; r++)
    {
      const float *xr = x + r * n;
      float *yr = y + r * n;
      for (int j = 0; j < n / 2; j++)
        yr[j] = w[j] * xr[j];
      for (int j = n / 2; j < n; j++)
        yr[j] = tanhf (xr[j] * w[j]);
    }
}

int
main (void)
{
  static const int ns[] = { 7, 6, 1, 9 };
  for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++)
    {
      int R = 3, n = ns[k];
      double a = 0.8, *x = tg_alloc (R * n), *y = tg_alloc (R * n);
      float *xf = tg_alloc_f (R * n), *w = tg_alloc_f (n);
      float *yf = tg_alloc_f (R * n);
      tg_fill (x, R * n, 1 + k, -1, 1);
      tg_fill_f (xf, R * n, 2 + k, -1, 1);
      tg_fill_f (w, n, 3 + k, -1, 1);
      TG_GRADCHECK (pairs_tail, &R, &n, &a, x, y);
      TG_GRADCHECK_NULL (pairs_tail, "a", &R, &n, &a, x, y);
      TG_GRADCHECK (halves, &R, &n, xf, w, yf);
      TG_GRADCHECK_NULL (halves, "w", &R, &n, xf, w, yf);
      free (x), free (y), free (xf), free (w), free (yf);
    }
  return tg_exit ();
}

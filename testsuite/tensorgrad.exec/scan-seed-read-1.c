/* { dg-do run } */
/* A row's scan seeded by a statement of its own (y[r*n] = x[r*n]), then
   a later loop of the same row that reads the scan one element back (an
   exclusive scan, as cumulative-sum code writes it) or the whole row.
   The seed rises with the rows only where the later loop runs (its
   j < n - 1 needs n >= 2): roles.c asks it there, and the read of the
   seed by the later loop is no longer refused ("may not have written it
   yet").  Float rows by pointer offsets, with a learnable decay, and
   double; every gradient component against central differences, also
   with NULL shadows, at sizes where the later loops run once or not at
   all.  err-scan-next-row-1.c keeps the refusal where the later loop
   reads the next row's seed.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
excl_scan (int R, int n, const double *x, double *y, double *z)
{
  for (int r = 0; r < R; r++)
    {
      y[r * n] = x[r * n];
      for (int j = 1; j < n; j++)
        y[r * n + j] = y[r * n + j - 1] + x[r * n + j];
      z[r * n] = 0;
      for (int j = 1; j < n; j++)
        z[r * n + j] = 0.5 * y[r * n + j - 1];
    }
}

__attribute__ ((differentiable))
void
decay_rows (int R, int n, float a, const float *x, float *y, float *out)
{
  for (int r = 0; r < R; r++)
    {
      const float *xr = x + r * n;
      float *yr = y + r * n;
      yr[0] = xr[0];
      for (int j = 1; j < n; j++)
        yr[j] = a * yr[j - 1] + xr[j];
      for (int j = 0; j < n; j++)
        out[r * n + j] = tanhf (yr[j]) * xr[j];
    }
}

int
main (void)
{
  static const int sizes[][2] = { { 3, 5 }, { 2, 2 }, { 4, 1 }, { 1, 7 } };
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    {
      int R = sizes[k][0], n = sizes[k][1];
      double *x = tg_alloc (R * n), *y = tg_alloc (R * n);
      double *z = tg_alloc (R * n);
      float *xf = tg_alloc_f (R * n), *yf = tg_alloc_f (R * n);
      float *of = tg_alloc_f (R * n);
      float a = 0.7f;
      tg_fill (x, R * n, 1 + k, -1, 1);
      tg_fill_f (xf, R * n, 5 + k, -1, 1);
      TG_GRADCHECK (excl_scan, &R, &n, x, y, z);
      TG_GRADCHECK_NULL (excl_scan, "y", &R, &n, x, y, z);
      TG_GRADCHECK (decay_rows, &R, &n, &a, xf, yf, of);
      TG_GRADCHECK_NULL (decay_rows, "x", &R, &n, &a, xf, yf, of);
      free (x), free (y), free (z), free (xf), free (yf), free (of);
    }
  return tg_exit ();
}

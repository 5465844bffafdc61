/* { dg-do run } */
/* Pairs of a row written by two statements of one loop, y[t*d + 2*i] and
   y[t*d + 2*i + 1] for i < d / 2, as rotary position embeddings and
   complex numbers are written: the rows are d apart, the two statements
   apart within a row by parity (roles.c columns_apart, columns of
   columns), and a pair ends at 2 (d / 2) - 1 <= d - 1 (index.c: the
   quotient d / 2 is the loop's extent, so 2 (d / 2) <= d).  RMSNorm then
   rotation by angles computed from the position (float, gain NULL-able),
   and a complex product per row (double), at even and odd d (the last
   element of an odd row is left alone).  Every gradient component
   against central differences.  err-pairs-meet-1.c keeps the refusal
   where the pairs overlap.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rope (int T, int d, const float *x, const float *g, float *y)
{
  for (int t = 0; t < T; t++)
    {
      const float *xt = x + t * d;
      float ss = 0.0f;
      for (int i = 0; i < d; i++)
        ss += xt[i] * xt[i];
      float r = 1.0f / sqrtf (ss / d + 1e-6f);
      for (int i = 0; i < d / 2; i++)
        {
          float th = t * powf (10000.0f, -2.0f * i / d);
          float c = cosf (th), s = sinf (th);
          float a = xt[2 * i] * r * (g ? g[2 * i] : 1.0f);
          float b = xt[2 * i + 1] * r * (g ? g[2 * i + 1] : 1.0f);
          y[t * d + 2 * i] = a * c - b * s;
          y[t * d + 2 * i + 1] = a * s + b * c;
        }
    }
}

__attribute__ ((differentiable))
void
cmul_rows (int R, int d, const double *z, const double *w, double *y)
{
  for (int r = 0; r < R; r++)
    for (int i = 0; i < d / 2; i++)
      {
        double zr = z[r * d + 2 * i], zi = z[r * d + 2 * i + 1];
        y[r * d + 2 * i] = zr * w[2 * i] - zi * w[2 * i + 1];
        y[r * d + 2 * i + 1] = zr * w[2 * i + 1] + zi * w[2 * i];
      }
}

int
main (void)
{
  static const int ds[] = { 6, 5, 2, 1 };
  for (unsigned k = 0; k < sizeof ds / sizeof ds[0]; k++)
    {
      int T = 3, d = ds[k];
      float *x = tg_alloc_f (T * d), *g = tg_alloc_f (d);
      float *y = tg_alloc_f (T * d);
      double *z = tg_alloc (T * d), *w = tg_alloc (d), *yd = tg_alloc (T * d);
      tg_fill_f (x, T * d, 1 + k, -1, 1);
      tg_fill_f (g, d, 2 + k, 0.5, 1.5);
      tg_fill (z, T * d, 3 + k, -1, 1);
      tg_fill (w, d, 4 + k, -1, 1);
      TG_GRADCHECK (rope, &T, &d, x, g, y);
      TG_GRADCHECK (rope, &T, &d, x, (float *) NULL, y);
      TG_GRADCHECK (cmul_rows, &T, &d, z, w, yd);
      TG_GRADCHECK_NULL (cmul_rows, "z", &T, &d, z, w, yd);
      free (x), free (g), free (y), free (z), free (w), free (yd);
    }
  return tg_exit ();
}

/* { dg-do run } */
/* The bound of a loop stepped by the tile, written in the ways C code
   rounds a size down to a multiple of it, then a remainder loop from
   where the counter stopped; y[i] = 2 x[i] in tiles, 3 x[i] in the
   rest: d_x[i] += 2 d_y[i] for i < M rounded down, 3 d_y[i] above.
   and8:   i < (M & ~7), a signed mask;
   shift4: i < (M >> 2) << 2, which GCC folds into a mask;
   mod8:   float, size_t M and i < M - M % 8, folded into M & -8;
   div4:   i < M / 4 * 4, tiles of scratch t[4] scaled by w.
   The user never sees "bitwise operations on indices".  M = 16, 13, 5,
   3, 1.  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
and8 (int M, const double *x, double *y)
{
  int i;
  for (i = 0; i < (M & ~7); i += 8)
    for (int r = 0; r < 8; r++)
      y[i + r] = 2 * x[i + r];
  for (; i < M; i++)
    y[i] = 3 * x[i];
}

__attribute__ ((differentiable))
void
shift4 (int M, const double *x, double *y)
{
  int i;
  for (i = 0; i < (M >> 2) << 2; i += 4)
    for (int r = 0; r < 4; r++)
      y[i + r] = 2 * x[i + r];
  for (; i < M; i++)
    y[i] = 3 * x[i];
}

__attribute__ ((differentiable))
void
mod8 (size_t M, const float *x, float *y)
{
  size_t i;
  for (i = 0; i < M - M % 8; i += 8)
    for (int r = 0; r < 8; r++)
      y[i + r] = 2 * x[i + r];
  for (; i < M; i++)
    y[i] = 3 * x[i];
}

__attribute__ ((differentiable))
void
div4 (int M, double w, const double *x, double *y)
{
  int i;
  for (i = 0; i < M / 4 * 4; i += 4)
    {
      double t[4];
      for (int r = 0; r < 4; r++)
        t[r] = x[i + r] * x[i + r];
      for (int r = 0; r < 4; r++)
        y[i + r] = w * t[r];
    }
  for (; i < M; i++)
    y[i] = 3 * x[i];
}

int
main (void)
{
  static const int sizes[] = { 16, 13, 5, 3, 1 };
  for (int t = 0; t < 5; t++)
    {
      int M = sizes[t];
      size_t Ms = (size_t) M;
      double *x = tg_alloc (M), *y = tg_alloc (M), w = 0.7;
      float *xf = tg_alloc_f (M), *yf = tg_alloc_f (M);
      tg_fill (x, M, 1 + t, -2, 2);
      tg_fill_f (xf, M, 5 + t, -2, 2);
      TG_GRADCHECK (and8, &M, x, y);
      TG_GRADCHECK (shift4, &M, x, y);
      TG_GRADCHECK (mod8, &Ms, xf, yf);
      TG_GRADCHECK (div4, &M, &w, x, y);
      free (x), free (y), free (xf), free (yf);
    }
  return tg_exit ();
}

/* { dg-do run } */
/* Calls of integer functions of the file that are one return of an
   expression of their parameters, read as that expression
   (plugin/int-calls.cc): edge padding written with imax and imin
   helpers (a 5-tap blur, double, and a 3x3 box over an image, float,
   rows by pointer offsets), a half size computed by a helper with a
   shift as a loop bound, and a row offset computed by a helper.  They
   were refused ("call to 'imax' cannot be differentiated").  Every
   gradient component against central differences, also with NULL
   shadows, at sizes 1 and up.  */

#include <math.h>
#include "tg-test.h"

static inline int
imax (int a, int b)
{
  return a > b ? a : b;
}

static inline int
imin (int a, int b)
{
  return a < b ? a : b;
}

static int
half (int n)
{
  return n >> 1;
}

static inline long
row (long r, long m)
{
  return r * m;
}

__attribute__ ((differentiable))
void
blur5 (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -2; k <= 2; k++)
        s += w[k + 2] * x[imin (imax (i + k, 0), n - 1)];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
box3 (int H, int W, const float *x, float *y)
{
  for (int i = 0; i < H; i++)
    {
      float *yr = y + row (i, W);
      for (int j = 0; j < W; j++)
        {
          float s = 0.0f;
          for (int a = -1; a <= 1; a++)
            for (int b = -1; b <= 1; b++)
              s += x[row (imin (imax (i + a, 0), H - 1), W)
                     + imin (imax (j + b, 0), W - 1)];
          yr[j] = tanhf (s / 9.0f);
        }
    }
}

__attribute__ ((differentiable))
void
fold_half (int n, const double *x, double *y)
{
  for (int i = 0; i < half (n); i++)
    y[i] = x[2 * i] * x[2 * i + 1];
}

int
main (void)
{
  static const int ns[] = { 1, 2, 7 };
  for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++)
    {
      int n = ns[k], H = ns[k], W = ns[k] + 2;
      double *w = tg_alloc (5), *x = tg_alloc (n), *y = tg_alloc (n);
      float *xf = tg_alloc_f (H * W), *yf = tg_alloc_f (H * W);
      tg_fill (w, 5, 1 + k, -1, 1);
      tg_fill (x, n, 2 + k, -1, 1);
      tg_fill_f (xf, H * W, 3 + k, -1, 1);
      TG_GRADCHECK (blur5, &n, w, x, y);
      TG_GRADCHECK_NULL (blur5, "w", &n, w, x, y);
      TG_GRADCHECK (box3, &H, &W, xf, yf);
      TG_GRADCHECK (fold_half, &n, x, y);
      free (w), free (x), free (y), free (xf), free (yf);
    }
  return tg_exit ();
}

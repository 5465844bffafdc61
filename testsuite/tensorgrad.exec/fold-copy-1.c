/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A temporary that copies another array is read from it (lib/passes/
   fold.c step 5): a convolution's accumulator gets the adjoint d1 = d_y
   at every output element, which the bias's sum and the window's nest
   both read; they read d_y instead, and the copy and its pass go.  A
   1-D valid convolution with a bias over rows by pointer offsets
   (float), a 2-D one with zero padding (double, NULL-able shadows).
   Every gradient component against central differences.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv1d (int n, int L, const float *x, const float *k, const float *b,
        float *y)
{
  for (int r = 0; r < n; r++)
    {
      const float *xr = x + r * (L + 2);
      for (int i = 0; i < L; i++)
        {
          float acc = b[r];
          for (int t = 0; t < 3; t++)
            acc += xr[i + t] * k[t];
          y[r * L + i] = acc;
        }
    }
}

__attribute__ ((differentiable))
void
conv2d (int h, int w, const double *x, const double *k, const double *b,
        double *y)
{
  for (int oh = 0; oh < h; oh++)
    for (int ow = 0; ow < w; ow++)
      {
        double acc = b[0];
        for (int kh = 0; kh < 3; kh++)
          for (int kw = 0; kw < 3; kw++)
            {
              int ih = oh + kh - 1, iw = ow + kw - 1;
              if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                acc += x[ih * w + iw] * k[kh * 3 + kw];
            }
        y[oh * w + ow] = acc;
      }
}

int
main (void)
{
  int n = 3, L = 7, h = 5, w = 6;
  float *x = tg_alloc_f (n * (L + 2)), *k = tg_alloc_f (3);
  float *b = tg_alloc_f (n), *y = tg_alloc_f (n * L);
  double *xd = tg_alloc (h * w), *kd = tg_alloc (9), *bd = tg_alloc (1);
  double *yd = tg_alloc (h * w);
  tg_fill_f (x, n * (L + 2), 1, -1, 1);
  tg_fill_f (k, 3, 2, -1, 1);
  tg_fill_f (b, n, 3, -1, 1);
  tg_fill (xd, h * w, 4, -1, 1);
  tg_fill (kd, 9, 5, -1, 1);
  tg_fill (bd, 1, 6, -1, 1);
  TG_GRADCHECK (conv1d, &n, &L, x, k, b, y);
  TG_GRADCHECK (conv2d, &h, &w, xd, kd, bd, yd);
  TG_GRADCHECK_NULL (conv2d, "x b", &h, &w, xd, kd, bd, yd);
  TG_GRADCHECK_NULL (conv2d, "k", &h, &w, xd, kd, bd, yd);
  free (x), free (k), free (b), free (y), free (xd), free (kd), free (bd);
  free (yd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "fold: d1, a copy of d_y, is read from it \\(\[0-9\]+ statement\\(s\\)\\)" 2 } } */

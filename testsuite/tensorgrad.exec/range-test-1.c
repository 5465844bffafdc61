/* { dg-do run } */
/* A range test GCC folds, (unsigned) E <= C for 0 <= E && E <= C
   (the front end does at -O1 and up), lifted as the pair of signed
   tests (plugin/lift-index.cc, lift_unsigned_range), so that the guard
   analyses read bounds from it: the extent of each array, the
   descriptor TG_GRADCHECK needs.
   pad3: a 3 x 3 convolution with constant sizes (2 filters over
   5 x 5, float), zero padding by a bounds test, which -O2 and -O3 fold
   to (unsigned) (oh + kh - 1) <= 4.  Before, it got no descriptor there
   ("the extent of 'x' cannot be told").
   shift: a stencil in double whose author wrote the unsigned tests:
   y[i] = x[i] w[i], plus x[i - 1] x[i] where (unsigned) (i - 1) < 3u,
   plus 2 w[i - 2] where not (unsigned) (i - 2) >= 2u, over i < 5 (the
   tests keep i - 1 in [0, 3) and i - 2 in [0, 2)).
   Checked against central differences, also with NULL shadows.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
pad3 (const float *x, const float *wt, float *y)
{
  for (int o = 0; o < 2; o++)
    for (int oh = 0; oh < 5; oh++)
      for (int ow = 0; ow < 5; ow++)
        {
          float acc = 0;
          for (int kh = 0; kh < 3; kh++)
            for (int kw = 0; kw < 3; kw++)
              {
                int ih = oh + kh - 1, iw = ow + kw - 1;
                if (ih >= 0 && ih < 5 && iw >= 0 && iw < 5)
                  acc += x[ih * 5 + iw] * wt[(o * 3 + kh) * 3 + kw];
              }
          y[(o * 5 + oh) * 5 + ow] = acc;
        }
}

__attribute__ ((differentiable))
void
shift (const double *x, const double *w, double *y)
{
  for (int i = 0; i < 5; i++)
    {
      double v = x[i] * w[i];
      if ((unsigned) (i - 1) < 3u)
        v += x[i - 1] * x[i];
      if (!((unsigned) (i - 2) >= 2u))
        v += 2.0 * w[i - 2];
      y[i] = v;
    }
}

int
main (void)
{
  float *x = tg_alloc_f (25), *wt = tg_alloc_f (18), *y = tg_alloc_f (50);
  tg_fill_f (x, 25, 1, -1, 1);
  tg_fill_f (wt, 18, 2, -1, 1);
  TG_GRADCHECK (pad3, x, wt, y);
  TG_GRADCHECK_NULL (pad3, "x", x, wt, y);
  TG_GRADCHECK_NULL (pad3, "wt", x, wt, y);

  double *sx = tg_alloc (5), *sw = tg_alloc (5), *sy = tg_alloc (5);
  tg_fill (sx, 5, 3, -1, 1);
  tg_fill (sw, 5, 4, -1, 1);
  TG_GRADCHECK (shift, sx, sw, sy);
  TG_GRADCHECK_NULL (shift, "w", sx, sw, sy);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-not "no descriptor" } } */

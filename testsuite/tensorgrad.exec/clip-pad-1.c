/* { dg-do run } */
/* A 1-D convolution with zero padding P written as a bounds test, a
   window of K taps, double:
     y[i] = b + sum_{k < K} (0 <= i + k - P < n ? x[i + k - P] w[k] : 0),
   so d_x[i + k - P] += w[k] d_y[i] and d_w[k] += x[i + k - P] d_y[i]
   where 0 <= i + k - P < n, d_b += sum_i d_y[i].  clip.c runs the
   taps of each pixel from max (0, P - i) to min (K, P + n - i) instead
   of testing the bounds per tap.  Sizes: rows longer than a
   block of lanes (19, 8 + a rest), shorter than the window (2, the
   bounds empty for some taps), padding 0, 2 and wider than the window;
   checked against central differences, also with NULL shadows.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
conv_pad (int n, int K, int P, const double *x, const double *w,
          const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double acc = b[0];
      for (int k = 0; k < K; k++)
        {
          int j = i + k - P;
          if (j >= 0 && j < n)
            acc += x[j] * w[k];
        }
      y[i] = acc;
    }
}

static void
check (int n, int K, int P)
{
  double *x = tg_alloc (n), *w = tg_alloc (K), *b = tg_alloc (1);
  double *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (w, K, 2, -1, 1);
  tg_fill (b, 1, 3, -1, 1);
  TG_GRADCHECK (conv_pad, &n, &K, &P, x, w, b, y);
  TG_GRADCHECK_NULL (conv_pad, "x", &n, &K, &P, x, w, b, y);
  TG_GRADCHECK_NULL (conv_pad, "w b", &n, &K, &P, x, w, b, y);
}

int
main (void)
{
  check (19, 5, 2);
  check (2, 5, 2);
  check (7, 3, 0);
  check (9, 3, 4);
  check (1, 1, 0);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-after clip "clip: the loop over k runs where its statements' guards hold, 2 test\\(s\\) fewer" } } */
/* { dg-final { scan-tensorgrad-backward "for max \\(0, P - i\\) <= k < min \\(K, P \\+ \\(n - i\\)\\): d_x\\\[" } } */
/* { dg-final { scan-tensorgrad-backward-not "if \\(.*d_x\\\[" } } */

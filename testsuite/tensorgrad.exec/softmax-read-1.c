/* { dg-do run } */
/* Read, don't recompute: a softmax's gradient reads the forward's y and
   d_y only, d_x[j] += y[j] (d_y[j] - sum_k y[k] d_y[k]), two passes over
   a row and no exp, no maximum.  The exponentials exp (x - m) the
   backward of the sum needs are y * s (reuse, from the stored quotient);
   the sum's adjoint, divided by s in every contribution, is kept times
   s (rescale), so the factor s of y * s cancels and s, the maximum and
   the exponentials are not computed again.  (A softmax dividing in
   place, y[j] /= s: rescale-row-1.c.)  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += expf (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (x[i * m + j] - mx) / s;
    }
}

int
main (void)
{
  int n = 3, m = 7;
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  TG_GRADCHECK (softmax, &n, &m, x, y);
  TG_GRADCHECK_NULL (softmax, "x", &n, &m, x, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "rescale: d_s holds s times its adjoint" 1 } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "max \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*\\*" } } */

/* { dg-do run } */
/* A row's sum kept after a later loop of the row rewrote what it summed:
   a softmax that divides its exponentials in place and then caches the
   row's normalizer and log-sum-exp, as a training loop keeps them for
   the loss.  The lifter computes the sum where it is stored, after the
   division; it must sum the exponentials, not the probabilities (the
   version before the rewrite).  y = softmax (x), z = sum exp (x - m),
   lse = m + log z: d_x += y (d_y - sum y d_y) + y (d_z z + d_lse).
   Float with a compare-and-assign maximum, double with fmax and the sum
   also scaled afterwards.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax_lse (int N, int V, const float *x, float *p, float *zs, float *lse)
{
  for (int n = 0; n < N; n++)
    {
      float mx = x[n * V];
      for (int j = 1; j < V; j++)
        if (x[n * V + j] > mx)
          mx = x[n * V + j];
      float z = 0;
      for (int j = 0; j < V; j++)
        {
          p[n * V + j] = expf (x[n * V + j] - mx);
          z += p[n * V + j];
        }
      for (int j = 0; j < V; j++)
        p[n * V + j] /= z;
      zs[n] = z;
      lse[n] = mx + logf (z);
    }
}

__attribute__ ((differentiable))
void
squares (int B, int V, const double *x, double *p, double *zs)
{
  for (int b = 0; b < B; b++)
    {
      double z = 0;
      for (int j = 0; j < V; j++)
        {
          p[b * V + j] = x[b * V + j] * x[b * V + j];
          z += p[b * V + j];
        }
      for (int j = 0; j < V; j++)
        p[b * V + j] *= 2;
      zs[b] = z * 0.5;
    }
}

int
main (void)
{
  int N = 3, V = 5;
  float *x = tg_alloc_f (N * V), *p = tg_alloc_f (N * V);
  float *zs = tg_alloc_f (N), *lse = tg_alloc_f (N);
  tg_fill_f (x, N * V, 1, -2, 2);
  TG_GRADCHECK (softmax_lse, &N, &V, x, p, zs, lse);
  TG_GRADCHECK_NULL (softmax_lse, "p", &N, &V, x, p, zs, lse);

  int B = 2, W = 4;
  double *xd = tg_alloc (B * W), *pd = tg_alloc (B * W), *zd = tg_alloc (B);
  tg_fill (xd, B * W, 2, -1, 1);
  TG_GRADCHECK (squares, &B, &W, xd, pd, zd);
  return tg_exit ();
}

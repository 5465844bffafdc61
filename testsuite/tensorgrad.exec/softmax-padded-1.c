/* { dg-do run } */
/* Softmax over rows of length Vp of which only the first V entries are
   real (a vocabulary padded for alignment): the maximum, the exponentials
   and their sum run to V, a separate loop zeroes entries V..Vp-1.  The
   loops write disjoint ranges of each row; each inner loop reads what an
   earlier one wrote in the same row.  With y = softmax over the V real
   entries: d_x[i] += y[i] (d_y[i] - sum_k d_y[k] y[k]) for i < V, and
   nothing for the padding.  Also in double with 1/z computed once.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax_padded (int B, int V, int Vp, const float *logits, float *probs)
{
  for (int b = 0; b < B; b++)
    {
      const float *x = logits + b * Vp;
      float *p = probs + b * Vp;
      float mx = -1e30f;
      for (int i = 0; i < V; i++)
        if (x[i] > mx)
          mx = x[i];
      float z = 0;
      for (int i = 0; i < V; i++)
        {
          p[i] = expf (x[i] - mx);
          z += p[i];
        }
      for (int i = 0; i < V; i++)
        p[i] /= z;
      for (int i = V; i < Vp; i++)
        p[i] = 0.0f;
    }
}

__attribute__ ((differentiable))
void
softmax_padded_inv (int B, int V, int Vp, const double *x, double *p)
{
  for (int b = 0; b < B; b++)
    {
      double mx = -1e300;
      for (int i = 0; i < V; i++)
        mx = fmax (mx, x[b * Vp + i]);
      double z = 0;
      for (int i = 0; i < V; i++)
        {
          p[b * Vp + i] = exp (x[b * Vp + i] - mx);
          z += p[b * Vp + i];
        }
      double inv = 1.0 / z;
      for (int i = 0; i < V; i++)
        p[b * Vp + i] *= inv;
      for (int i = V; i < Vp; i++)
        p[b * Vp + i] = 0.0;
    }
}

int
main (void)
{
  int B = 3, V = 5, Vp = 8;
  float *x = tg_alloc_f (B * Vp), *p = tg_alloc_f (B * Vp);
  tg_fill_f (x, B * Vp, 1, -2, 2);
  TG_GRADCHECK (softmax_padded, &B, &V, &Vp, x, p);

  double *xd = tg_alloc (B * Vp), *pd = tg_alloc (B * Vp);
  tg_fill (xd, B * Vp, 2, -2, 2);
  TG_GRADCHECK (softmax_padded_inv, &B, &V, &Vp, xd, pd);
  return tg_exit ();
}

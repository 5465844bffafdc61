/* { dg-do run } */
/* How to rewrite (README): a value read from a row a later loop
   rewrites.  The rewrite of tensorgrad.err/rewrite-stale-read.c: the
   maximum is taken of the logits, which nothing rewrites, and the
   exponentials read them too; the row is still normalized in place.
   Checked: probs and lse equal the original's (compiled here as plain
   C), and the gradient through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define softmax_lse softmax_lse_orig
#include "tensorgrad.err/rewrite-stale-read.c"
#undef softmax_lse
#undef differentiable

__attribute__ ((differentiable))
void
softmax_lse (int N, int V, const double *logits, double *probs, double *lse)
{
  for (int n = 0; n < N; n++)
    {
      double *p = probs + n * V;
      double m = -INFINITY;
      for (int v = 0; v < V; v++)
        m = fmax (m, logits[n * V + v]);
      for (int v = 0; v < V; v++)
        p[v] = exp (logits[n * V + v] - m);
      double z = 0;
      for (int v = 0; v < V; v++)
        z += p[v];
      for (int v = 0; v < V; v++)
        p[v] /= z;
      lse[n] = m + log (z);
    }
}

int
main (void)
{
  int N = 3, V = 5;
  double *x = tg_alloc (N * V), *p = tg_alloc (N * V), *lse = tg_alloc (N);
  double *p0 = tg_alloc (N * V), *lse0 = tg_alloc (N);
  tg_fill (x, N * V, 1, -2, 2);
  softmax_lse_orig (N, V, x, p0, lse0);
  softmax_lse (N, V, x, p, lse);
  for (int k = 0; k < N * V; k++)
    CHECK_NEAR_AT (p[k], p0[k], 1e-15, 0, k);
  for (int n = 0; n < N; n++)
    CHECK_NEAR_AT (lse[n], lse0[n], 1e-15, 0, n);
  TG_GRADCHECK (softmax_lse, &N, &V, x, p, lse);
  return tg_exit ();
}

/* { dg-do compile } */
/* How to rewrite (README): a value read from a row a later loop
   rewrites.  A softmax computed in place in the output row, the logits
   copied there first, and the row's log-sum-exp from its maximum: the
   maximum was read from the row before the exponentials rewrote it.
   Refused at the use, with a note at the rewrite.  The rewrite, the
   maximum taken of the logits, is tensorgrad.exec/rewrite-stale-read.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
softmax_lse (int N, int V, const double *logits, double *probs, double *lse)
{
  for (int n = 0; n < N; n++)
    {
      double *p = probs + n * V;
      for (int v = 0; v < V; v++)
        p[v] = logits[n * V + v];
      double m = -INFINITY;
      for (int v = 0; v < V; v++)
        m = fmax (m, p[v]);
      for (int v = 0; v < V; v++)
        p[v] = exp (p[v] - m); /* { dg-message "'probs' is rewritten here; keep the value in a local array written before this loop" } */
      double z = 0;
      for (int v = 0; v < V; v++)
        z += p[v];
      for (int v = 0; v < V; v++)
        p[v] /= z;
      lse[n] = m + log (z); /* { dg-error "this statement uses a value read from 'probs' before a later loop rewrote it; not supported yet" } */
    }
}

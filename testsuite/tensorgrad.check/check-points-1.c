/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A gradient that requires each entry of an index array within its own
   row (the cross-entropy of a padded softmax: lib/passes/points.c) is
   checked with index values 0 and 1 when the usual ones (distinct, below
   e + 4) leave the row; before, the check failed to evaluate it.  */

#include <math.h>

__attribute__ ((differentiable))
void
xent (int N, int V, int Vp, const double *logits, const int *target, /* { dg-message "gradient of .xent. checked at N=3, V=2, Vp=4: worst relative error \[0-9.e+-\]+ in .d_logits." } */
      double *probs, double *losses)
{
  for (int n = 0; n < N; n++)
    {
      double mx = -1e300;
      for (int j = 0; j < V; j++)
        mx = fmax (mx, logits[n * Vp + j]);
      double s = 0;
      for (int j = 0; j < V; j++)
        s += probs[n * Vp + j] = exp (logits[n * Vp + j] - mx);
      for (int j = 0; j < V; j++)
        probs[n * Vp + j] /= s;
      for (int j = V; j < Vp; j++)
        probs[n * Vp + j] = 0;
    }
  for (int n = 0; n < N; n++)
    losses[n] = -log (probs[n * Vp + target[n]]);
}

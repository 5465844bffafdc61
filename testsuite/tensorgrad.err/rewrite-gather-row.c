/* { dg-do compile } */
/* How to rewrite (README): a read through an index array of what the
   row loop writes.  A softmax with its cross-entropy in one row loop,
   the probability of the target picked through a flat index into the
   whole matrix, pick[n] (= n * V + the target): it may name a row a
   later iteration writes.  Refused at the read.  The rewrites, the
   target read in the row (or the loss in a loop of its own), are
   tensorgrad.exec/rewrite-gather-row.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
crossent (int N, int V, const double *logits, const int *pick, double *probs,
          double *losses)
{
  for (int n = 0; n < N; n++)
    {
      double mx = -INFINITY;
      for (int j = 0; j < V; j++)
        mx = fmax (mx, logits[n * V + j]);
      double s = 0;
      for (int j = 0; j < V; j++)
        {
          probs[n * V + j] = exp (logits[n * V + j] - mx);
          s += probs[n * V + j];
        }
      for (int j = 0; j < V; j++)
        probs[n * V + j] /= s;
      losses[n] = -log (probs[pick[n]]); /* { dg-error "'probs' is read here where an earlier loop of the same nest may not have written it yet; not supported yet" } */
      /* { dg-message "the gradient runs each inner loop of the nest to its end before the next; read only what the earlier loop wrote in this iteration of the outer loop or before" "" { target *-*-* } .-1 } */
    }
}

/* { dg-do compile } */
/* A softmax with its cross-entropy loss in one row loop: the loss reads
   the probability of the target through the integer index target[n],
   which could name any element, also one a later iteration writes; the
   plugin cannot tell it lies in row n.  Refused at the read, with a
   note; in a loop over the rows of its own the loss is accepted.  */

#include <math.h>

__attribute__ ((differentiable))
void
crossent (int N, int V, const float *logits, const int *target, float *probs,
          float *losses)
{
  for (int n = 0; n < N; n++)
    {
      float mx = -1e30f;
      for (int j = 0; j < V; j++)
        if (logits[n * V + j] > mx)
          mx = logits[n * V + j];
      float s = 0;
      for (int j = 0; j < V; j++)
        {
          probs[n * V + j] = expf (logits[n * V + j] - mx);
          s += probs[n * V + j];
        }
      for (int j = 0; j < V; j++)
        probs[n * V + j] /= s;
      losses[n] = -logf (probs[n * V + target[n]]); /* { dg-error "'probs' is read here where an earlier loop of the same nest may not have written it yet; not supported yet" } */
    }
}

/* { dg-message "the gradient runs each inner loop of the nest to its end" "" { target *-*-* } 0 } */

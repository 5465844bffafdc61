/* { dg-do compile } */
/* A softmax with a loss in one row loop that reads a probability
   through a flat index into the whole matrix, pick[n]: it may name an
   element of a row a later iteration writes, whose value the source
   reads before it is written.  Refused at the read, with a note.  Read
   as probs[n * V + target[n]], the probability of a target in the row
   the iteration wrote, it is accepted (tensorgrad.exec/crossent-row-1.c),
   and so is the loss in a loop over the rows of its own.  */

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
      losses[n] = -logf (probs[target[n]]); /* { dg-error "'probs' is read here where an earlier loop of the same nest may not have written it yet; not supported yet" } */
    }
}

/* { dg-message "the gradient runs each inner loop of the nest to its end" "" { target *-*-* } 0 } */

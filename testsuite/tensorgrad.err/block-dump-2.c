/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=block-dump-2.gen.c -fdump-tree-gimple" } */
/* The block of block-dump-1.c inside a loop over the samples of a batch,
   each sample's state a block of the tape: one stage over the batch and
   the time loops, in the forward and, run backwards, in the gradient.
   Run tests: block-recurrence-1.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
gru_batch (int B, int T, int H, const double *W, const double *U, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double h[16], r[16], hn[16];
      for (int i = 0; i < H; i++)
        h[i] = 0.5;
      for (int t = 0; t < T; t++)
        {
          for (int i = 0; i < H; i++)
            {
              double s = 0;
              for (int j = 0; j < H; j++)
                s += W[i * H + j] * h[j];
              r[i] = tanh (s);
            }
          for (int i = 0; i < H; i++)
            {
              double s = 0;
              for (int j = 0; j < H; j++)
                s += U[i * H + j] * r[j] * h[j];
              hn[i] = tanh (s);
            }
          for (int i = 0; i < H; i++)
            h[i] = hn[i];
        }
      for (int i = 0; i < H; i++)
        y[b * H + i] = h[i];
    }
}

/* { dg-final { scan-tensorgrad-dump "merge: the loops writing hn and h, one step of a recurrence, run as one" } } */
/* { dg-final { scan-tensorgrad-dump "block: the loops writing r to h run in the source's order, one step of a recurrence over 2 outer loops at a time" } } */
/* { dg-final { scan-tensorgrad-dump "for \\(reversed\\) \\(fused\\) b < B, t < T:" } } */
/* { dg-final { scan-tensorgrad-locals block-dump-2.gen.c gru_batch_grad } } */

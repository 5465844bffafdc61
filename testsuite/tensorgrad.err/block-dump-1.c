/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=block-dump-1.gen.c -fdump-tree-gimple" } */
/* A recurrence whose step runs two inner loops, the second reading all
   of the first one's row (a GRU's reset gate inside the candidate's
   matrix product), becomes one stage over the time loop with a loop per
   statement (lib/passes/blocks.c), and its gradient one stage that runs
   the steps backwards (over a batch: block-dump-2.c).  dump-c declares
   the locals GIMPLE has.  Run tests: block-recurrence-1.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
gru_like (int T, int H, const double *W, const double *U, const double *h0,
          double *r, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < H; i++)
        {
          double s = 0;
          for (int j = 0; j < H; j++)
            s += W[i * H + j] * h[t * H + j];
          r[t * H + i] = tanh (s);
        }
      for (int i = 0; i < H; i++)
        {
          double s = 0;
          for (int j = 0; j < H; j++)
            s += U[i * H + j] * r[t * H + j] * h[t * H + j];
          h[(t + 1) * H + i] = tanh (s);
        }
    }
}

/* { dg-final { scan-tensorgrad-dump "block: the loops writing r to h run in the source's order, one step of a recurrence over 1 outer loop at a time" } } */
/* { dg-final { scan-tensorgrad-after blocks "stage 1: for \\(fused\\) t < T:\n    for i < H: r\\\[" } } */
/* { dg-final { scan-tensorgrad-dump "for \\(reversed\\) \\(fused\\) t < T:" } } */
/* { dg-final { scan-tensorgrad-locals block-dump-1.gen.c gru_like_grad } } */

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A loss that applies a function to a sum over a carried state in every
   step, log (sum_j exp (h[j])), with the final state copied out to hT:
   carry (before hoist moves the inner sum to a stage of its own) gives h
   a tape and tells from where the loads were in the step which row each
   sum reads, the step's result (after the copy back) or its input
   (before the update).  Run tests: tensorgrad.exec/carry-step-sum-1.c,
   carry-step-sum-2.c.  */
/* { dg-final { scan-tensorgrad-dump "tape: 'h', carried by the loop over t, keeps its value in every iteration" } } */
/* { dg-final { scan-tensorgrad-dump "tape: a sum over t reads 'h' after the step's update" } } */
/* { dg-final { scan-tensorgrad-dump "tape: a sum over t reads 'h' before the step's update" } } */
/* { dg-final { scan-tensorgrad-after carry "log \\(sum \\(j < H; 0; exp \\(h\\\[H \\+ j \\+ H \\* t\\\]\\)\\)\\)" } } */
/* { dg-final { scan-tensorgrad-after carry "log \\(sum \\(j < H; 0; exp \\(h\\\[j \\+ H \\* t\\\]\\)\\)\\)" } } */

#include <math.h>

__attribute__ ((differentiable))
double
lse_after (int T, int H, const double *h0, const double *W, double *hT)
{
  double h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
      double se = 0;
      for (int j = 0; j < H; j++)
        se += exp (h[j]);
      loss += log (se);
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss;
}

__attribute__ ((differentiable))
double
lse_before (int T, int H, const double *h0, const double *W, double *hT)
{
  double h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      double se = 0;
      for (int j = 0; j < H; j++)
        se += exp (h[j]);
      loss += log (se);
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss;
}

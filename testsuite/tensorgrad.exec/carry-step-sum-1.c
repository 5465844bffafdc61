/* { dg-do run } */
/* A state a time loop updates in place (h[H], computed into hn[H] and
   copied back), its final state copied to the output hT, and a loss that
   applies a function to a sum over the state in every step:
     h_0 = h0,  h_{t+1} = tanh (W h_t),  hT = h_T,
     ret = sum_t log (sum_j exp (h_{t+1}[j])).
   The sum over j is nested in the sum over t; it reads the state of the
   step's end (after the copy back).  (1) double, (2) float, the loss read
   before the step's update instead: log (sum_j exp (h_t[j])), the
   step's input.  Checked through the descriptors, also with NULL
   shadows (no d_h0; no incoming adjoint for hT).  The dump's notes:
   tensorgrad.err/carry-dump-step-sum-1.c.  */

#include <math.h>
#include "tg-test.h"

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
float
lse_before (int T, int H, const float *h0, const float *W, float *hT)
{
  float h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  float loss = 0;
  for (int t = 0; t < T; t++)
    {
      float se = 0;
      for (int j = 0; j < H; j++)
        se += expf (h[j]);
      loss += logf (se);
      for (int j = 0; j < H; j++)
        {
          float s = 0;
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanhf (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss;
}

int
main (void)
{
  int T = 5, H = 3;
  double *h0 = tg_alloc (H), *W = tg_alloc (H * H), *hT = tg_alloc (H);
  tg_fill (h0, H, 1, -1, 1);
  tg_fill (W, H * H, 2, -1, 1);
  TG_GRADCHECK (lse_after, &T, &H, h0, W, hT);
  TG_GRADCHECK_NULL (lse_after, "h0 hT", &T, &H, h0, W, hT);

  int Tf = 4, Hf = 5;
  float *g0 = tg_alloc_f (Hf), *Wf = tg_alloc_f (Hf * Hf);
  float *gT = tg_alloc_f (Hf);
  tg_fill_f (g0, Hf, 3, -1, 1);
  tg_fill_f (Wf, Hf * Hf, 4, -0.6, 0.6);
  TG_GRADCHECK (lse_before, &Tf, &Hf, g0, Wf, gT);
  TG_GRADCHECK_NULL (lse_before, "W", &Tf, &Hf, g0, Wf, gT);
  return tg_exit ();
}

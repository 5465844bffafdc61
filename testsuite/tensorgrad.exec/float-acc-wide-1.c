/* { dg-do run } */
/* A float accumulator fed by double arithmetic, inside the loop of
   another reduction: se += exp (h[j]) with float se and h, which C
   computes as se = (float) ((double) se + exp ((double) h[j])), a sum
   through a conversion.
   lse_steps:  an RNN's state h over T steps, the loss summed over the
               steps of log (sum_j exp (h[j])) before the step's update
               h = tanh (W h):  d_h[j] += exp (h[j]) / se at every step,
               then back through the tanh;
   prod_rows:  float p = 1; p *= 1.0 + 0.5 * x[i][j] in every row, the
               loss summed over the rows of log (p):
               d_x[i][j] = 0.5 / (1 + 0.5 x[i][j]).
   The gradient goes through the conversions.  T = 4, 1; H = 3.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
float
lse_steps (int T, int H, const float *h0, const float *W, float *hT)
{
  float h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  float loss = 0;
  for (int t = 0; t < T; t++)
    {
      float se = 0;
      for (int j = 0; j < H; j++)
        se += exp (h[j]);
      loss += logf (se);
      for (int j = 0; j < H; j++)
        {
          const float *w = W + j * H;
          float s = 0;
          for (int k = 0; k < H; k++)
            s += w[k] * h[k];
          hn[j] = tanhf (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
  return loss;
}

__attribute__ ((differentiable))
float
prod_rows (int m, int n, const float *x)
{
  float loss = 0;
  for (int i = 0; i < m; i++)
    {
      float p = 1;
      for (int j = 0; j < n; j++)
        p *= 1.0 + 0.5 * x[i * n + j];
      loss += logf (p);
    }
  return loss;
}

int
main (void)
{
  static const int Ts[] = { 4, 1 };
  for (int q = 0; q < 2; q++)
    {
      int T = Ts[q], H = 3;
      float *h0 = tg_alloc_f (H), *W = tg_alloc_f (H * H);
      float *hT = tg_alloc_f (H), *x = tg_alloc_f (T * H);
      tg_fill_f (h0, H, 1 + q, -1, 1);
      tg_fill_f (W, H * H, 11 + q, -0.8, 0.8);
      tg_fill_f (x, T * H, 21 + q, -1, 1);
      TG_GRADCHECK (lse_steps, &T, &H, h0, W, hT);
      TG_GRADCHECK_NULL (lse_steps, "W", &T, &H, h0, W, hT);
      TG_GRADCHECK (prod_rows, &T, &H, x);
      free (h0), free (W), free (hT), free (x);
    }
  return tg_exit ();
}

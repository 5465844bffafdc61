/* { dg-do run } */
/* Sums over a carried state in every step, more shapes.  (1) The state
   read by the loss before the step's update, no copy out (the gradient
   read the step's result instead of its input):
     h_{t+1} = tanh (W h_t + x_t),  ret = sum_t log (sum_j exp (h_t[j])).
   (2) An LSTM (float) whose states h and c are computed into hn, cn and
   copied back, copied out to hT and cT at the end, with a log-sum-exp of
   the new h in every step:
     i, f, o = sigmoid (U_{i,f,o} h + x_t),  g = tanh (U_g h + x_t),
     c' = f c + i g,  h' = o tanh (c'),
     ret = sum_t log (sum_j exp (h'[j])).
   Checked through the descriptors, also with NULL shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
lse_input (int T, int H, const double *h0, const double *W, const double *x)
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
          double s = x[t * H + j];
          for (int k = 0; k < H; k++)
            s += W[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  return loss;
}

static inline float
sigm (float a)
{
  return 1.0f / (1.0f + expf (-a));
}

__attribute__ ((differentiable))
float
lstm_lse (int T, int H, const float *h0, const float *c0, const float *U,
          const float *x, float *hT, float *cT)
{
  float h[H], c[H], hn[H], cn[H];
  for (int j = 0; j < H; j++)
    {
      h[j] = h0[j];
      c[j] = c0[j];
    }
  float loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          float a[4];
          for (int q = 0; q < 4; q++)
            {
              float s = x[(t * 4 + q) * H + j];
              for (int k = 0; k < H; k++)
                s += U[(q * H + j) * H + k] * h[k];
              a[q] = s;
            }
          float cc = sigm (a[1]) * c[j] + sigm (a[0]) * tanhf (a[3]);
          cn[j] = cc;
          hn[j] = sigm (a[2]) * tanhf (cc);
        }
      for (int j = 0; j < H; j++)
        {
          h[j] = hn[j];
          c[j] = cn[j];
        }
      float se = 0;
      for (int j = 0; j < H; j++)
        se += expf (h[j]);
      loss += logf (se);
    }
  for (int j = 0; j < H; j++)
    {
      hT[j] = h[j];
      cT[j] = c[j];
    }
  return loss;
}

int
main (void)
{
  int T = 4, H = 3;
  double *h0 = tg_alloc (H), *W = tg_alloc (H * H), *x = tg_alloc (T * H);
  tg_fill (h0, H, 1, -1, 1);
  tg_fill (W, H * H, 2, -1, 1);
  tg_fill (x, T * H, 3, -0.5, 0.5);
  TG_GRADCHECK (lse_input, &T, &H, h0, W, x);
  TG_GRADCHECK_NULL (lse_input, "x", &T, &H, h0, W, x);

  int Tf = 3, Hf = 4;
  float *g0 = tg_alloc_f (Hf), *c0 = tg_alloc_f (Hf);
  float *U = tg_alloc_f (4 * Hf * Hf), *xf = tg_alloc_f (Tf * 4 * Hf);
  float *hT = tg_alloc_f (Hf), *cT = tg_alloc_f (Hf);
  tg_fill_f (g0, Hf, 4, -1, 1);
  tg_fill_f (c0, Hf, 5, -1, 1);
  tg_fill_f (U, 4 * Hf * Hf, 6, -0.5, 0.5);
  tg_fill_f (xf, Tf * 4 * Hf, 7, -0.5, 0.5);
  TG_GRADCHECK (lstm_lse, &Tf, &Hf, g0, c0, U, xf, hT, cT);
  TG_GRADCHECK_NULL (lstm_lse, "h0 hT", &Tf, &Hf, g0, c0, U, xf, hT, cT);
  return tg_exit ();
}

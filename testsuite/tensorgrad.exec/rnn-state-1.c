/* { dg-do run } */
/* A plain RNN whose state h[H] a time loop carries: each step computes
   hn[j] = tanh (W[j] . x[t] + U[j] . h) into a temporary, copies it back
   (h[j] = hn[j]), and adds a loss at every step, summed over time.  The
   state becomes a tape with one row per step (carry.c) and the gradient
   runs backwards through time.  With h_{t+1} = tanh (a_t), for t from
   T - 1 down: dh_{t+1} += dL/dh_{t+1} (the step's loss), da_t = dh_{t+1}
   (1 - h_{t+1}^2), d_W[j][i] += da_t[j] x[t][i], d_U[j][k] += da_t[j]
   h_t[k], d_x[t][i] += sum_j da_t[j] W[j][i], dh_t[k] = sum_j da_t[j]
   U[j][k]; d_h0 += dh_0.
   rnn:      double, h zeroed first, loss sum_t sum_j (h_{t+1}[j] - y[t][j])^2
             read after the copy (the step's result).
   rnn_pre:  double, the loss read before the step's update (h_t . y[t]),
             h copied from the input h0 first; also with d_W NULL.
   rnn_f:    float, a VLA state h[H] and temporary hn[H], the final state
             returned in the caller's hT.
   TG_GRADCHECK checks every input's gradient against central
   differences and the ABI.  Sizes H = 3, T = 5 (and T = 1, and T = 0 for
   rnn_f).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable)) double
rnn (int T, int H, int I, const double *x, const double *W, const double *U,
     const double *y)
{
  double h[16], hn[16];
  for (int j = 0; j < H; j++)
    h[j] = 0;
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int i = 0; i < I; i++)
            s += W[j * I + i] * x[t * I + i];
          for (int k = 0; k < H; k++)
            s += U[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
      for (int j = 0; j < H; j++)
        loss += (h[j] - y[t * H + j]) * (h[j] - y[t * H + j]);
    }
  return loss;
}

__attribute__ ((differentiable)) double
rnn_pre (int T, int H, int I, const double *x, const double *W,
         const double *U, const double *h0, const double *y)
{
  double h[16], hn[16];
  for (int j = 0; j < H; j++)
    h[j] = h0[j];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        loss += h[j] * y[t * H + j];
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int i = 0; i < I; i++)
            s += W[j * I + i] * x[t * I + i];
          for (int k = 0; k < H; k++)
            s += U[j * H + k] * h[k];
          hn[j] = tanh (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  return loss;
}

__attribute__ ((differentiable)) void
rnn_f (int T, int H, int I, const float *x, const float *W, const float *U,
       float *hT)
{
  float h[H], hn[H];
  for (int j = 0; j < H; j++)
    h[j] = 0.25f;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          float s = 0;
          for (int i = 0; i < I; i++)
            s += W[j * I + i] * x[t * I + i];
          for (int k = 0; k < H; k++)
            s += U[j * H + k] * h[k];
          hn[j] = tanhf (s);
        }
      for (int j = 0; j < H; j++)
        h[j] = hn[j];
    }
  for (int j = 0; j < H; j++)
    hT[j] = h[j];
}

enum { T = 5, H = 3, I = 2 };

int
main (void)
{
  int t = T, hh = H, ii = I, one = 1;
  double *x = tg_alloc (T * I), *W = tg_alloc (H * I), *U = tg_alloc (H * H);
  double *y = tg_alloc (T * H), *h0 = tg_alloc (H);
  tg_fill (x, T * I, 1, -1, 1);
  tg_fill (W, H * I, 2, -1, 1);
  tg_fill (U, H * H, 3, -0.9, 0.9);
  tg_fill (y, T * H, 4, -1, 1);
  tg_fill (h0, H, 5, -0.5, 0.5);
  TG_GRADCHECK (rnn, &t, &hh, &ii, x, W, U, y);
  TG_GRADCHECK (rnn, &one, &hh, &ii, x, W, U, y);
  TG_GRADCHECK (rnn_pre, &t, &hh, &ii, x, W, U, h0, y);
  TG_GRADCHECK_NULL (rnn_pre, "W", &t, &hh, &ii, x, W, U, h0, y);

  float *xf = tg_alloc_f (T * I), *Wf = tg_alloc_f (H * I);
  float *Uf = tg_alloc_f (H * H), *hT = tg_alloc_f (H);
  tg_fill_f (xf, T * I, 6, -1, 1);
  tg_fill_f (Wf, H * I, 7, -1, 1);
  tg_fill_f (Uf, H * H, 8, -0.9, 0.9);
  TG_GRADCHECK (rnn_f, &t, &hh, &ii, xf, Wf, Uf, hT);
  int zero = 0; /* no step: hT is the initial state, no gradient */
  TG_GRADCHECK (rnn_f, &zero, &hh, &ii, xf, Wf, Uf, hT);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An LSTM as people write it: the state h, c in arrays of H elements,
   zeroed (or copied from h0) before the time loop and updated in place
   in every step; a gate buffer g[4H] rewritten in every step.  The state
   becomes a tape with one row per step (carry.c), g one copy per step
   (expand.c); the gate loop over 4H is split into four blocks over H
   and runs with the state loop as one step of a recurrence (siblings.c),
   whose gradient runs backwards through time.  With
   a_k = W[kH + j] . x[t] + U[kH + j] . h_t (k = i, f, o, g),
   c_{t+1} = sig (a_f) c_t + sig (a_i) tanh (a_g),
   h_{t+1} = sig (a_o) tanh (c_{t+1}), for t from T - 1 down:
     dc += dh sig (a_o) (1 - tanh^2 c_{t+1});  da_o = dh tanh (c_{t+1}) sig' (a_o);
     da_f = dc c_t sig' (a_f); da_i = dc tanh (a_g) sig' (a_i);
     da_g = dc sig (a_i) (1 - tanh^2 a_g);  dc_t = dc sig (a_f);
     d_W[kH + j][i] += da_k x[t][i];  d_U[kH + j][m] += da_k h_t[m];
     dh_t[m] = sum_{k, j} da_k U[kH + j][m] (+ what the outputs send);
   and d_h0 += dh_0.
   lstm:     the probe's form, double: local h[16], c[16], g[64]; every
             step's h and c stored in hs and cs.
   lstm_out: float, a VLA g[4*H], the state in the caller's h and c (the
             final state), h copied from the input h0 first; also with
             d_h0 NULL.
   TG_GRADCHECK checks d_x, d_W, d_U (and d_h0) against central
   differences, accumulation into the input shadows, and that the inputs,
   outputs and output adjoints are untouched.  Sizes: H = 3, T = 5.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable)) static double
sig (double z)
{
  return 1.0 / (1.0 + exp (-z));
}

__attribute__ ((differentiable)) void
lstm (int T, int H, int I, const double *x, const double *W, const double *U,
      double *hs, double *cs)
{
  double g[4 * 16];
  double h[16], c[16];
  for (int j = 0; j < H; j++)
    {
      h[j] = 0;
      c[j] = 0;
    }
  for (int t = 0; t < T; t++)
    {
      for (int r = 0; r < 4 * H; r++)
        {
          double s = 0;
          for (int i = 0; i < I; i++)
            s += W[r * I + i] * x[t * I + i];
          for (int j = 0; j < H; j++)
            s += U[r * H + j] * h[j];
          g[r] = s;
        }
      for (int j = 0; j < H; j++)
        {
          double ig = sig (g[j]), fg = sig (g[H + j]), og = sig (g[2 * H + j]);
          double cc = tanh (g[3 * H + j]);
          c[j] = fg * c[j] + ig * cc;
          h[j] = og * tanh (c[j]);
          hs[t * H + j] = h[j];
          cs[t * H + j] = c[j];
        }
    }
}

__attribute__ ((differentiable)) static float
sigf (float z)
{
  return 1.0f / (1.0f + expf (-z));
}

__attribute__ ((differentiable)) void
lstm_out (int T, int H, int I, const float *x, const float *W,
          const float *U, const float *h0, float *h, float *c)
{
  float g[4 * H];
  for (int j = 0; j < H; j++)
    {
      h[j] = h0[j];
      c[j] = 0;
    }
  for (int t = 0; t < T; t++)
    {
      for (int r = 0; r < 4 * H; r++)
        {
          float s = 0;
          for (int i = 0; i < I; i++)
            s += W[r * I + i] * x[t * I + i];
          for (int j = 0; j < H; j++)
            s += U[r * H + j] * h[j];
          g[r] = s;
        }
      for (int j = 0; j < H; j++)
        {
          float ig = sigf (g[j]), fg = sigf (g[H + j]);
          float og = sigf (g[2 * H + j]), cc = tanhf (g[3 * H + j]);
          c[j] = fg * c[j] + ig * cc;
          h[j] = og * tanhf (c[j]);
        }
    }
}

/* { dg-final { scan-tensorgrad-dump "tape: 'h', carried by the loop over t, keeps its value in every iteration: H \\+ H \\* max \\(T, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump "tape: 'c', carried by the loop over t, keeps its value in every iteration: H \\+ H \\* max \\(T, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump "tape: 'h', carried by the loop over t, keeps its value in every iteration in h.tape: H \\+ H \\* max \\(T, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump-times "split: the loop writing g, over H \\* 4, runs as 4 statements over H" 2 } } */

enum { T = 5, H = 3, I = 2 };

int
main (void)
{
  int t = T, hh = H, ii = I;
  double *x = tg_alloc (T * I), *W = tg_alloc (4 * H * I);
  double *U = tg_alloc (4 * H * H);
  double *hs = tg_alloc (T * H), *cs = tg_alloc (T * H);
  tg_fill (x, T * I, 1, -1, 1);
  tg_fill (W, 4 * H * I, 2, -0.8, 0.8);
  tg_fill (U, 4 * H * H, 3, -0.8, 0.8);
  TG_GRADCHECK (lstm, &t, &hh, &ii, x, W, U, hs, cs);
  TG_GRADCHECK_NULL (lstm, "W", &t, &hh, &ii, x, W, U, hs, cs);

  float *xf = tg_alloc_f (T * I), *Wf = tg_alloc_f (4 * H * I);
  float *Uf = tg_alloc_f (4 * H * H), *h0 = tg_alloc_f (H);
  float *h = tg_alloc_f (H), *c = tg_alloc_f (H);
  tg_fill_f (xf, T * I, 4, -1, 1);
  tg_fill_f (Wf, 4 * H * I, 5, -0.8, 0.8);
  tg_fill_f (Uf, 4 * H * H, 6, -0.8, 0.8);
  tg_fill_f (h0, H, 7, -0.5, 0.5);
  TG_GRADCHECK (lstm_out, &t, &hh, &ii, xf, Wf, Uf, h0, h, c);
  TG_GRADCHECK_NULL (lstm_out, "h0", &t, &hh, &ii, xf, Wf, Uf, h0, h, c);
  return tg_exit ();
}

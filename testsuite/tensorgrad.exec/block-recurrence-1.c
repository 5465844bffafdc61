/* { dg-do run } */
/* Recurrences whose step runs several inner loops in sequence, each
   reading all of what the loop before it wrote, so that they cannot run
   as one loop over the elements of a step: the first loop of a step reads
   the state that the last one wrote in the step before.  The stages of a
   step become one stage over the time loop (and the loops over the
   samples of a batch around it), each statement with its inner loop
   ("block:" in the dump, block-dump-1.c); the gradient runs the steps
   backwards, each step's loops in reverse order.
     gru_seq:   a GRU-like cell over time (reset gate inside the
                candidate's matrix product), the states kept in an output.
     gru_like:  the same with the state rows an output the kernel
                indexes itself, h[(t + 1) H + i], and the gates too.
     rnn_batch: an Elman RNN over a batch of sequences whose step computes
                the new state into hn and copies it into h in a second
                loop (one loop per element: "merge:").
     gru:       a GRU as written in practice, float: update and reset
                gates in one loop with input and recurrent weights and
                biases, r*h in a loop of its own, the candidate and the
                state update in a third, the state copied through a
                pointer into an output row per step; a batch of
                sequences.
     lstm:      an LSTM over a batch, gates into one buffer g[4H], then
                the cell and the state.
     springs:   semi-implicit Euler per sample, velocities in one loop,
                positions in the next.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
sigm (double a)
{
  return 1 / (1 + exp (-a));
}

__attribute__ ((differentiable))
void
gru_seq (int T, int H, const double *x, const double *Ur, const double *Uh,
         double *hs)
{
  double h[16], r[16], hn[16];
  for (int j = 0; j < H; j++)
    h[j] = 0;
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < H; j++)
        {
          double s = x[t];
          for (int k = 0; k < H; k++)
            s += Ur[j * H + k] * h[k];
          r[j] = sigm (s);
        }
      for (int j = 0; j < H; j++)
        {
          double sh = x[t];
          for (int k = 0; k < H; k++)
            sh += Uh[j * H + k] * (r[k] * h[k]);
          hn[j] = 0.5 * h[j] + 0.5 * tanh (sh);
        }
      for (int j = 0; j < H; j++)
        {
          h[j] = hn[j];
          hs[t * H + j] = h[j];
        }
    }
}

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

__attribute__ ((differentiable))
void
rnn_batch (int B, int T, int H, const double *x, const double *W,
           const double *U, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double h[16];
      for (int j = 0; j < H; j++)
        h[j] = 0.0;
      for (int t = 0; t < T; t++)
        {
          double hn[16];
          for (int i = 0; i < H; i++)
            {
              double a = U[i] * x[b * T + t];
              for (int j = 0; j < H; j++)
                a += W[i * H + j] * h[j];
              hn[i] = tanh (a);
            }
          for (int i = 0; i < H; i++)
            h[i] = hn[i];
        }
      for (int i = 0; i < H; i++)
        y[b * H + i] = h[i];
    }
}

__attribute__ ((differentiable))
static inline float
sigmoidf (float a)
{
  return 1.0f / (1.0f + expf (-a));
}

__attribute__ ((differentiable))
void
gru (int B, int T, int D, int H, const float *x, const float *Wz,
     const float *Uz, const float *bz, const float *Wr, const float *Ur,
     const float *br, const float *Wh, const float *Uh, const float *bh,
     float *hs)
{
  for (int b = 0; b < B; b++)
    {
      float h[32], z[32], r[32], rh[32];
      for (int i = 0; i < H; i++)
        h[i] = 0.0f;
      for (int t = 0; t < T; t++)
        {
          const float *xt = x + (b * T + t) * D;
          for (int i = 0; i < H; i++)
            {
              float az = bz[i], ar = br[i];
              for (int k = 0; k < D; k++)
                {
                  az += Wz[i * D + k] * xt[k];
                  ar += Wr[i * D + k] * xt[k];
                }
              for (int k = 0; k < H; k++)
                {
                  az += Uz[i * H + k] * h[k];
                  ar += Ur[i * H + k] * h[k];
                }
              z[i] = sigmoidf (az);
              r[i] = sigmoidf (ar);
            }
          for (int i = 0; i < H; i++)
            rh[i] = r[i] * h[i];
          for (int i = 0; i < H; i++)
            {
              float a = bh[i];
              for (int k = 0; k < D; k++)
                a += Wh[i * D + k] * xt[k];
              for (int k = 0; k < H; k++)
                a += Uh[i * H + k] * rh[k];
              float c = tanhf (a);
              h[i] = (1.0f - z[i]) * h[i] + z[i] * c;
            }
          float *o = hs + (b * T + t) * H;
          for (int i = 0; i < H; i++)
            o[i] = h[i];
        }
    }
}

__attribute__ ((differentiable))
void
lstm (int B, int T, int H, const double *x, const double *W, const double *U,
      double *hT)
{
  for (int b = 0; b < B; b++)
    {
      double h[8], c[8], g[32];
      for (int i = 0; i < H; i++)
        h[i] = c[i] = 0;
      for (int t = 0; t < T; t++)
        {
          for (int r = 0; r < 4 * H; r++)
            {
              double a = W[r] * x[b * T + t];
              for (int j = 0; j < H; j++)
                a += U[r * H + j] * h[j];
              g[r] = a;
            }
          for (int i = 0; i < H; i++)
            {
              double ig = 1 / (1 + exp (-g[i]));
              double fg = 1 / (1 + exp (-g[H + i]));
              double og = 1 / (1 + exp (-g[2 * H + i]));
              double cc = tanh (g[3 * H + i]);
              c[i] = fg * c[i] + ig * cc;
              h[i] = og * tanh (c[i]);
            }
        }
      for (int i = 0; i < H; i++)
        hT[b * H + i] = h[i];
    }
}

__attribute__ ((differentiable))
void
springs (int B, int T, int n, double dt, const double *p0, const double *k,
         double c, double *pT)
{
  for (int b = 0; b < B; b++)
    {
      double p[16], v[16];
      for (int j = 0; j < n; j++)
        {
          p[j] = p0[b * n + j];
          v[j] = 0.0;
        }
      for (int t = 0; t < T; t++)
        {
          for (int j = 0; j < n; j++)
            v[j] += dt * (-k[j] * p[j] - c * v[j]);
          for (int j = 0; j < n; j++)
            p[j] += dt * v[j];
        }
      for (int j = 0; j < n; j++)
        pT[b * n + j] = p[j] * p[j];
    }
}

int
main (void)
{
  int T = 4, H = 5;
  double x[4], Ur[25], Uh[25], hs[20];
  tg_fill (x, 4, 1, -1, 1);
  tg_fill (Ur, 25, 2, -0.5, 0.5);
  tg_fill (Uh, 25, 3, -0.5, 0.5);
  TG_GRADCHECK (gru_seq, &T, &H, x, Ur, Uh, hs);
  TG_GRADCHECK_NULL (gru_seq, "x Ur", &T, &H, x, Ur, Uh, hs);

  int Tl = 3, Hl = 4;
  double W[16], U[16], h0[4], r[12], h[16];
  tg_fill (W, 16, 4, -0.6, 0.6);
  tg_fill (U, 16, 5, -0.6, 0.6);
  tg_fill (h0, 4, 6, -1, 1);
  TG_GRADCHECK (gru_like, &Tl, &Hl, W, U, h0, r, h);

  int B = 3, Tb = 4, Hb = 5;
  double xb[12], Wb[25], Ub[5], yb[15];
  tg_fill (xb, 12, 7, -1, 1);
  tg_fill (Wb, 25, 8, -0.5, 0.5);
  tg_fill (Ub, 5, 9, -1, 1);
  TG_GRADCHECK (rnn_batch, &B, &Tb, &Hb, xb, Wb, Ub, yb);

  int Bg = 2, Tg = 3, D = 3, Hg = 4;
  float xg[18], Wz[12], Uz[16], bz[4], Wr[12], Urg[16], br[4], Wh[12],
      Uhg[16], bh[4], hg[24];
  tg_fill_f (xg, 18, 10, -1, 1);
  tg_fill_f (Wz, 12, 11, -0.5, 0.5);
  tg_fill_f (Uz, 16, 12, -0.5, 0.5);
  tg_fill_f (bz, 4, 13, -0.5, 0.5);
  tg_fill_f (Wr, 12, 14, -0.5, 0.5);
  tg_fill_f (Urg, 16, 15, -0.5, 0.5);
  tg_fill_f (br, 4, 16, -0.5, 0.5);
  tg_fill_f (Wh, 12, 17, -0.5, 0.5);
  tg_fill_f (Uhg, 16, 18, -0.5, 0.5);
  tg_fill_f (bh, 4, 19, -0.5, 0.5);
  TG_GRADCHECK (gru, &Bg, &Tg, &D, &Hg, xg, Wz, Uz, bz, Wr, Urg, br, Wh, Uhg,
                bh, hg);
  TG_GRADCHECK_NULL (gru, "x bz Uh", &Bg, &Tg, &D, &Hg, xg, Wz, Uz, bz, Wr,
                     Urg, br, Wh, Uhg, bh, hg);

  int Bl = 2, Ts = 5, Hs = 3;
  double xl[10], Wl[12], Ul[36], hT[6];
  tg_fill (xl, 10, 20, -1, 1);
  tg_fill (Wl, 12, 21, -1, 1);
  tg_fill (Ul, 36, 22, -0.5, 0.5);
  TG_GRADCHECK (lstm, &Bl, &Ts, &Hs, xl, Wl, Ul, hT);

  int n = 4;
  double dt = 0.1, c = 0.3, p0[8], k[4], pT[8];
  tg_fill (p0, 8, 23, -1, 1);
  tg_fill (k, 4, 24, 0.5, 2);
  TG_GRADCHECK (springs, &Bl, &Ts, &n, &dt, p0, k, &c, pT);
  TG_GRADCHECK_NULL (springs, "p0", &Bl, &Ts, &n, &dt, p0, k, &c, pT);
  return tg_exit ();
}

/* { dg-do run } */
/* State carried per sample through a time loop, and a loss summed over
   the samples after it, returned: the sum's batch counter is the
   sample's block of the tape (carry.c's after_1; it was an internal
   error).
     decay:   h_{t+1}[j] = h_t[j] x[b][t][j] + 1, loss = sum_b,j h_T[j].
     energy:  semi-implicit Euler per sample, velocities in one loop and
              positions in the next, the final energy summed, float.
     gru:     a GRU over a batch of sequences, the squared final state
              summed over the batch.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
decay (int B, int T, const double *x)
{
  double loss = 0;
  for (int b = 0; b < B; b++)
    {
      double h[2];
      for (int j = 0; j < 2; j++)
        h[j] = 0;
      for (int t = 0; t < T; t++)
        for (int j = 0; j < 2; j++)
          h[j] = h[j] * x[(b * T + t) * 2 + j] + 1;
      for (int j = 0; j < 2; j++)
        loss += h[j];
    }
  return loss;
}

__attribute__ ((differentiable))
float
energy (int B, int S, int n, float dt, const float *x0, const float *k)
{
  float E = 0;
  for (int b = 0; b < B; b++)
    {
      float x[8], v[8];
      for (int j = 0; j < n; j++)
        {
          x[j] = x0[b * n + j];
          v[j] = 0;
        }
      for (int s = 0; s < S; s++)
        {
          for (int j = 0; j < n; j++)
            v[j] += dt * (-k[j] * x[j]);
          for (int j = 0; j < n; j++)
            x[j] += dt * v[j];
        }
      for (int j = 0; j < n; j++)
        E += 0.5f * v[j] * v[j] + 0.5f * k[j] * x[j] * x[j];
    }
  return E;
}

__attribute__ ((differentiable))
double
gru (int B, int T, int H, const double *x, const double *U, const double *V)
{
  double loss = 0;
  for (int b = 0; b < B; b++)
    {
      double h[8], r[8], hn[8];
      for (int i = 0; i < H; i++)
        h[i] = 0;
      for (int t = 0; t < T; t++)
        {
          for (int i = 0; i < H; i++)
            {
              double s = x[b * T + t];
              for (int j = 0; j < H; j++)
                s += U[i * H + j] * h[j];
              r[i] = 1 / (1 + exp (-s));
            }
          for (int i = 0; i < H; i++)
            {
              double s = x[b * T + t];
              for (int j = 0; j < H; j++)
                s += V[i * H + j] * r[j] * h[j];
              hn[i] = 0.5 * h[i] + 0.5 * tanh (s);
            }
          for (int i = 0; i < H; i++)
            h[i] = hn[i];
        }
      for (int i = 0; i < H; i++)
        loss += h[i] * h[i];
    }
  return loss;
}

int
main (void)
{
  int B = 2, T = 3;
  double x[12];
  tg_fill (x, 12, 1, -1, 1);
  TG_GRADCHECK (decay, &B, &T, x);
  int S = 3, n = 3;
  float dt = 0.1f, x0[6], k[3];
  tg_fill_f (x0, 6, 2, -1, 1);
  tg_fill_f (k, 3, 3, 0.5, 2);
  TG_GRADCHECK (energy, &B, &S, &n, &dt, x0, k);
  int H = 3;
  double xg[6], U[9], V[9];
  tg_fill (xg, 6, 4, -1, 1);
  tg_fill (U, 9, 5, -0.5, 0.5);
  tg_fill (V, 9, 6, -0.5, 0.5);
  TG_GRADCHECK (gru, &B, &T, &H, xg, U, V);
  return tg_exit ();
}

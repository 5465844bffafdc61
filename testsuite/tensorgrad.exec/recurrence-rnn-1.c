/* { dg-do run } */
/* Recurrences through an output: a damped prefix sum whose first
   element a statement of its own writes, and an RNN cell over time with h
   holding every state (h[0..H) copied from h0) and a returned loss.
   Gradients: prefix, with g[i] = d_y[i] + 0.9 g[i+1] (g[n] = 0):
   d_x[0] += g[0], d_x[i] += g[i] cos x[i] (i > 0); rnn, with hb the
   adjoint of h (d_h plus what later steps sent back; d_return (i + 1)
   for the last state) and e = hb[t+1] (1 - h[t+1]^2), for t from T - 1
   down to 0: d_b += e; d_W[i*H+j] += e[i] h[t][j];
   d_U[i*D+k] += e[i] x[t*D+k]; d_x[t*D+k] += sum_i e[i] U[i*D+k];
   hb[t][j] += sum_i e[i] W[i*H+j]; then d_h0 += hb[0].  TG_GRADCHECK
   checks every gradient against central differences, accumulation into
   the shadows, and that the inputs, the outputs and the output shadows
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prefix (int n, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * 0.9 + sin (x[i]);
}

__attribute__ ((differentiable))
double
rnn (int T, int H, int D, const double *h0, const double *W, const double *U,
     const double *b, const double *x, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double a = b[i];
	for (int j = 0; j < H; j++)
	  a += W[i * H + j] * h[t * H + j];
	for (int k = 0; k < D; k++)
	  a += U[i * D + k] * x[t * D + k];
	h[(t + 1) * H + i] = tanh (a);
      }
  double l = 0;
  for (int i = 0; i < H; i++)
    l += h[T * H + i] * (i + 1);
  return l;
}

enum { T = 4, H = 3, D = 2 };

int
main (void)
{
  int n = 7;
  double x[7], y[7] = { 0 };
  tg_fill (x, n, 1, -1, 1);
  TG_GRADCHECK (prefix, &n, x, y);

  int t = T, hh = H, d = D;
  double h0[H], W[H * H], U[H * D], b[H], xx[T * D], h[(T + 1) * H] = { 0 };
  tg_fill (h0, H, 3, -1, 1);
  tg_fill (W, H * H, 4, -1, 1);
  tg_fill (U, H * D, 5, -1, 1);
  tg_fill (b, H, 6, -1, 1);
  tg_fill (xx, T * D, 7, -1, 1);
  TG_GRADCHECK (rnn, &t, &hh, &d, h0, W, U, b, xx, h);
  return tg_exit ();
}

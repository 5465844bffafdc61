/* { dg-do run } */
/* An Elman RNN over time whose output h holds every state, a recurrence
   through a tensor inside a 3-deep nest, T = 5 steps, H = 3 hidden units,
   D = 5 inputs at run time.  The initial state enters as a separate input
   h0, copied into h[0..H) by a first nest, so h is a pure output:
     h[i] = h0[i];
     h[(t+1)*H + i] = tanh (b[i] + sum_j W[i*H+j] h[t*H+j]
			    + sum_k U[i*D+k] x[t*D+k]).
   Gradient void rnn_grad (T, H, D, W, U, b, x, h0, h, d_W, d_U, d_b, d_x,
   d_h0, d_h): backpropagation through time, with g_t the adjoint of the
   state at t including later steps, dz = g_{t+1} (1 - h_{t+1}^2):
     g_t[j] = d_h[t*H+j] + sum_i dz[i] W[i*H+j];  d_W += dz h_t^T;
     d_U += dz x_t^T;  d_b += dz;  d_x[t*D+k] += sum_i dz[i] U[i*D+k];
     d_h0 += g_0.
   The loss weights every state, h0's copy included.  TG_GRADCHECK checks
   every component of d_W, d_U, d_b, d_x and d_h0 against central
   differences, accumulation into pre-filled shadows, and that the inputs, h
   and d_h are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rnn (int T, int H, int D, const double *W, const double *U, const double *b,
     const double *x, const double *h0, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double acc = b[i];
	for (int j = 0; j < H; j++)
	  acc += W[i * H + j] * h[t * H + j];
	for (int k = 0; k < D; k++)
	  acc += U[i * D + k] * x[t * D + k];
	h[(t + 1) * H + i] = tanh (acc);
      }
}

int
main (void)
{
  int T = 5, H = 3, D = 5;
  double *W = tg_alloc (H * H), *U = tg_alloc (H * D), *b = tg_alloc (H);
  double *x = tg_alloc (T * D), *h0 = tg_alloc (H);
  double *h = tg_alloc ((T + 1) * H);
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (U, H * D, 2, -0.8, 0.8);
  tg_fill (b, H, 3, -0.5, 0.5);
  tg_fill (x, T * D, 4, -1, 1);
  tg_fill (h0, H, 5, -0.9, 0.9);
  TG_GRADCHECK (rnn, &T, &H, &D, W, U, b, x, h0, h);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The Elman RNN of rnn-states-1.c with the state in a local rolling
   buffer h[2][H] indexed t % 2 (only two time steps kept), returning a
   loss: the final state weighted by v, T = 5 steps, H = 3, D = 5 at run
   time:
     h[0][i] = h0[i];
     h[(t+1) % 2][i] = tanh (b[i] + sum_j W[i*H+j] h[t % 2][j]
			     + sum_k U[i*D+k] x[t*D+k]);
     return sum_i v[i] h[T % 2][i].
   The gradient needs states the forward overwrote, so it must store or
   recompute them.  Gradient void rnn_loss_grad (T, H, D, W, U, b, x, h0,
   v, d_W, d_U, d_b, d_x, d_h0, d_v, double d_return): BPTT from
   g_T = d_return v; *d_v += d_return h_T.  TG_GRADCHECK checks every
   component of d_W, d_U, d_b, d_x, d_h0 and d_v against central differences
   of c_ret * rnn_loss, accumulation into the shadows, and that every input
   is untouched; T = 6 (the final state in h[0]) is checked too.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
rnn_loss (int T, int H, int D, const double *W, const double *U,
	  const double *b, const double *x, const double *h0,
	  const double *v)
{
  double h[2][H];
  for (int i = 0; i < H; i++)
    h[0][i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double acc = b[i];
	for (int j = 0; j < H; j++)
	  acc += W[i * H + j] * h[t % 2][j];
	for (int k = 0; k < D; k++)
	  acc += U[i * D + k] * x[t * D + k];
	h[(t + 1) % 2][i] = tanh (acc);
      }
  double l = 0;
  for (int i = 0; i < H; i++)
    l += v[i] * h[T % 2][i];
  return l;
}

/* Check at T steps (seeds offset by S).  */
static void
check (int T, unsigned s)
{
  int H = 3, D = 5;
  double *W = tg_alloc (H * H), *U = tg_alloc (H * D), *b = tg_alloc (H);
  double *x = tg_alloc (T * D), *h0 = tg_alloc (H), *v = tg_alloc (H);
  tg_fill (W, H * H, s + 1, -0.8, 0.8);
  tg_fill (U, H * D, s + 2, -0.8, 0.8);
  tg_fill (b, H, s + 3, -0.5, 0.5);
  tg_fill (x, T * D, s + 4, -1, 1);
  tg_fill (h0, H, s + 5, -0.9, 0.9);
  tg_fill (v, H, s + 6, -1, 1);
  TG_GRADCHECK (rnn_loss, &T, &H, &D, W, U, b, x, h0, v);
}

int
main (void)
{
  check (5, 0);
  check (6, 20);
  return tg_exit ();
}

/* The gradient stores every step of the rolling buffer, and says so.  */
/* { dg-final { scan-tensorgrad-dump "store: h keeps every step of its rolling buffer" } } */

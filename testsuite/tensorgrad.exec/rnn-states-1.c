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
   The loss weights every state, h0's copy included.  Checks every
   component of d_W, d_U, d_b, d_x and d_h0 against central differences,
   accumulation into pre-filled shadows, and that the inputs, h and d_h
   are untouched.  */

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

struct ctx
{
  int T, H, D;
  double *W, *U, *b, *x, *h0, *h, *ch;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  rnn (k->T, k->H, k->D, k->W, k->U, k->b, k->x, k->h0, k->h);
  return tg_dot (k->ch, k->h, (k->T + 1) * k->H);
}

int
main (void)
{
  int T = 5, H = 3, D = 5;
  int nW = H * H, nU = H * D, nx = T * D, nh = (T + 1) * H;
  double *W = tg_alloc (nW), *U = tg_alloc (nU), *b = tg_alloc (H);
  double *x = tg_alloc (nx), *h0 = tg_alloc (H), *h = tg_alloc (nh);
  double *ch = tg_alloc (nh);
  double *d_W = tg_alloc (nW), *d_U = tg_alloc (nU), *d_b = tg_alloc (H);
  double *d_x = tg_alloc (nx), *d_h0 = tg_alloc (H);
  tg_fill (W, nW, 1, -0.8, 0.8);
  tg_fill (U, nU, 2, -0.8, 0.8);
  tg_fill (b, H, 3, -0.5, 0.5);
  tg_fill (x, nx, 4, -1, 1);
  tg_fill (h0, H, 5, -0.9, 0.9);
  tg_fill (ch, nh, 6, -1, 1);
  tg_fill (d_W, nW, 7, -1, 1);
  tg_fill (d_U, nU, 8, -1, 1);
  tg_fill (d_b, H, 9, -1, 1);
  tg_fill (d_x, nx, 10, -1, 1);
  tg_fill (d_h0, H, 11, -1, 1);

  rnn (T, H, D, W, U, b, x, h0, h);
  double *W0 = tg_dup (W, nW), *U0 = tg_dup (U, nU), *b0 = tg_dup (b, H);
  double *x0 = tg_dup (x, nx), *h00 = tg_dup (h0, H), *hh = tg_dup (h, nh);
  double *d_h = tg_dup (ch, nh);
  double *pre_W = tg_dup (d_W, nW), *pre_U = tg_dup (d_U, nU);
  double *pre_b = tg_dup (d_b, H), *pre_x = tg_dup (d_x, nx);
  double *pre_h0 = tg_dup (d_h0, H);

  rnn_grad (T, H, D, W, U, b, x, h0, h, d_W, d_U, d_b, d_x, d_h0, d_h);

  CHECK_SAME (W, W0, nW * sizeof *W);
  CHECK_SAME (U, U0, nU * sizeof *U);
  CHECK_SAME (b, b0, H * sizeof *b);
  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (h0, h00, H * sizeof *h0);
  CHECK_SAME (h, hh, nh * sizeof *h);
  CHECK_SAME (d_h, ch, nh * sizeof *d_h);
  double *g_W = tg_alloc (nW), *g_U = tg_alloc (nU), *g_b = tg_alloc (H);
  double *g_x = tg_alloc (nx), *g_h0 = tg_alloc (H);
  tg_sub (g_W, d_W, pre_W, nW);
  tg_sub (g_U, d_U, pre_U, nU);
  tg_sub (g_b, d_b, pre_b, H);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_h0, d_h0, pre_h0, H);
  struct ctx k = { T, H, D, W, U, b, x, h0, h, ch };
  tg_fd_check ("W", W, nW, loss, &k, g_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("U", U, nU, loss, &k, g_U, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, H, loss, &k, g_b, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, nx, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("h0", h0, H, loss, &k, g_h0, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

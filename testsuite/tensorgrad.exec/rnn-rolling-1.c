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
   g_T = d_return v; *d_v += d_return h_T.  Checks every component of
   d_W, d_U, d_b, d_x, d_h0 and d_v against central differences of
   c_ret * rnn_loss with c_ret = 1.25, accumulation into pre-filled
   shadows, and that every input is untouched; T = 6 (the final state in
   h[0]) is checked too.  */

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

struct ctx
{
  int T, H, D;
  double *W, *U, *b, *x, *h0, *v, c_ret;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  return k->c_ret * rnn_loss (k->T, k->H, k->D, k->W, k->U, k->b, k->x,
			      k->h0, k->v);
}

/* Run the whole check for T steps (seeds offset by S).  */
static void
check (int T, unsigned s)
{
  int H = 3, D = 5;
  int nW = H * H, nU = H * D, nx = T * D;
  double c_ret = 1.25;
  double *W = tg_alloc (nW), *U = tg_alloc (nU), *b = tg_alloc (H);
  double *x = tg_alloc (nx), *h0 = tg_alloc (H), *v = tg_alloc (H);
  double *d_W = tg_alloc (nW), *d_U = tg_alloc (nU), *d_b = tg_alloc (H);
  double *d_x = tg_alloc (nx), *d_h0 = tg_alloc (H), *d_v = tg_alloc (H);
  tg_fill (W, nW, s + 1, -0.8, 0.8);
  tg_fill (U, nU, s + 2, -0.8, 0.8);
  tg_fill (b, H, s + 3, -0.5, 0.5);
  tg_fill (x, nx, s + 4, -1, 1);
  tg_fill (h0, H, s + 5, -0.9, 0.9);
  tg_fill (v, H, s + 6, -1, 1);
  tg_fill (d_W, nW, s + 7, -1, 1);
  tg_fill (d_U, nU, s + 8, -1, 1);
  tg_fill (d_b, H, s + 9, -1, 1);
  tg_fill (d_x, nx, s + 10, -1, 1);
  tg_fill (d_h0, H, s + 11, -1, 1);
  tg_fill (d_v, H, s + 12, -1, 1);

  rnn_loss (T, H, D, W, U, b, x, h0, v);
  double *W0 = tg_dup (W, nW), *U0 = tg_dup (U, nU), *b0 = tg_dup (b, H);
  double *x0 = tg_dup (x, nx), *h00 = tg_dup (h0, H), *v0 = tg_dup (v, H);
  double *pre_W = tg_dup (d_W, nW), *pre_U = tg_dup (d_U, nU);
  double *pre_b = tg_dup (d_b, H), *pre_x = tg_dup (d_x, nx);
  double *pre_h0 = tg_dup (d_h0, H), *pre_v = tg_dup (d_v, H);

  rnn_loss_grad (T, H, D, W, U, b, x, h0, v, d_W, d_U, d_b, d_x, d_h0, d_v,
		 c_ret);

  CHECK_SAME (W, W0, nW * sizeof *W);
  CHECK_SAME (U, U0, nU * sizeof *U);
  CHECK_SAME (b, b0, H * sizeof *b);
  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (h0, h00, H * sizeof *h0);
  CHECK_SAME (v, v0, H * sizeof *v);
  double *g_W = tg_alloc (nW), *g_U = tg_alloc (nU), *g_b = tg_alloc (H);
  double *g_x = tg_alloc (nx), *g_h0 = tg_alloc (H), *g_v = tg_alloc (H);
  tg_sub (g_W, d_W, pre_W, nW);
  tg_sub (g_U, d_U, pre_U, nU);
  tg_sub (g_b, d_b, pre_b, H);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_h0, d_h0, pre_h0, H);
  tg_sub (g_v, d_v, pre_v, H);
  struct ctx k = { T, H, D, W, U, b, x, h0, v, c_ret };
  tg_fd_check ("W", W, nW, loss, &k, g_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("U", U, nU, loss, &k, g_U, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, H, loss, &k, g_b, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, nx, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("h0", h0, H, loss, &k, g_h0, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, H, loss, &k, g_v, TG_RTOL, TG_ATOL);
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

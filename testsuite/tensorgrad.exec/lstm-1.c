/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An LSTM over time written as C programmers do: for each step, one
   inner loop computes the four gates from the previous hidden state, a
   second the new cell and hidden states from them, element by element.
   The first inner loop reads the hidden state the second wrote in the
   previous step, so the two run as one loop (siblings.c) and the
   gradient runs backwards through time in one loop.  The sigmoid is a
   helper kernel, substituted where it is called.  h and c hold every
   state; the gates are local arrays of every step.  Checks d_W, d_U,
   d_b, d_x and d_h0 against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
sigm (double a)
{
  return 1 / (1 + exp (-a));
}

/* W: 4 gates x H x H, U: 4 x H, b: 4 x H.  */
__attribute__ ((differentiable))
void
lstm (int T, int H, const double *W, const double *U, const double *b,
      const double *x, const double *h0, double *h, double *c)
{
  double gi[T * H], gf[T * H], go[T * H], gg[T * H];
  for (int i = 0; i < H; i++)
    {
      h[i] = h0[i];
      c[i] = 0;
    }
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < H; i++)
	{
	  double a0 = b[i] + U[i] * x[t], a1 = b[H + i] + U[H + i] * x[t];
	  double a2 = b[2 * H + i] + U[2 * H + i] * x[t];
	  double a3 = b[3 * H + i] + U[3 * H + i] * x[t];
	  for (int j = 0; j < H; j++)
	    {
	      a0 += W[i * H + j] * h[t * H + j];
	      a1 += W[(H + i) * H + j] * h[t * H + j];
	      a2 += W[(2 * H + i) * H + j] * h[t * H + j];
	      a3 += W[(3 * H + i) * H + j] * h[t * H + j];
	    }
	  gi[t * H + i] = sigm (a0);
	  gf[t * H + i] = sigm (a1);
	  go[t * H + i] = sigm (a2);
	  gg[t * H + i] = tanh (a3);
	}
      for (int i = 0; i < H; i++)
	{
	  c[(t + 1) * H + i] = gf[t * H + i] * c[t * H + i]
			       + gi[t * H + i] * gg[t * H + i];
	  h[(t + 1) * H + i] = go[t * H + i] * tanh (c[(t + 1) * H + i]);
	}
    }
}

/* { dg-final { scan-tensorgrad-dump "merge: the loops writing" } } */

enum { T = 4, H = 3, NS = (T + 1) * H };

struct ctx
{
  double *W, *U, *b, *x, *h0, *h, *c, *wh, *wc;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  lstm (T, H, k->W, k->U, k->b, k->x, k->h0, k->h, k->c);
  return tg_dot (k->wh, k->h, NS) + tg_dot (k->wc, k->c, NS);
}

int
main (void)
{
  double W[4 * H * H], U[4 * H], b[4 * H], x[T], h0[H], h[NS], c[NS];
  double wh[NS], wc[NS];
  double d_W[4 * H * H] = { 0 }, d_U[4 * H] = { 0 }, d_b[4 * H] = { 0 };
  double d_x[T] = { 0 }, d_h0[H] = { 0 };
  tg_fill (W, 4 * H * H, 1, -0.7, 0.7);
  tg_fill (U, 4 * H, 2, -1, 1);
  tg_fill (b, 4 * H, 3, -0.5, 0.5);
  tg_fill (x, T, 4, -1, 1);
  tg_fill (h0, H, 5, -0.5, 0.5);
  tg_fill (wh, NS, 6, -1, 1);
  tg_fill (wc, NS, 7, -1, 1);
  lstm (T, H, W, U, b, x, h0, h, c);
  double *d_h = tg_dup (wh, NS), *d_c = tg_dup (wc, NS);
  lstm_grad (T, H, W, U, b, x, h0, h, c, d_W, d_U, d_b, d_x, d_h0, d_h, d_c);
  CHECK_SAME (d_h, wh, sizeof wh);
  CHECK_SAME (d_c, wc, sizeof wc);
  struct ctx k = { W, U, b, x, h0, h, c, wh, wc };
  tg_fd_check ("W", W, 4 * H * H, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("U", U, 4 * H, loss, &k, d_U, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, 4 * H, loss, &k, d_b, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, T, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("h0", h0, H, loss, &k, d_h0, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* A recurrent cell with two states in one loop body, both outputs that
   hold every step (an LSTM's cell and hidden state, simplified):
     c[t+1][i] = 0.5 c[t][i] + tanh (sum_j W[i][j] h[t][j]);
     h[t+1][i] = tanh (c[t+1][i]) x[i].
   Two statements of one recurrent nest: their gradients must run in one
   backward loop, each iteration's statements together (each in a loop of
   its own, the adjoint of h reached the first statement one iteration
   late, and the gradient was wrong).  The loss weights every c and h.
   Checks d_W and d_x against central differences, with pre-filled
   shadows, and that c, h, d_c and d_h are unchanged.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cell (int T, int H, const double *W, const double *x, double *c, double *h)
{
  for (int i = 0; i < H; i++)
    {
      c[i] = 0;
      h[i] = x[i];
    }
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double s = 0;
	for (int j = 0; j < H; j++)
	  s += W[i * H + j] * h[t * H + j];
	c[(t + 1) * H + i] = 0.5 * c[t * H + i] + tanh (s);
	h[(t + 1) * H + i] = tanh (c[(t + 1) * H + i]) * x[i];
      }
}

enum { T = 4, H = 3, NS = (T + 1) * H };

struct ctx
{
  double *W, *x, *c, *h, *wc, *wh;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  cell (T, H, k->W, k->x, k->c, k->h);
  return tg_dot (k->wc, k->c, NS) + tg_dot (k->wh, k->h, NS);
}

int
main (void)
{
  double W[H * H], x[H], c[NS], h[NS], wc[NS], wh[NS];
  double d_W[H * H], d_x[H], pW[H * H], px[H];
  tg_fill (W, H * H, 1, -0.8, 0.8);
  tg_fill (x, H, 2, -1, 1);
  tg_fill (wc, NS, 3, -1, 1);
  tg_fill (wh, NS, 4, -1, 1);
  tg_fill (d_W, H * H, 5, -1, 1);
  tg_fill (d_x, H, 6, -1, 1);
  for (int i = 0; i < H * H; i++)
    pW[i] = d_W[i];
  for (int i = 0; i < H; i++)
    px[i] = d_x[i];
  cell (T, H, W, x, c, h);
  double *c0 = tg_dup (c, NS), *h0 = tg_dup (h, NS);
  double *d_c = tg_dup (wc, NS), *d_h = tg_dup (wh, NS);
  cell_grad (T, H, W, x, c, h, d_W, d_x, d_c, d_h);
  CHECK_SAME (c, c0, sizeof c);
  CHECK_SAME (h, h0, sizeof h);
  CHECK_SAME (d_c, wc, sizeof wc);
  CHECK_SAME (d_h, wh, sizeof wh);
  tg_sub (d_W, d_W, pW, H * H);
  tg_sub (d_x, d_x, px, H);
  struct ctx k = { W, x, c, h, wc, wh };
  tg_fd_check ("W", W, H * H, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, H, loss, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

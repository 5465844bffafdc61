/* { dg-do run } */
/* Two rolling buffers updated together, c from the previous h, then h
   from the new c (a cell with two states keeping two steps each):
     c[(t+1)%2][i] = w[i] c[t%2][i] + tanh (h[t%2][i]);
     h[(t+1)%2][i] = 2 c[(t+1)%2][i] x[i];
   The gradient stores every step and recomputes them in its prologue,
   both statements of each step together (run as two loops, h was
   recomputed from c's last step only, and the gradient was wrong with
   -fplugin-arg-tensorgrad-no-opt).  Checks d_w, d_x, d_h0, d_c0 and d_v
   against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
roll2 (int T, int H, const double *w, const double *x, const double *h0,
       const double *c0, const double *v)
{
  double h[2][H], c[2][H];
  for (int i = 0; i < H; i++)
    {
      h[0][i] = h0[i];
      c[0][i] = c0[i];
    }
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	c[(t + 1) % 2][i] = w[i] * c[t % 2][i] + tanh (h[t % 2][i]);
	h[(t + 1) % 2][i] = 2.0 * c[(t + 1) % 2][i] * x[i];
      }
  double l = 0;
  for (int i = 0; i < H; i++)
    l += v[i] * h[T % 2][i];
  return l;
}

enum { T = 5, H = 3 };

struct ctx
{
  double *w, *x, *h0, *c0, *v;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  return roll2 (T, H, k->w, k->x, k->h0, k->c0, k->v);
}

int
main (void)
{
  double w[H], x[H], h0[H], c0[H], v[H];
  double d_w[H] = { 0 }, d_x[H] = { 0 }, d_h0[H] = { 0 }, d_c0[H] = { 0 };
  double d_v[H] = { 0 };
  tg_fill (w, H, 1, -0.9, 0.9);
  tg_fill (x, H, 2, -0.8, 0.8);
  tg_fill (h0, H, 3, -1, 1);
  tg_fill (c0, H, 4, -1, 1);
  tg_fill (v, H, 5, -1, 1);
  roll2_grad (T, H, w, x, h0, c0, v, d_w, d_x, d_h0, d_c0, d_v, 1.0);
  struct ctx k = { w, x, h0, c0, v };
  tg_fd_check ("w", w, H, loss, &k, d_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, H, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("h0", h0, H, loss, &k, d_h0, TG_RTOL, TG_ATOL);
  tg_fd_check ("c0", c0, H, loss, &k, d_c0, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, H, loss, &k, d_v, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

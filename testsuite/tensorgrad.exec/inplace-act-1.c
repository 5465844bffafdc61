/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An activation applied in place, y[i] = tanh (y[i]): y is in-out, and
   the adjoint of its entry value, d_y (1 - tanh (entry)^2), needs no
   entry value, since the forward left tanh (entry) in y: the gradient
   reads y's final values (reuse), where it would otherwise be refused.
   On its own (d_y in: the adjoint of the final y; out: that of the entry
   y), and inlined into a two-layer network that applies it in place to
   its hidden temporary.  Both checked against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
act (int n, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (y[i]);
}

__attribute__ ((differentiable))
double
net (int n, int h, const double *x, const double *W, const double *v)
{
  double t[32];
  for (int j = 0; j < h; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += W[j * n + i] * x[i];
      t[j] = s;
    }
  act (h, t);
  double o = 0;
  for (int j = 0; j < h; j++)
    o += v[j] * t[j];
  return o * o;
}

/* { dg-final { scan-tensorgrad-dump "reuse: tanh \\(y\\\[i\\\]\\) is y\\\[i\\\]" } } */

enum { N = 4, H = 6 };

struct ctx
{
  double *x, *W, *v, *y, *c;
};

static double
loss_act (void *p)
{
  struct ctx *k = p;
  double y[H];
  for (int i = 0; i < H; i++)
    y[i] = k->y[i];
  act (H, y);
  return tg_dot (k->c, y, H);
}

static double
loss_net (void *p)
{
  struct ctx *k = p;
  return net (N, H, k->x, k->W, k->v);
}

int
main (void)
{
  double x[N], W[H * N], v[H], y[H], c[H];
  tg_fill (x, N, 1, -1, 1);
  tg_fill (W, H * N, 2, -0.7, 0.7);
  tg_fill (v, H, 3, -1, 1);
  tg_fill (y, H, 4, -1.5, 1.5);
  tg_fill (c, H, 5, -1, 1);
  struct ctx k = { x, W, v, y, c };

  /* act alone: in-out y, d_y from the adjoint of the final to that of
     the entry value.  */
  double yy[H], d_y[H];
  for (int i = 0; i < H; i++)
    {
      yy[i] = y[i];
      d_y[i] = c[i];
    }
  act (H, yy);
  act_grad (H, yy, d_y);
  tg_fd_check ("y", y, H, loss_act, &k, d_y, TG_RTOL, TG_ATOL);

  double d_x[N] = { 0 }, d_W[H * N] = { 0 }, d_v[H] = { 0 };
  net_grad (N, H, x, W, v, d_x, d_W, d_v, 1.0);
  tg_fd_check ("x", x, N, loss_net, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("W", W, H * N, loss_net, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, H, loss_net, &k, d_v, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A leaky recurrent layer over time, h holding every state:
     h[(t+1)*H + i] = a * h[t*H + i] + tanh (sum_j W[i*H+j] h[t*H+j] + x[t*H+i])
   with a scalar parameter a.  Backward through time needs the adjoint of
   each pre-activation and of the reduction for one iteration only: they
   are scalars of the gradient (lib/shrink.c), not arrays of T*H.
   Checks d_W, d_x, d_h0 and d_a against central differences with
   pre-filled shadows, and that h and d_h are unchanged.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
leaky (int T, int H, double a, const double *W, const double *x,
       const double *h0, double *h)
{
  for (int i = 0; i < H; i++)
    h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	double s = x[t * H + i];
	for (int j = 0; j < H; j++)
	  s += W[i * H + j] * h[t * H + j];
	h[(t + 1) * H + i] = a * h[t * H + i] + tanh (s);
      }
}

/* { dg-final { scan-tensorgrad-dump-times "shrink: \[dv\]\[0-9\]+ to one element" 2 } } */
/* { dg-final { scan-tensorgrad-dump "shrink: e_h to two steps of H elements" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*T" } } */

struct ctx
{
  int T, H;
  double a, *W, *x, *h0, *h, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  leaky (k->T, k->H, k->a, k->W, k->x, k->h0, k->h);
  return tg_dot (k->c, k->h, (k->T + 1) * k->H);
}

int
main (void)
{
  enum { T = 6, H = 4 };
  int nh = (T + 1) * H;
  double *W = tg_alloc (H * H), *x = tg_alloc (T * H), *h0 = tg_alloc (H);
  double *h = tg_alloc (nh), *c = tg_alloc (nh);
  double *d_W = tg_alloc (H * H), *d_x = tg_alloc (T * H);
  double *d_h0 = tg_alloc (H), a = 0.6, d_a = 0.125;
  tg_fill (W, H * H, 1, -0.7, 0.7);
  tg_fill (x, T * H, 2, -1, 1);
  tg_fill (h0, H, 3, -0.5, 0.5);
  tg_fill (c, nh, 4, -1, 1);
  tg_fill (d_W, H * H, 5, -1, 1);
  tg_fill (d_x, T * H, 6, -1, 1);
  tg_fill (d_h0, H, 7, -1, 1);
  double *pW = tg_dup (d_W, H * H), *px = tg_dup (d_x, T * H);
  double *ph0 = tg_dup (d_h0, H), *d_h = tg_dup (c, nh);
  leaky (T, H, a, W, x, h0, h);
  double *hh = tg_dup (h, nh);
  leaky_grad (T, H, a, W, x, h0, h, &d_a, d_W, d_x, d_h0, d_h);
  CHECK_SAME (h, hh, nh * sizeof *h);
  CHECK_SAME (d_h, c, nh * sizeof *d_h);
  tg_sub (d_W, d_W, pW, H * H);
  tg_sub (d_x, d_x, px, T * H);
  tg_sub (d_h0, d_h0, ph0, H);
  struct ctx k = { T, H, a, W, x, h0, h, c };
  tg_fd_check ("W", W, H * H, loss, &k, d_W, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, T * H, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("h0", h0, H, loss, &k, d_h0, TG_RTOL, TG_ATOL);
  double e = 1e-6;
  k.a = a + e;
  double lp = loss (&k);
  k.a = a - e;
  double lm = loss (&k);
  CHECK_NEAR (d_a - 0.125, (lp - lm) / (2 * e), 1e-6, 1e-7);
  return tg_exit ();
}

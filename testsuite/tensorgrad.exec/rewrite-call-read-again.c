/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): an output a call writes, read again.  The
   rewrite of tensorgrad.err/rewrite-call-read-again.c: dense writes the
   local t, a loop of its own copies it into pre, and the activation
   reads t.  Checked: pre and y equal the original's (compiled here as
   plain C), and every component of the gradient against central
   differences, with an adjoint for pre too (a call of another file: no
   descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define tanh_layer tanh_layer_orig
#include "tensorgrad.err/rewrite-call-read-again.c"
#undef tanh_layer
#undef differentiable

__attribute__ ((differentiable))
void
tanh_layer (int n, int k, int m, const double *x, const double *w,
            double *pre, double *y)
{
  double t[n * m];
  dense (n, k, m, x, w, t);
  for (int i = 0; i < n * m; i++)
    pre[i] = t[i];
  for (int i = 0; i < n * m; i++)
    y[i] = tanh (t[i]);
}

enum { N = 2, K = 3, M = 4 };
static double x[N * K], w[K * M], pre[N * M], y[N * M], c[N * M], cp[N * M];

static double
loss (void *unused)
{
  (void) unused;
  tanh_layer (N, K, M, x, w, pre, y);
  return tg_dot (c, y, N * M) + tg_dot (cp, pre, N * M);
}

int
main (void)
{
  tg_fill (x, N * K, 1, -1, 1);
  tg_fill (w, K * M, 2, -1, 1);
  tg_fill (c, N * M, 3, -1, 1);
  tg_fill (cp, N * M, 4, -1, 1);
  double pre0[N * M], y0[N * M];
  tanh_layer_orig (N, K, M, x, w, pre0, y0);
  loss (NULL);
  CHECK_SAME (pre, pre0, sizeof pre);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[N * K] = { 0 }, d_w[K * M] = { 0 }, d_pre[N * M], d_y[N * M];
  memcpy (d_y, c, sizeof c);
  memcpy (d_pre, cp, sizeof cp);
  tanh_layer_grad (N, K, M, x, w, pre, y, d_x, d_w, d_pre, d_y);
  tg_fd_check ("x", x, N * K, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, K * M, loss, NULL, d_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

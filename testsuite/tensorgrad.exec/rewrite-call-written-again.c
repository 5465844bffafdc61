/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): an array a call writes, written again.  The
   rewrite of tensorgrad.err/rewrite-call-written-again.c: dense writes
   the local t, and y is written once, t plus the bias.  Checked: y
   equals the original's (compiled here as plain C), and every component
   of the gradient against central differences (a call of another file:
   no descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define linear linear_orig
#include "tensorgrad.err/rewrite-call-written-again.c"
#undef linear
#undef differentiable

__attribute__ ((differentiable))
void
linear (int n, int k, int m, const double *x, const double *w,
        const double *b, double *y)
{
  double t[n * m];
  dense (n, k, m, x, w, t);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = t[i * m + j] + b[j];
}

enum { N = 2, K = 3, M = 4 };
static double x[N * K], w[K * M], b[M], y[N * M], c[N * M];

static double
loss (void *unused)
{
  (void) unused;
  linear (N, K, M, x, w, b, y);
  return tg_dot (c, y, N * M);
}

int
main (void)
{
  tg_fill (x, N * K, 1, -1, 1);
  tg_fill (w, K * M, 2, -1, 1);
  tg_fill (b, M, 3, -1, 1);
  tg_fill (c, N * M, 4, -1, 1);
  double y0[N * M];
  linear_orig (N, K, M, x, w, b, y0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  double d_x[N * K] = { 0 }, d_w[K * M] = { 0 }, d_b[M] = { 0 }, d_y[N * M];
  memcpy (d_y, c, sizeof c);
  linear_grad (N, K, M, x, w, b, y, d_x, d_w, d_b, d_y);
  tg_fd_check ("x", x, N * K, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, K * M, loss, NULL, d_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, M, loss, NULL, d_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

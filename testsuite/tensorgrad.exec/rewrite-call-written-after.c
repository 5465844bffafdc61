/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): an array written after a call reads it.  The
   rewrite of tensorgrad.err/rewrite-call-written-after.c: x is an input
   the kernel only reads, the sum goes to the output y.  Checked: y
   equals what the original (compiled here as plain C) leaves in x, and
   every component of the gradient against central differences (a call
   of another file: no descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define residual residual_orig
#include "tensorgrad.err/rewrite-call-written-after.c"
#undef residual
#undef differentiable

__attribute__ ((differentiable))
void
residual (int n, int m, const double *w, const double *x, double *y)
{
  double t[n * m];
  dense (n, m, m, x, w, t);
  for (int i = 0; i < n * m; i++)
    y[i] = x[i] + t[i];
}

enum { N = 2, M = 3 };
static double x[N * M], w[M * M], y[N * M], c[N * M];

static double
loss (void *unused)
{
  (void) unused;
  residual (N, M, w, x, y);
  return tg_dot (c, y, N * M);
}

int
main (void)
{
  tg_fill (x, N * M, 1, -1, 1);
  tg_fill (w, M * M, 2, -1, 1);
  tg_fill (c, N * M, 3, -1, 1);
  double *x0 = tg_dup (x, N * M);
  residual_orig (N, M, w, x0);
  loss (NULL);
  CHECK_SAME (y, x0, sizeof y);
  double d_x[N * M] = { 0 }, d_w[M * M] = { 0 }, d_y[N * M];
  memcpy (d_y, c, sizeof c);
  residual_grad (N, M, w, x, y, d_w, d_x, d_y);
  tg_fd_check ("x", x, N * M, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, M * M, loss, NULL, d_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

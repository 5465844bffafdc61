/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): an array read before a call writes it.  The
   rewrite of tensorgrad.err/rewrite-call-read-before.c: the previous
   output comes in the input prev (the caller passes what y held), and
   y is only written, by the call.  Checked: y and mem equal the
   original's (compiled here as plain C), and every component of the
   gradient against central differences (a call of another file: no
   descriptor, checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define step step_orig
#include "tensorgrad.err/rewrite-call-read-before.c"
#undef step
#undef differentiable

__attribute__ ((differentiable))
void
step (int n, int k, int m, const double *x, const double *w,
      const double *prev, double *y, double *mem)
{
  for (int i = 0; i < n * m; i++)
    mem[i] = 0.9 * prev[i];
  dense (n, k, m, x, w, y);
}

enum { N = 2, K = 3, M = 4 };
static double x[N * K], w[K * M], prev[N * M], y[N * M], mem[N * M];
static double c[N * M], cm[N * M];

static double
loss (void *unused)
{
  (void) unused;
  step (N, K, M, x, w, prev, y, mem);
  return tg_dot (c, y, N * M) + tg_dot (cm, mem, N * M);
}

int
main (void)
{
  tg_fill (x, N * K, 1, -1, 1);
  tg_fill (w, K * M, 2, -1, 1);
  tg_fill (prev, N * M, 3, -1, 1);
  tg_fill (c, N * M, 4, -1, 1);
  tg_fill (cm, N * M, 5, -1, 1);
  double *y0 = tg_dup (prev, N * M), mem0[N * M];
  step_orig (N, K, M, x, w, y0, mem0);
  loss (NULL);
  CHECK_SAME (y, y0, sizeof y);
  CHECK_SAME (mem, mem0, sizeof mem);
  double d_x[N * K] = { 0 }, d_w[K * M] = { 0 }, d_prev[N * M] = { 0 };
  double d_y[N * M], d_mem[N * M];
  memcpy (d_y, c, sizeof c);
  memcpy (d_mem, cm, sizeof cm);
  step_grad (N, K, M, x, w, prev, y, mem, d_x, d_w, d_prev, d_y, d_mem);
  tg_fd_check ("x", x, N * K, loss, NULL, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, K * M, loss, NULL, d_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("prev", prev, N * M, loss, NULL, d_prev, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

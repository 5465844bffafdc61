/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Reuse of a forward result: the gradient of y[i] = tanh (x[i]) reads y
   (1 - y*y) instead of calling tanh again; the dump says so.  Checks
   d_x against central differences and against the formula exactly.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
th (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  th (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  enum { N = 7 };
  double x[N], y[N], c[N], dx[N] = { 0 }, dy[N];
  tg_fill (x, N, 11, -2, 2);
  tg_fill (c, N, 12, -1, 1);
  struct ctx k = { N, x, y, c };
  th (N, x, y);
  memcpy (dy, c, sizeof dy);
  th_grad (N, x, y, dx, dy);
  for (int i = 0; i < N; i++)
    CHECK_NEAR (dx[i], c[i] * (1 - y[i] * y[i]), 1e-15, 1e-15);
  tg_fd_check ("x", x, N, loss, &k, dx, 1e-6, 1e-8);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "reuse: tanh \\(x\\\[i\\\]\\) is y\\\[i\\\]" } } */
/* { dg-final { scan-tensorgrad-dump-not {d_x\[i\] \+= [^\n]*tanh} } } */

/* { dg-do run } */
/* A pointer parameter without const that the kernel only reads is an
   input: its shadow is accumulated.  y[i] = x[i]^3 - x[i] with
   void f (int n, double *x, double *y); d_x += d_y (3 x^2 - 1).  Checks
   every d_x against central differences, accumulation into a pre-filled
   d_x (twice: a second call adds the gradient again), and that x, y and
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cubic (int n, double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i] - x[i];
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
  cubic (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n), *g = tg_alloc (n), *g2 = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  cubic (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, n);

  cubic_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);

  /* A second call adds the same gradient again.  */
  cubic_grad (n, x, y, d_x, d_y);
  tg_sub (g2, d_x, pre, n);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g2[i], 2 * g[i], 1e-12, 1e-14, i);

  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

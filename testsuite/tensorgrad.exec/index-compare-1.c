/* { dg-do run } */
/* A select on a loop counter against an integer parameter, 1-D:
   y[i] = (i < k) ? x[i] : 2 * x[i], so d_x[i] += d_y[i] for i < k and
   2 d_y[i] from k on.  Checks every d_x against central differences
   (k = 3 of n = 8, then k = 0 and k = n), accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
split_scale (int n, int k, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = (i < k) ? x[i] : 2 * x[i];
}

struct ctx
{
  int n, k;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  split_scale (t->n, t->k, t->x, t->y);
  return tg_dot (t->c, t->y, t->n);
}

static void
run (int n, int k)
{
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill (x, n, 1 + k, -2, 2);
  tg_fill (c, n, 2 + k, -1, 1);
  tg_fill (d_x, n, 3 + k, -1, 1);

  split_scale (n, k, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, n);

  split_scale_grad (n, k, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);
  struct ctx t = { n, k, x, y, c };
  tg_fd_check ("x", x, n, loss, &t, g, TG_RTOL, TG_ATOL);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g[i], i < k ? c[i] : 2 * c[i], 1e-12, 1e-14, i);
}

int
main (void)
{
  run (8, 3);
  run (8, 0);
  run (8, 8);
  return tg_exit ();
}

/* { dg-do run } */
/* Two reads of one input at different indices: the forward difference
   y[i] = x[i] - x[i+1] for i < n - 1, x of run-time length n = 5.
   d_x[i] += d_y[i]; d_x[i+1] -= d_y[i] (both ends get one term, the
   interior two).  Checks every d_x against central differences,
   accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
forward_diff (int n, const double *x, double *y)
{
  for (int i = 0; i < n - 1; i++)
    y[i] = x[i] - x[i + 1];
}

struct ctx
{
  int n;
  double *x, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  forward_diff (cx->n, cx->x, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n - 1);
}

int
main (void)
{
  int n = 5;
  int n_x = n;
  int n_y = n - 1;
  double *x = tg_alloc (n_x);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_x = tg_alloc (n_x);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (c_y, n_y, 2, -1, 1);
  tg_fill (d_x, n_x, 3, -1, 1);

  forward_diff (n, x, y);
  double *x0 = tg_dup (x, n_x);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);

  forward_diff_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, x, y, c_y };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

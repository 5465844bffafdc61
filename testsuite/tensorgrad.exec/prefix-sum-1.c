/* { dg-do run } */
/* A loop-carried recurrence through an output: the prefix sum, n = 7 at
   run time:
     y[0] = x[0];  y[i] = y[i-1] + x[i]  (0 < i < n).
   y is an output (it reads only values it wrote), so d_y stays unchanged.
   d_x[i] += sum_{k >= i} d_y[k] (the gradient runs the recurrence in
   reverse).  Checks every d_x against central differences and against
   the suffix-sum formula, accumulation into a pre-filled d_x, and that
   x, y, d_y are untouched.  Kept with its own central differences, not
   tg_gradcheck's, so that the descriptor path is itself checked: a
   recurrence.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prefix_sum (int n, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] + x[i];
}

struct ctx
{
  int n;
  double *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  prefix_sum (k->n, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  prefix_sum (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  prefix_sum_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = i; k < n; k++)
	s += cy[k];
      CHECK_NEAR_AT (g_x[i], s, 1e-12, 1e-14, i);
    }
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

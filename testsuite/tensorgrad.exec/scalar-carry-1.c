/* { dg-do run } */
/* A scalar reduction carried from one nest to a later one: normalising
   by the total, n = 7 at run time, x > 0:
     s = sum_i x[i];   y[i] = x[i] / s.
   d_x[j] += d_y[j] / s - (sum_i d_y[i] x[i]) / s^2.  Checks every d_x
   against central differences, accumulation into a pre-filled d_x, and
   that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
normalize (int n, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  for (int i = 0; i < n; i++)
    y[i] = x[i] / s;
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
  normalize (k->n, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  normalize (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  normalize_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* An in-place update of a local temporary in one loop body, the second
   store reading the first: t[i] = x[i]; t[i] = t[i] * 2 + 1; then a later
   nest y[i] = t[i] * t[i], n = 7 at run time.  So y = (2x + 1)^2 and
   d_x[i] += 4 (2 x[i] + 1) d_y[i].  Checks every d_x against central
   differences and the formula, accumulation into a pre-filled d_x, and
   that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
inplace_temp (int n, const double *x, double *y)
{
  double t[n];
  for (int i = 0; i < n; i++)
    {
      t[i] = x[i];
      t[i] = t[i] * 2 + 1;
    }
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[i];
}

struct ctx
{
  int n;
  double *x, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  inplace_temp (k->n, k->x, k->y);
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

  inplace_temp (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  inplace_temp_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g_x[i], 4 * (2 * x[i] + 1) * cy[i], 1e-12, 1e-14, i);
  struct ctx k = { n, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* relu as a ternary, 1-D of run-time length: y[i] = x[i] > 0 ? x[i] : 0.
   d_x[i] += x[i] > 0 ? d_y[i] : 0.  Away from the kink (no |x| below
   1e-3) checks every d_x against central differences, accumulation into a
   pre-filled d_x, and that x, y, d_y are untouched.  Then, exactly,
   relu'(0) = 0 at x = +0.0 and -0.0, and d_y or 0 elsewhere.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0.0;
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
  relu (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 13;
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0.0, 1e-3);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  relu (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, n);

  relu_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);
  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* At the kink.  */
  x[3] = 0.0;
  x[8] = -0.0;
  relu (n, x, y);
  memcpy (d_x, pre, n * sizeof *d_x);
  relu_grad (n, x, y, d_x, d_y);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == pre[i] + (x[i] > 0 ? c[i] : 0.0), i);
  return tg_exit ();
}

/* { dg-do run } */
/* A void kernel with no loops, straight-line stores into an output:
   y[0] = x[0] * x[1]; y[1] = x[2] / x[1];
   d_x[0] += d_y[0] x[1]; d_x[1] += d_y[0] x[0] - d_y[1] x[2] / x[1]^2;
   d_x[2] += d_y[1] / x[1].  Checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y
   (and y[2], never written) are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
prod_ratio (const double *x, double *y)
{
  y[0] = x[0] * x[1];
  y[1] = x[2] / x[1];
}

struct ctx
{
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  prod_ratio (k->x, k->y);
  return tg_dot (k->c, k->y, 2);
}

int
main (void)
{
  double x[3] = { 1.25, -0.75, 2.5 }, y[3] = { 0, 0, 42.0 };
  double c[2] = { 0.6, -1.1 }, d_x[3] = { 0.5, -0.25, 0.125 }, g[3];
  prod_ratio (x, y);
  double *x0 = tg_dup (x, 3), *y0 = tg_dup (y, 3);
  double *d_y = tg_dup (c, 2), *pre = tg_dup (d_x, 3);

  prod_ratio_grad (x, y, d_x, d_y);

  CHECK_SAME (x, x0, sizeof x);
  CHECK_SAME (y, y0, sizeof y);
  CHECK_SAME (d_y, c, sizeof c);
  tg_sub (g, d_x, pre, 3);
  struct ctx k = { x, y, c };
  tg_fd_check ("x", x, 3, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

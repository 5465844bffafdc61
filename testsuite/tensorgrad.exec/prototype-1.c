/* { dg-do run } */
/* A correct user prototype of the gradient, written after the kernel and
   before main, is accepted and the call goes to the generated function:
   y[i] = x[i] / (1 + x[i] * x[i]), 1-D.  d_x += d_y (1 - x^2) / (1 +
   x^2)^2.  Checks every d_x against central differences, accumulation
   into a pre-filled d_x, and that x, y, d_y are untouched.  Checked by
   hand: the call through the user's prototype is what is tested.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rational (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] / (1 + x[i] * x[i]);
}

void rational_grad (int n, const double *x, double *y, double *d_x,
		    double *d_y);

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  rational (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *y = tg_alloc (n), *c = tg_alloc (n);
  double *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill (x, n, 1, -3, 3);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  rational (n, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n), *pre = tg_dup (d_x, n);

  rational_grad (n, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);
  struct ctx k = { n, x, y, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

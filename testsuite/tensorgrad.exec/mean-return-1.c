/* { dg-do run } */
/* A mean into a returned double, run-time length n = 5:
   double vmean (int n, const double *x)
   { double s = 0; for (i < n) s += x[i]; return s / n; },
   gradient void vmean_grad (int n, const double *x, double *d_x,
			     double d_return).
   d_x[i] += d_return / n.  Checks every d_x against central differences
   of L = c * vmean (x) with c = d_return = 1.375, accumulation into a
   pre-filled d_x, and that x is untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
vmean (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s / n;
}

struct ctx
{
  int n;
  double *x;
  double c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return k->c * vmean (k->n, k->x);
}

int
main (void)
{
  int n = 5;
  double c = 1.375;
  double *x = tg_alloc (n), *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (d_x, n, 2, -1, 1);

  vmean (n, x);
  double *x0 = tg_dup (x, n), *pre = tg_dup (d_x, n);

  vmean_grad (n, x, d_x, c);

  CHECK_SAME (x, x0, n * sizeof *x);
  tg_sub (g, d_x, pre, n);
  struct ctx k = { n, x, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

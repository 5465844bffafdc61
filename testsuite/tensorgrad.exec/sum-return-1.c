/* { dg-do run } */
/* A sum reduction into a returned double, run-time length n = 5:
   double vsum (int n, const double *x)
   { double s = 0; for (i < n) s += x[i]; return s; },
   gradient void vsum_grad (int n, const double *x, double *d_x,
			    double d_return).
   d_x[i] += d_return.  Checks every d_x against central differences of
   L = c * vsum (x) with c = d_return = -0.625, accumulation into a
   pre-filled d_x, that x is untouched, and that d_return = 0 adds
   nothing.  Kept with its own central differences, not tg_gradcheck's, so
   that the descriptor path is itself checked: a returned value and
   d_return.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
vsum (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
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
  return k->c * vsum (k->n, k->x);
}

int
main (void)
{
  int n = 5;
  double c = -0.625;
  double *x = tg_alloc (n), *d_x = tg_alloc (n), *g = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (d_x, n, 2, -1, 1);

  vsum (n, x);
  double *x0 = tg_dup (x, n), *pre = tg_dup (d_x, n);

  vsum_grad (n, x, d_x, c);

  CHECK_SAME (x, x0, n * sizeof *x);
  tg_sub (g, d_x, pre, n);
  struct ctx k = { n, x, c };
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* d_return = 0: the shadow keeps its value.  */
  memcpy (d_x, pre, n * sizeof *d_x);
  vsum_grad (n, x, d_x, 0.0);
  CHECK_SAME (d_x, pre, n * sizeof *d_x);
  return tg_exit ();
}

/* { dg-do run } */
/* A min reduction through fmin into a returned double, run-time length
   n = 7, initialised from x[0]:
   double m = x[0]; for (i = 1; i < n; i++) m = fmin (m, x[i]); return m;
   gradient void vmin_grad (int n, const double *x, double *d_x,
			    double d_return).
   d_x[a] += d_return where a is the first minimal element.  Away from
   ties TG_GRADCHECK checks every d_x against central differences,
   accumulation into d_x, and that x is untouched.  Then a tie, exactly:
   equal minima at i = 2 and i = 5 -- only d_x[2] gets d_return; then a
   tie with the initial value (i = 0 and i = 4): only d_x[0].  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
vmin (int n, const double *x)
{
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = fmin (m, x[i]);
  return m;
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (vmin, &n, x);

  /* Ties: the first minimal element in iteration order.  */
  double c = -1.5, *x0 = tg_dup (x, n);
  double *pre = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (pre, n, 2, -1, 1);
  x[2] = x[5] = -2.5;
  CHECK (vmin (n, x) == -2.5);
  memcpy (d_x, pre, n * sizeof *d_x);
  vmin_grad (n, x, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == (i == 2 ? pre[i] + c : pre[i]), i);
  memcpy (x, x0, n * sizeof *x);
  x[0] = x[4] = -3;
  CHECK (vmin (n, x) == -3);
  memcpy (d_x, pre, n * sizeof *d_x);
  vmin_grad (n, x, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == (i == 0 ? pre[i] + c : pre[i]), i);
  return tg_exit ();
}

/* { dg-do run } */
/* A mean into a returned double, run-time length n = 5:
   double vmean (int n, const double *x)
   { double s = 0; for (i < n) s += x[i]; return s / n; },
   gradient void vmean_grad (int n, const double *x, double *d_x,
			     double d_return).
   d_x[i] += d_return / n.  TG_GRADCHECK checks every d_x against central
   differences of L = c * vmean (x) with c = d_return, accumulation into
   d_x, and that x is untouched.  */

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

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (vmean, &n, x);
  return tg_exit ();
}

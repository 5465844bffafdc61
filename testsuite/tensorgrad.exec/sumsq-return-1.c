/* { dg-do run } */
/* A sum of squares into a returned double, run-time length n = 5:
   double sumsq (int n, const double *x)
   { double s = 0; for (i < n) s += x[i] * x[i]; return s; },
   gradient void sumsq_grad (int n, const double *x, double *d_x,
			     double d_return).
   d_x[i] += 2 d_return x[i].  TG_GRADCHECK checks every d_x against central
   differences of L = c * sumsq (x) with c = d_return, accumulation into a
   pre-filled d_x, and that x is untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
sumsq (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (sumsq, &n, x);
  return tg_exit ();
}

/* { dg-do run } */
/* logsumexp into a returned double, run-time length n = 5, stabilised by
   the maximum: mx = max_i x[i] (fmax); s = sum_i exp (x[i] - mx);
   return mx + log (s).  Gradient void logsumexp_grad (int n,
   const double *x, double *d_x, double d_return):
   d_x[i] += d_return exp (x[i] - lse) (the softmax of x).  TG_GRADCHECK
   checks every d_x against central differences, accumulation into d_x,
   and that x is untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
logsumexp (int n, const double *x)
{
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = fmax (mx, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp (x[i] - mx);
  return mx + log (s);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (logsumexp, &n, x);
  return tg_exit ();
}

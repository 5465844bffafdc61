/* { dg-do run } */
/* Mean squared error into a returned double, run-time length n = 5:
   double mse (int n, const double *p, const double *t)
   { double s = 0; for (i < n) { double e = p[i] - t[i]; s += e * e; }
     return s / n; },
   gradient void mse_grad (int n, const double *p, const double *t,
   double *d_p, double *d_t, double d_return).
   d_p[i] += 2 d_return (p - t) / n; d_t[i] -= the same.  TG_GRADCHECK
   checks every d_p and d_t against central differences, accumulation
   into the shadows, and that p and t are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
mse (int n, const double *p, const double *t)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      double e = p[i] - t[i];
      s += e * e;
    }
  return s / n;
}

int
main (void)
{
  int n = 5;
  double *p = tg_alloc (n), *t = tg_alloc (n);
  tg_fill (p, n, 1, -2, 2);
  tg_fill (t, n, 2, -2, 2);
  TG_GRADCHECK (mse, &n, p, t);
  return tg_exit ();
}

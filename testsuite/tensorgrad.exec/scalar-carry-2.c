/* { dg-do run } */
/* Two scalar reductions carried across nests, with straight-line scalar
   statements between them: standardising a vector, n = 7 at run time,
   eps a by-value double (gets d_eps):
     mu = (sum_i x[i]) / n;  var = (sum_i (x[i] - mu)^2) / n;
     r = 1 / sqrt (var + eps);  y[i] = (x[i] - mu) r.
   With xh = (x - mu) r:
     d_x[j] += r (d_y[j] - mean (d_y) - xh[j] mean (d_y xh));
     *d_eps += -r^3 / 2 sum_i d_y[i] (x[i] - mu).
   TG_GRADCHECK checks every d_x and d_eps against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
standardize (int n, double eps, const double *x, double *y)
{
  double mu = 0;
  for (int i = 0; i < n; i++)
    mu += x[i];
  mu = mu / n;
  double var = 0;
  for (int i = 0; i < n; i++)
    var += (x[i] - mu) * (x[i] - mu);
  var = var / n;
  double r = 1 / sqrt (var + eps);
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - mu) * r;
}

int
main (void)
{
  int n = 7;
  double eps = 0.25, *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (standardize, &n, &eps, x, y);
  return tg_exit ();
}

/* { dg-do run } */
/* A scalar reduction carried from one nest to a later one: normalising
   by the total, n = 7 at run time, x > 0:
     s = sum_i x[i];   y[i] = x[i] / s.
   d_x[j] += d_y[j] / s - (sum_i d_y[i] x[i]) / s^2.  TG_GRADCHECK checks
   every d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
normalize (int n, const double *x, double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  for (int i = 0; i < n; i++)
    y[i] = x[i] / s;
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 2);
  TG_GRADCHECK (normalize, &n, x, y);
  return tg_exit ();
}

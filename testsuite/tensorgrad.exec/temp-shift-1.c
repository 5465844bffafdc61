/* { dg-do run } */
/* A VLA temporary t[n+1] read at a shifted index by a later nest, n = 7
   at run time, x of n + 1 elements:
     t[i] = x[i] * x[i]  (i <= n);   y[i] = t[i+1] * exp (t[i])  (i < n).
   d_t[i] = d_y[i] t[i+1] exp (t[i]) + d_y[i-1] exp (t[i-1]) (terms whose
   index is out of range vanish); d_x[i] += 2 x[i] d_t[i].  TG_GRADCHECK
   checks every d_x (the first and last see one term each) against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_shift (int n, const double *x, double *y)
{
  double t[n + 1];
  for (int i = 0; i < n + 1; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i + 1] * exp (t[i]);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n + 1), *y = tg_alloc (n);
  tg_fill (x, n + 1, 1, -1, 1);
  TG_GRADCHECK (temp_shift, &n, x, y);
  return tg_exit ();
}

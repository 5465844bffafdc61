/* { dg-do run } */
/* A multiplicative recurrence through an output, the cumulative product,
   n = 7 at run time, x kept away from 0:
     y[0] = x[0];  y[i] = y[i-1] * x[i]  (0 < i < n).
   With g_i the adjoint of y[i] including later steps, backwards:
     g_i = d_y[i] + g_{i+1} x[i+1];
     d_x[i] += g_i y[i-1] (i > 0), d_x[0] += g_0.
   TG_GRADCHECK checks every d_x against central differences, accumulation
   into a pre-filled d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cumprod (int n, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * x[i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_away (x, n, 1, -1.8, 1.8, 0, 0.3);
  TG_GRADCHECK (cumprod, &n, x, y);
  return tg_exit ();
}

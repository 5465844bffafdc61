/* { dg-do run } */
/* A second-order linear recurrence through an output (dependence
   distances 1 and 2), coefficients a and b by-value doubles, n = 9 at run
   time:
     y[0] = x[0];  y[1] = x[1];
     y[i] = a y[i-1] + b y[i-2] + x[i]  (2 <= i < n).
   With g_i the adjoint of y[i] including later steps, backwards:
     g_i = d_y[i] + a g_{i+1} + b g_{i+2};  d_x[i] += g_i;
     *d_a += sum_{i>=2} g_i y[i-1];  *d_b += sum_{i>=2} g_i y[i-2].
   TG_GRADCHECK checks every d_x, d_a and d_b against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
recur2 (int n, double a, double b, const double *x, double *y)
{
  y[0] = x[0];
  y[1] = x[1];
  for (int i = 2; i < n; i++)
    y[i] = a * y[i - 1] + b * y[i - 2] + x[i];
}

int
main (void)
{
  int n = 9;
  double a = 0.6, b = -0.3;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (recur2, &n, &a, &b, x, y);
  return tg_exit ();
}

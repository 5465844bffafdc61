/* { dg-do run } */
/* A first-order linear filter (exponential moving average) with the
   coefficient a a by-value double, n = 7 at run time:
     y[0] = x[0];  y[i] = a y[i-1] + (1 - a) x[i]  (0 < i < n).
   Gradient void ema_grad (int n, double a, const double *x, double *y,
   double *d_a, double *d_x, double *d_y).  With g_i the adjoint of y[i]
   including later steps, backwards: g_i = d_y[i] + a g_{i+1};
   d_x[i] += (1 - a) g_i (i > 0), d_x[0] += g_0;
   *d_a += sum_{i>0} g_i (y[i-1] - x[i]).
   TG_GRADCHECK checks every d_x and d_a against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
ema (int n, double a, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + (1 - a) * x[i];
}

int
main (void)
{
  int n = 7;
  double a = 0.7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (ema, &n, &a, x, y);
  return tg_exit ();
}

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A custom gradient: the user wrote poly_grad, so tensorgrad does not
   synthesize one, and the check verifies the user's like a synthesized
   one (d/dx (x^2 + sin x) = 2x + cos x).  */

#include <math.h>

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y) /* { dg-message "gradient of .poly. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_x." } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] + sin (x[i]);
}

void
poly_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += d_y[i] * (2 * x[i] + cos (x[i]));
}

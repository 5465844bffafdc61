/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A float kernel: erf's derivative uses 2/sqrt(pi) rounded to float, a
   relative error near 4e-8 that the float tolerance (1e-4) accepts.  */

#include <math.h>

__attribute__ ((differentiable))
void
erf_f (int n, const float *x, float *y) /* { dg-message "gradient of .erf_f. checked at n=3: worst relative error \[0-9.\]+e-0\[5-9\] in .d_x." } */
{
  for (int i = 0; i < n; i++)
    y[i] = erff (x[i]) * x[i];
}

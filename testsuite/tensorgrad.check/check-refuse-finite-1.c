/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* log (x - 2) is NaN at every input the check tries (signed values in
   [1/8, 1], then positive ones): the kernel is not checked.  */

#include <math.h>

__attribute__ ((differentiable))
void
log_shift (int n, const double *x, double *y) /* { dg-message "gradient of .log_shift. not checked: its results are not finite at the sample inputs" } */
{
  for (int i = 0; i < n; i++)
    y[i] = log (x[i] - 2.0);
}

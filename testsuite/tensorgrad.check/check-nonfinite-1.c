/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* sqrt (x - x) + x is x, but its gradient by the chain rule is
   (1 - 1) / (2 sqrt (0)) + 1 = 0 * inf + 1 = NaN: an error naming the
   first element that is not finite, and a note with what finite
   differences give there.  */

#include <math.h>

__attribute__ ((differentiable))
void
sqrt_zero (int n, const double *x, double *y) /* { dg-error "gradient of .sqrt_zero. is not finite at n=3: .d_x.\\\[0\\\] is nan" } */
{
  for (int i = 0; i < n; i++)
    y[i] = sqrt (x[i] - x[i]) + x[i];
}
/* { dg-message "finite differences give \[-0-9.e+\]+ there" "" { target *-*-* } 12 } */

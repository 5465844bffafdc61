/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-tol=1e-12" } */
/* check-tol= replaces the default tolerance: below the rounding of
   erf's constant to float, the float kernel's gradient fails, at its
   first element.  */

#include <math.h>

__attribute__ ((differentiable))
void
erf_f (int n, const float *x, float *y) /* { dg-error "gradient of .erf_f. is wrong at n=3: .d_x.\\\[0\\\] is \[-0-9.e+\]+ where finite differences give \[-0-9.e+\]+" } */
{
  for (int i = 0; i < n; i++)
    y[i] = erff (x[i]);
}
/* { dg-message "relative error \[0-9.e+-\]+, above the tolerance 1.0e-12 \\(check-tol=\\)" "" { target *-*-* } 11 } */

/* { dg-do compile } */
/* { dg-options "-fopenmp" } */
/* An OpenMP directive in a kernel: GCC outlines the loop before the
   plugin sees it; the error points at the directive (and the outlined
   function, which inherits the attribute, is not taken for a kernel).  */

#include <math.h>

__attribute__ ((differentiable))
void
par (int n, const double *x, double *y)
{
#pragma omp parallel for /* { dg-error "OpenMP directives in a differentiable function are not supported" } */
  for (int i = 0; i < n; i++)
    y[i] = sin (x[i]);
}
/* { dg-message "remove the directive" "" { target *-*-* } 13 } */

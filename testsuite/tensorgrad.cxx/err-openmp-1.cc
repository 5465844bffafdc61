/* { dg-do compile } */
/* { dg-options "-fopenmp" } */
/* An OpenMP directive in a C++ kernel: GCC outlines the loop before the
   plugin sees it, and only a kernel of a C file gets a serial twin to
   lift (omp.cc); the error points at the directive (and the outlined
   function, which inherits the attribute, is not taken for a kernel).  */

#include <math.h>

__attribute__ ((differentiable))
void
par (int n, const double *x, double *y)
{
#pragma omp parallel for /* { dg-error "OpenMP directives in a differentiable C\\+\\+ function are not supported yet" } */
  for (int i = 0; i < n; i++)
    y[i] = sin (x[i]);
}
/* { dg-message "a kernel of a C file may use 'parallel', 'for' and 'simd' loops" "" { target *-*-* } 14 } */

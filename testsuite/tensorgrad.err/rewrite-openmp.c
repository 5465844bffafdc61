/* { dg-do compile } */
/* { dg-options "-fopenmp" } */
/* How to rewrite (README): an OpenMP directive in a kernel.  Rows of a
   layer computed by a parallel loop.  Refused at the directive, with a
   note.  The rewrite, the directive moved to the caller, which runs the
   kernel and its gradient on blocks of rows in parallel, is
   tensorgrad.exec/rewrite-openmp.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
rows_tanh (int n, int m, const double *x, double *y)
{
#pragma omp parallel for /* { dg-error "OpenMP directives in a differentiable function are not supported" } */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = tanh (x[i * m + j]);
}
/* { dg-message "remove the directive from the kernel; its gradient is serial code, which GCC optimizes like any other" "" { target *-*-* } 15 } */

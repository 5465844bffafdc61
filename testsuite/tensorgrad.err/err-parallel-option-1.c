/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-parallel" } */
/* The option parallel runs gradients on OpenMP threads: without
   -fopenmp there are none, and GCC would not lower the regions.  */
/* { dg-error "tensorgrad: option 'parallel' needs '-fopenmp': the gradients' loops run on its threads" "" { target *-*-* } 0 } */

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-blas-forward" } */
/* tiled-forward runs the kernel's products without a library,
   blas-forward as CBLAS calls: the two ask for different things of the
   same nests.  */
/* { dg-error "tensorgrad: options 'tiled-forward' and 'blas-forward' conflict: the kernel's products run either as the tiled product or as CBLAS calls" "" { target *-*-* } 0 } */

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

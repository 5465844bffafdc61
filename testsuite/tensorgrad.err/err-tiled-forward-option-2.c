/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-no-tiled -fplugin-arg-tensorgrad-tiled-forward" } */
/* tiled-forward runs the kernel's products as the tiled product, which
   no-tiled turns off.  */
/* { dg-error "tensorgrad: options 'tiled-forward' and 'no-tiled' conflict: the kernel's products run either as the tiled product or as loops" "" { target *-*-* } 0 } */

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-keep-products -fplugin-arg-tensorgrad-blas" } */
/* keep-products keeps what the helpers of blas-forward and tiled-forward
   compute: with neither (blas alone concerns the gradient), an error
   without a location.  */
/* { dg-error "option 'keep-products' needs 'blas-forward' or 'tiled-forward': only the kernel's products those run as calls are kept" "" { target *-*-* } 0 } */

double
plain (double a)
{
  return 2.0 * a;
}

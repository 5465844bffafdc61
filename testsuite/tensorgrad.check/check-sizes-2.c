/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-sizes=scale:k=4" } */
/* check-sizes naming a parameter the kernel does not have is an error
   at the kernel.  */

__attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y) /* { dg-error "check-sizes.: .scale. has no integer parameter .k." } */
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

/* { dg-do compile } */
/* A differentiable kernel returning a pointer.  */

__attribute__ ((differentiable))
double *
scale_ret (int n, const double *x, double *y) /* { dg-error "differentiable function .scale_ret. must return void, float or double" } */
{
  for (int i = 0; i < n; i++)
    y[i] = 3.0 * x[i];
  return y;
}

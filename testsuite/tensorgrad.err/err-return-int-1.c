/* { dg-do compile } */
/* A differentiable kernel must return void, float or double; the error
   points at the function.  */

__attribute__ ((differentiable))
int
scale_count (int n, const double *x, double *y) /* { dg-error "differentiable function .scale_count. must return void, float or double" } */
{
  for (int i = 0; i < n; i++)
    y[i] = 3.0 * x[i];
  return n;
}

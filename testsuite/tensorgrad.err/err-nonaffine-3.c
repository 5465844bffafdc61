/* { dg-do compile } */
/* A store whose index is quadratic in the loop counter: the error names
   the stored array.  */

__attribute__ ((differentiable))
void
scatter_squares (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i * i] = 3.0 * x[i]; /* { dg-error "index of .y. is not affine in the loop counters" } */
}

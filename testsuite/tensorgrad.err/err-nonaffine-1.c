/* { dg-do compile } */
/* A load whose index is quadratic in the loop counter.  */

__attribute__ ((differentiable))
void
squares (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i * i]; /* { dg-error "index of .x. is not affine in the loop counters" } */
}

/* { dg-do compile } */
/* A load whose index is the product of two loop counters of a 2-D
   nest.  */

__attribute__ ((differentiable))
void
product_index (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double t = x[i * j]; /* { dg-error "index of .x. is not affine in the loop counters" } */
	y[i * m + j] = t;
      }
}

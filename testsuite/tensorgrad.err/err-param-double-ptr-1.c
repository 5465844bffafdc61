/* { dg-do compile } */
/* A double ** parameter has no gradient ABI: the error points at the
   parameter's declaration.  */

__attribute__ ((differentiable))
void
rows_ptr (int n,
	  double **p, /* { dg-error "parameter .p. has unsupported type" } */
	  const double *x,
	  double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

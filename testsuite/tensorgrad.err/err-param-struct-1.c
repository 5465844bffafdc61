/* { dg-do compile } */
/* A struct passed by value has no gradient ABI.  */

struct pair
{
  double a, b;
};

__attribute__ ((differentiable))
void
with_pair (int n,
	   struct pair p, /* { dg-error "parameter .p. has unsupported type" } */
	   const double *x,
	   double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

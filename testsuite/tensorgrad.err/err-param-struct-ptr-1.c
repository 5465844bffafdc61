/* { dg-do compile } */
/* A pointer to a struct has no gradient ABI.  */

struct layer
{
  int n;
  double *w;
};

__attribute__ ((differentiable))
void
with_layer (int n,
	    const struct layer *p, /* { dg-error "parameter .p. has unsupported type" } */
	    const double *x,
	    double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0;
}

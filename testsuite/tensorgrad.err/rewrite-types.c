/* { dg-do compile } */
/* How to rewrite (README): data of a type the kernel may not compute
   with.  A reversal through a local table of integer positions; a ReLU
   that also stores its integer mask; a dot product accumulated in long
   double.  Refused at the accesses (the table twice: its store and its
   read), the mask's store and the conversion back to double.  The rewrites, the
   position as an index expression, the mask from a plain function, and
   double, are tensorgrad.exec/rewrite-types.c.  */

__attribute__ ((differentiable))
void
reverse (int n, const double *x, double *y)
{
  int order[64];
  for (int i = 0; i < n; i++)
    order[i] = n - 1 - i; /* { dg-error "local array 'order' of type 'int' is not supported; a differentiable function may use local arrays of float or double" } */
  for (int i = 0; i < n; i++)
    y[i] = x[order[i]]; /* { dg-error "local array 'order' of type 'int' is not supported; a differentiable function may use local arrays of float or double" } */
}

__attribute__ ((differentiable))
void
relu_mask (int n, const double *x, double *y, int *mask)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] > 0 ? x[i] : 0;
      mask[i] = x[i] > 0; /* { dg-error "integer array 'mask' is written; a differentiable kernel may only read integer arrays" } */
    }
}

__attribute__ ((differentiable))
double
dot_ld (int n, const double *x, const double *y)
{
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += (long double) x[i] * y[i];
  return (double) s; /* { dg-error "values of type 'long double' cannot be differentiated" } */
}

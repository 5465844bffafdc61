/* { dg-do compile } */
/* An in-out array read for its entry value by one nest, overwritten by a
   second, and read back by a third: the gradient would need both values
   of one element.  The error points at the overwriting store.  */
__attribute__ ((differentiable))
void
chain (int n, const double *x, double *y, double *z,
       double *w)
{
  for (int i = 0; i < n; i++)
    z[i] = y[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i]; /* { dg-error ".y. is read both before and after this statement overwrites it; not supported yet" } */
  for (int i = 0; i < n; i++)
    w[i] = y[i] * x[i];
}

/* { dg-do compile } */
/* An output written by one nest and read back by a later nest (not
   supported by the first issue): the error points at the read.  */

__attribute__ ((differentiable))
void
chain (int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] * x[i]; /* { dg-error ".y. is read after it is written; not supported yet" } */
}

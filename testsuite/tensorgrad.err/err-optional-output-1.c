/* { dg-do compile } */
/* An output the kernel writes only when the caller passes it: an optional
   output has no gradient ABI yet.  */

__attribute__ ((differentiable))
void
act (int n, const double *x, double *y,
     double *aux) /* { dg-error "'aux', which the kernel tests against NULL, is written: an optional output is not supported yet" } */
{
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] * x[i];
      if (aux)
        aux[i] = 2 * x[i];
    }
}

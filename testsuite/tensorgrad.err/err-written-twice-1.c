/* { dg-do compile } */
/* Two nests writing the same output: the error points at the second
   write.  (Two stores to one element in the same loop, the last winning,
   are not this error.)  */

__attribute__ ((differentiable))
void
overwrite (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i]; /* { dg-error ".y. is written by more than one loop nest; not supported yet" } */
}

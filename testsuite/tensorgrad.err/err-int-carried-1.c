/* { dg-do compile } */
/* A masked mean: the count is an integer changed inside the loop, not its
   counter.  The error names it where it is used (this used to crash the
   compiler after a message about an index).  */

__attribute__ ((differentiable))
double
masked_mean (int n, const int *mask, const double *x)
{
  double s = 0;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (mask[i])
      {
        s += x[i];
        cnt++;
      }
  return s / cnt; /* { dg-error "integer .cnt. is changed inside a loop and is not its counter; such integers are not supported yet" } */
}

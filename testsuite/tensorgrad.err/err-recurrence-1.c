/* { dg-do compile } */
/* A loop-carried recurrence through an array (a prefix sum), not in the
   first issue.  */

__attribute__ ((differentiable))
void
prefix_sum (int n, const double *x, double *y)
{
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] + x[i]; /* { dg-error "loop-carried dependence through .y. is not supported yet" } */
}

/* { dg-do compile } */
/* A loop-carried recurrence along the rows of a 2-D flat-indexed nest,
   in float, not in the first issue.  */

__attribute__ ((differentiable))
void
decay_rows (int n, int m, const float *x, float *y)
{
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = 0.5f * y[(i - 1) * m + j] + x[i * m + j]; /* { dg-error "loop-carried dependence through .y. is not supported yet" } */
}

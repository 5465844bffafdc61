/* { dg-do compile } */
/* A break in the inner loop of a 2-D nest: the error points at the
   break, the note at the inner loop, which has the two exits.  */

__attribute__ ((differentiable))
void
rows_until_large (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) /* { dg-message "in this loop" } */
      {
	if (x[i * m + j] > 10.0)
	  break; /* { dg-error ".break. leaves the loop early: a loop with more than one exit cannot be differentiated" } */
	y[i * m + j] = 0.5 * x[i * m + j];
      }
}

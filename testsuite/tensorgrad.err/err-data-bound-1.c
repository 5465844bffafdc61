/* { dg-do compile } */
/* A for loop whose exit test reads the data: the trip count is unknown,
   the error points at the loop.  */

__attribute__ ((differentiable))
void
copy_positive_prefix (const double *x, double *y)
{
  for (int i = 0; x[i] > 0; i++) /* { dg-error "cannot determine the number of iterations of this loop" } */
    y[i] = x[i];
}

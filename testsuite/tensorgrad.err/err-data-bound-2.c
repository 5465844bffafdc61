/* { dg-do compile } */
/* A while loop on the data: the trip count is unknown, the error points
   at the loop.  */

__attribute__ ((differentiable))
void
double_until_negative (const double *x, double *y)
{
  int i = 0;
  while (x[i] >= 0) /* { dg-error "cannot determine the number of iterations of this loop" } */
    {
      y[i] = 2.0 * x[i];
      i++;
    }
}

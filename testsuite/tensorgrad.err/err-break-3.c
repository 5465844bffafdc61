/* { dg-do compile } */
/* A break under a condition with ||, which the gimplifier splits into
   two jumps out of the loop, each with the location of its part; and a
   second break later in the body: the error points at the first break
   in the source, the note at the loop.  */

__attribute__ ((differentiable))
void
copy_in_range (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) /* { dg-message "in this loop" } */
    {
      if (x[i] < 0 || x[i] > 4)
	break; /* { dg-error ".break. leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      y[i] = x[i];
      if (y[i] == 2)
	break;
    }
}

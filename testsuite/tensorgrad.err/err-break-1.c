/* { dg-do compile } */
/* A counted loop with a break has two exits: the error points at the
   break, the note at the loop.  At -O1 and above the gimplifier folds the
   break into the jump of its condition, so its location comes from the
   front end's trees.  */

__attribute__ ((differentiable))
void
copy_until_negative (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) /* { dg-message "in this loop" } */
    {
      if (x[i] < 0)
	break; /* { dg-error ".break. leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      y[i] = x[i];
    }
}

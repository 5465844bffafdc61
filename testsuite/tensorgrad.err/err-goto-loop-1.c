/* { dg-do compile } */
/* A goto out of a loop is a second exit: the error points at the goto,
   the note at the loop.  */

__attribute__ ((differentiable))
void
copy_until_negative (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++) /* { dg-message "in this loop" } */
    {
      if (x[i] < 0)
	goto done; /* { dg-error ".goto. leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      y[i] = x[i];
    }
done:;
}

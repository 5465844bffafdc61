/* { dg-do compile } */
/* A kernel returning a sum, with a return of the partial sum inside the
   reduction loop: the error points at that return, the note at the loop
   (the reduction's own check of the loop's exits).  */

__attribute__ ((differentiable))
double
sum_until_large (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++) /* { dg-message "in this loop" } */
    {
      if (x[i] > 5)
	return s; /* { dg-error ".return. leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      s += x[i];
    }
  return s;
}

/* { dg-do compile } */
/* How to rewrite (README): a recurrence that starts from the caller's
   value.  A first-order filter that leaves y[0], its initial state, to
   the caller.  Refused at the recurrence, with a note.  The rewrite,
   the initial state passed in and stored first, is
   tensorgrad.exec/rewrite-recurrence-start.c.  */

__attribute__ ((differentiable))
void
filter (int n, double a, const double *x, double *y)
{
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + x[i]; /* { dg-error "loop-carried dependence through 'y' is not supported yet" } */
  /* { dg-message "the recurrence reads elements of 'y' that the kernel does not write first; write them in a statement of their own before the loop" "" { target *-*-* } .-1 } */
}

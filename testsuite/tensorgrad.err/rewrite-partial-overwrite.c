/* { dg-do compile } */
/* How to rewrite (README): an array partly overwritten afterwards.  A
   smoothing step over the whole grid, then the boundary set to zero by
   statements of their own.  Refused at the first overwrite (the wording
   says loop nest; a statement outside any loop is one too).  The
   rewrite, every element stored once, is
   tensorgrad.exec/rewrite-partial-overwrite.c.  */

__attribute__ ((differentiable))
void
smooth (int n, const double *u, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.5 * u[i]
           + 0.25 * (u[i > 0 ? i - 1 : 0] + u[i < n - 1 ? i + 1 : n - 1]);
  y[0] = 0; /* { dg-error "'y' is written by more than one loop nest; not supported yet" } */
  /* { dg-message "the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
  y[n - 1] = 0;
}

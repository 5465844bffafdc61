/* { dg-do compile } */
/* How to rewrite (README): a scalar updated through a pointer.  A sum of
   squares whose helper adds into the accumulator through its address.
   Refused three times: a store to s through memory (at its
   initialization), the call of the helper (with a note at the helper
   that marking it would not help here: s's address would still be
   taken), and the address taken.  The rewrite, a helper that returns the
   term, is tensorgrad.exec/rewrite-address.c.  */

static void
add_square (double *s, double v) /* { dg-message "mark 'add_square' '__attribute__ \\(\\(differentiable\\)\\)' to differentiate through it" } */
{
  *s += v * v;
}

__attribute__ ((differentiable))
double
sumsq (int n, const double *x)
{
  double s = 0; /* { dg-error "a store to 's' through memory cannot be differentiated" } */
  for (int i = 0; i < n; i++)
    add_square (&s, x[i]); /* { dg-error "call to 'add_square' cannot be differentiated" } */
  return s; /* { dg-error "the address of 's' is taken; a differentiable function may only index arrays" } */
}

/* { dg-do compile } */
/* How to rewrite (README): a pointer compared with another pointer.  A
   residual add that guards against being handed the same array twice.
   Refused at the comparison.  The rewrite drops the test: the gradient
   ABI already forbids overlapping arguments, so it always holds there
   (tensorgrad.exec/rewrite-pointer-compare.c).  */

__attribute__ ((differentiable))
void
residual (int n, const double *x, const double *r, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x != r ? x[i] + r[i] : 2 * x[i]; /* { dg-error "a pointer compared with anything but NULL cannot be differentiated" } */
  /* { dg-message "compare indices, or test a pointer parameter against NULL only" "" { target *-*-* } .-1 } */
}

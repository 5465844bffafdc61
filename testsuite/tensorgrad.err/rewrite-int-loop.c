/* { dg-do compile } */
/* How to rewrite (README): an integer a loop changes that is not a plain
   count.  A product of integer multiplicities, and a count of the steps
   at which a running sum exceeds 1.  Refused where the integer is used.
   The rewrites, the product in a double and the running sum in an
   array of its own, are tensorgrad.exec/rewrite-int-loop.c.  */

__attribute__ ((differentiable))
void
weight (int n, const int *m, const double *x, double *y)
{
  int c = 1;
  for (int i = 0; i < n; i++)
    c *= m[i];
  y[0] = x[0] * c; /* { dg-error "integer 'c' is changed inside a loop and is not its counter nor a count; such integers are not supported yet" } */
  /* { dg-message "an integer a loop counts \\('c\\+\\+', 'c \\+= m\\\[i\\\]', under conditions on integers or values\\) may be used after the loop" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
crossings (int n, const double *x, double *y)
{
  int c = 0;
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      s += x[i];
      c += s > 1;
    }
  y[0] = c * x[0]; /* { dg-error "integer 'c' counts under a condition on a floating value the loop carries from one iteration to the next; not supported yet" } */
}

/* { dg-do compile } */
/* An integer a loop changes after the loop: only a count (a sum of
   integers) is lifted; a product of integers is refused where it is
   used, and so is a count under a condition on the running value of a
   sum the loop carries.  */

__attribute__ ((differentiable))
void
prod (int n, const int *m, const double *x, double *y)
{
  int c = 1;
  for (int i = 0; i < n; i++)
    c *= m[i];
  y[0] = x[0] * c; /* { dg-error "integer .c. is changed inside a loop and is not its counter nor a count; such integers are not supported yet" } */
  /* { dg-message "an integer a loop counts" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
above (int n, const double *x, double *y)
{
  int c = 0;
  double s = 0;
  for (int i = 0; i < n; i++)
    {
      s += x[i];
      c += s > 1;
    }
  y[0] = c * x[0]; /* { dg-error "integer .c. counts under a condition on a floating value the loop carries from one iteration to the next; not supported yet" } */
}

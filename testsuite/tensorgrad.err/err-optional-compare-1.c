/* { dg-do compile } */
/* A pointer compared with another pointer rather than with NULL.  */

__attribute__ ((differentiable))
void
shift (int n, const double *x, const double *z, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x != z ? x[i] + z[i] : x[i]; /* { dg-error "a pointer compared with anything but NULL cannot be differentiated" } */
  /* { dg-message "test a pointer parameter against NULL only" "" { target *-*-* } .-1 } */
}

/* { dg-do compile } */
/* An array a called kernel writes, written again by the caller: the
   gradient would lose the value the call wrote.  */

void dense (int n, const double *x, double *y);
void dense_grad (int n, const double *x, double *y, double *d_x,
                 double *d_y);

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *y)
{
  dense (n, x, y);
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i]; /* { dg-error ".y. is written by the call to .dense. and again here; not supported yet" } */
  /* { dg-message "write the result of one of them to another array" "" { target *-*-* } .-1 } */
}

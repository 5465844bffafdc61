/* { dg-do compile } */
/* An output of the kernel that a called kernel (with a gradient of its
   own) writes may not be read again: its adjoint would have to be kept
   apart from its shadow.  */

void dense (int n, const double *x, double *y);
void dense_grad (int n, const double *x, double *y, double *d_x,
                 double *d_y);

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *y, double *z)
{
  dense (n, x, y);
  for (int i = 0; i < n; i++)
    z[i] = y[i] * y[i]; /* { dg-error ".y., which the call to .dense. writes, is read again; not supported yet" } */
  /* { dg-message "pass a local array to .dense. and copy it into .y. in a loop of its own" "" { target *-*-* } .-1 } */
}

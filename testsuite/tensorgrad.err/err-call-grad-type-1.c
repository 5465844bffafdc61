/* { dg-do compile } */
/* A declared gradient whose type is not the one the ABI gives the
   callee's: an error at the call, and the expected type at the
   declaration.  */

void dense (int n, const double *x, double *y);
void dense_grad (int n, const double *x, double *y, double *d_x); /* { dg-message "expected .void ?\\(int, +const double \\*, double \\*, double \\*, double \\*\\)." } */

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *y)
{
  dense (n, x, y); /* { dg-error "call to .dense. cannot be differentiated: .dense_grad. does not have the type of its gradient" } */
}

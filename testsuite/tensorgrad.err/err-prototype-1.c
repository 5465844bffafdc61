/* { dg-do compile } */
/* A user prototype of the gradient written before the kernel, missing
   the shadow of y: the error points at the prototype, and a note shows
   the expected signature.  */

void affine_grad (int n, double a, const double *x, double *y, double *d_a, double *d_x); /* { dg-error "prototype of .affine_grad. does not match the gradient of .affine." } */
/* { dg-message "expected .void ?\\(int, +double, +const double \\*, double \\*, double \\*, double \\*, double \\*\\)." "" { target *-*-* } 6 } */

__attribute__ ((differentiable))
void
affine (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + 1.0;
}

/* { dg-do compile } */
/* A user prototype of the gradient written before the kernel, passing
   the scalar's shadow by value (double d_a) instead of double *d_a.  */

void axpy_grad (int n, double a, const double *x, double *y, double d_a, double *d_x, double *d_y); /* { dg-error "prototype of .axpy_grad. does not match the gradient of .axpy." } */
/* { dg-message "expected .void ?\\(int, +double, +const double \\*, double \\*, double \\*, double \\*, double \\*\\)." "" { target *-*-* } 5 } */

__attribute__ ((differentiable))
void
axpy (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

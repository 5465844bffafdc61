/* { dg-do compile } */
/* A user prototype of the gradient written before the kernel, with
   float * shadows for a double kernel.  */

void twice_grad (int n, const double *x, double *y, float *d_x, float *d_y); /* { dg-error "prototype of .twice_grad. does not match the gradient of .twice." } */
/* { dg-message "expected .void ?\\(int, +const double \\*, double \\*, double \\*, double \\*\\)." "" { target *-*-* } 5 } */

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

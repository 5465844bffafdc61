/* { dg-do compile } */
/* How to rewrite (README): a call that writes a local array and an
   output.  A layer calling act2 of another file, which returns tanh
   and its derivative: the value into a local array, the derivative into
   the output dy.  Refused at the call: the gradient would run act2
   again to get the local values back, and write dy again.  The
   rewrite, both results in local arrays and dy copied, is
   tensorgrad.exec/rewrite-call-again.c.  */

void act2 (int n, const double *x, double *y, double *dy);
void act2_grad (int n, const double *x, double *y, double *dy, double *d_x,
                double *d_y, double *d_dy);

__attribute__ ((differentiable))
void
layer (int n, const double *x, double *dy, double *out)
{
  double t[n];
  act2 (n, x, t, dy); /* { dg-error "the gradient would call 'act2' again for the local array it writes, and so write 'dy' again; not supported yet" } */
  /* { dg-message "pass 'act2' only outputs of the kernel or only local arrays" "" { target *-*-* } .-1 } */
  for (int i = 0; i < n; i++)
    out[i] = t[i] * t[i];
}

/* { dg-do compile } */
/* How to rewrite (README): an output written under a condition and read
   back.  A ReLU that stores only the positive entries (the caller
   cleared y), read back by the next layer.  Refused at the read.  The
   rewrite, y stored on every path, is
   tensorgrad.exec/rewrite-output-cond.c.  */

__attribute__ ((differentiable))
void
relu_scale (int n, const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      y[i] = x[i];
  for (int i = 0; i < n; i++)
    z[i] = w[i] * y[i]; /* { dg-error "'y' is read here where the statement that writes it may not have run; not supported yet" } */
  /* { dg-message "the caller's values of an output are not the kernel's; write 'y' on every path, or read it under the same condition" "" { target *-*-* } .-1 } */
}

/* { dg-do compile } */
/* How to rewrite (README): a gradient too large.  Twenty guarded steps
   written out one after the other: the adjoint doubles with every step.
   Refused at the kernel.  The rewrite, the steps as a loop (a scalar the
   loop carries, kept per step on a tape), is
   tensorgrad.exec/rewrite-too-large.c.  */

__attribute__ ((differentiable))
void
steps (int n, const double *x, double *y) /* { dg-error "gradient of 'steps' too large: more than 200000 expression nodes" } */
{ /* { dg-message "split the kernel into smaller kernels, or give shared values a local array of their own" "" { target *-*-* } .-1 } */
  for (int i = 0; i < n; i++)
    {
      double b = x[i];
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      b = b > 0 ? b * 0.5 : b * 0.25;
      y[i] = b;
    }
}

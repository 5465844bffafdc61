/* { dg-do compile } */
/* How to rewrite (README): mistakes in the source.  A scratch array read
   by a loop before the loop that fills it, an accumulator never
   initialized, and a call of a kernel that is itself refused.  Refused
   at the read, the return of the sum, and the call (after the callee's own error).
   (The attribute on a variable is err-attr-variable-1.c: that error
   stops the plugin before any kernel.)  The rewrites, each what
   the source meant, are tensorgrad.exec/rewrite-mistakes.c.  */

__attribute__ ((differentiable))
void
shifted (int n, const double *x, double *y)
{
  double t[64];
  for (int i = 0; i < n; i++)
    y[i] = 2 * t[i]; /* { dg-error "'t' is read before it is written" } */
  for (int i = 0; i < n; i++)
    t[i] = x[i] + 1;
}

__attribute__ ((differentiable))
double
total (int n, const double *x)
{
  double s;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s; /* { dg-error "use of an uninitialized value" } */
}

__attribute__ ((differentiable))
void
prefix (const double *x, double *y)
{
  for (int i = 0; x[i] > 0; i++) /* { dg-error "cannot determine the number of iterations of this loop" } */
    y[i] = x[i];
}

__attribute__ ((differentiable))
void
caller (const double *x, double *y)
{
  prefix (x, y); /* { dg-error "call to 'prefix' cannot be differentiated: its own gradient could not be made" } */
}

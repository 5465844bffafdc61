/* { dg-do compile } */
/* How to rewrite (README): a call of a hand-written gradient whose
   kernel reads and writes an array.  axpy, a kernel of the file with
   its gradient written by hand, updates y in place; a layer copies the
   bias into y and calls it.  Refused at the call.  The rewrite, a
   kernel with an output of its own (and its gradient), is
   tensorgrad.exec/rewrite-call-inout.c.  */

__attribute__ ((differentiable))
void
axpy (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

void
axpy_grad (int n, double a, const double *x, double *y, double *d_a,
           double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      if (d_a)
        *d_a += x[i] * d_y[i];
      if (d_x)
        d_x[i] += a * d_y[i];
    }
}

__attribute__ ((differentiable))
void
layer (int n, double a, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = b[i];
  axpy (n, a, x, y); /* { dg-error "call to 'axpy' cannot be differentiated yet: it reads and writes 'y'" } */
}

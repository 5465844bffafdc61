/* { dg-do compile } */
/* How to rewrite (README): one array passed twice to a kernel whose
   gradient is a function of its own.  A square computed by calling an
   elementwise product, mul (of another file, its gradient mul_grad
   declared), with x for both factors.  Refused at the call.  The
   rewrite, a copy of x for the second factor, is
   tensorgrad.exec/rewrite-passed-twice.c.  */

void mul (int n, const double *a, const double *b, double *y);
void mul_grad (int n, const double *a, const double *b, double *y,
               double *d_a, double *d_b, double *d_y);

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y)
{
  mul (n, x, x, y); /* { dg-error "'x' is passed twice to 'mul'; the gradient cannot be differentiated through overlapping arguments" } */
}

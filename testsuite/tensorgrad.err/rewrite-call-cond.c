/* { dg-do compile } */
/* How to rewrite (README): a call under a condition.  A layer that
   scales its input by one factor or another with a flag, calling a
   kernel of the file in each arm.  Refused at both calls.  The rewrite,
   one call with the factor chosen by a select, is
   tensorgrad.exec/rewrite-call-cond.c.  */

__attribute__ ((differentiable))
void
axpb (int n, double a, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}

__attribute__ ((differentiable))
void
layer (int n, int train, double a, const double *x, double *y)
{
  if (train)
    axpb (n, a, 0.0, x, y); /* { dg-error "a call to 'axpb' under a condition cannot be differentiated yet" } */
  else
    axpb (n, 1.0, 0.5, x, y); /* { dg-error "a call to 'axpb' under a condition cannot be differentiated yet" } */
}

/* { dg-do compile } */
/* Inside a loop, a call of a kernel is inlined with the loop around it;
   not yet when the caller uses the value it returns (each iteration
   would overwrite one element), nor when its gradient is a function of
   its own (a call stage has no loops yet).  */

__attribute__ ((differentiable))
double
dot (int n, const double *x, const double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__ ((differentiable))
void
rows (int B, int n, const double *x, const double *w, double *y)
{
  for (int b = 0; b < B; b++)
    y[b] = dot (n, x + b * n, w); /* { dg-error "a call to .dot. inside a loop, whose value is used, is not supported yet" } */
  /* { dg-message "make .dot. store its result through a pointer" "" { target *-*-* } .-1 } */
}

void scale (int n, const double *x, double *y);
void scale_grad (int n, const double *x, double *y, double *d_x, double *d_y);

__attribute__ ((differentiable))
void
scale_rows (int B, int n, const double *x, double *y)
{
  for (int b = 0; b < B; b++)
    scale (n, x + b * n, y + b * n); /* { dg-error "a call to .scale., whose gradient is a function of its own, inside a loop is not supported yet" } */
}

/* { dg-do compile } */
/* A kernel whose gradient the user wrote cannot be called from another
   differentiable kernel yet: the caller's gradient would have to call the
   hand-written one.  */

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

void
twice_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) x, (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += 2 * d_y[i];
}

__attribute__ ((differentiable))
void
caller (int n, const double *x, double *y)
{
  twice (n, x, y); /* { dg-error "a call to .twice., whose gradient is written by hand, cannot be differentiated yet" } */
}

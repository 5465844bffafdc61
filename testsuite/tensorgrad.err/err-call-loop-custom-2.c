/* { dg-do compile } */
/* A kernel whose own program calls a hand-written gradient, called
   inside a loop: the call of that gradient would have to run once per
   iteration, which is not supported yet.  */

__attribute__ ((differentiable))
void
scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 3 * x[i];
}

void
scale_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  if (d_x)
    for (int i = 0; i < n; i++)
      d_x[i] += 3 * d_y[i];
}

__attribute__ ((differentiable))
void
row (int n, const double *x, double *y)
{
  scale (n, x, y);
}

__attribute__ ((differentiable))
void
rows (int b, int n, const double *x, double *y)
{
  for (int r = 0; r < b; r++)
    row (n, x + r * n, y + r * n); /* { dg-error "a call to 'scale', whose gradient is a function of its own, inside a loop is not supported yet \\(it is called in 'row'\\)" } */
}

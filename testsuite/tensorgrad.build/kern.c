/* The kernels build.exp compiles again and again, editing them in
   between: a body (the 2.0 of scale becomes 3.0), a signature (shift
   gains a parameter c).
     scale: y[i] = 2 x[i]^2, so d_x[i] += 4 x[i] d_y[i];
     shift: y[i] = x[i] + b, so d_x[i] += d_y[i], d_b += sum_i d_y[i].  */

__attribute__ ((differentiable))
void
scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i] * x[i];
}

__attribute__ ((differentiable))
void
shift (int n, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + b;
}

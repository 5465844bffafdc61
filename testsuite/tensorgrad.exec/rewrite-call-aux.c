/* The second translation unit of the rewrite-*.c tests of calls (README,
   How to rewrite): functions of "another file" that a kernel calls.
   act, act2, scale and mul have gradients written by hand, with the
   ABI's signatures, as a library would ship them; dense is a kernel
   whose gradient the plugin synthesizes here (declared in the caller
   as -fplugin-arg-tensorgrad-header would write it); gelu is a plain
   helper.  */

#include <math.h>
#include <stddef.h>

/* y = tanh (x).  */
void
act (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

void
act_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) x;
  if (d_x && d_y)
    for (int i = 0; i < n; i++)
      d_x[i] += (1 - y[i] * y[i]) * d_y[i];
}

/* y = tanh (x) and its derivative dy = 1 - y^2.  */
void
act2 (int n, const double *x, double *y, double *dy)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = tanh (x[i]);
      dy[i] = 1 - y[i] * y[i];
    }
}

void
act2_grad (int n, const double *x, double *y, double *dy, double *d_x,
           double *d_y, double *d_dy)
{
  (void) x;
  if (d_x)
    for (int i = 0; i < n; i++)
      {
        double g = 1 - y[i] * y[i];
        if (d_y)
          d_x[i] += g * d_y[i];
        if (d_dy)
          d_x[i] += -2 * y[i] * g * d_dy[i];
      }
  (void) dy;
}

/* y = 3 x.  */
void
scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 3 * x[i];
}

void
scale_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) x;
  (void) y;
  if (d_x && d_y)
    for (int i = 0; i < n; i++)
      d_x[i] += 3 * d_y[i];
}

/* y = a * b.  */
void
mul (int n, const double *a, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a[i] * b[i];
}

void
mul_grad (int n, const double *a, const double *b, double *y, double *d_a,
          double *d_b, double *d_y)
{
  (void) y;
  for (int i = 0; i < n && d_y; i++)
    {
      if (d_a)
        d_a[i] += b[i] * d_y[i];
      if (d_b)
        d_b[i] += a[i] * d_y[i];
    }
}

/* y = x w, x of n rows of k, w of k rows of m.  */
__attribute__ ((differentiable))
void
dense (int n, int k, int m, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double s = 0;
        for (int p = 0; p < k; p++)
          s += x[i * k + p] * w[p * m + j];
        y[i * m + j] = s;
      }
}

/* The tanh approximation of GELU.  */
double
gelu (double a)
{
  return 0.5 * a * (1 + tanh (0.7978845608028654 * (a + 0.044715 * a * a * a)));
}

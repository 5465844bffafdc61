/* { dg-do run } */
/* Recurrences through an array counting down: the seed is the last
   element, and each iteration reads the element the previous one wrote,
   one above.  The gradient runs the iterations in the other order.
   suffix:  y[n-1] = x[n-1]; y[i] = y[i+1] x[i] for i from n-2 down:
            y[i] = prod_{j >= i} x[j], d_x[i] += sum_{k <= i} d_y[k] y[k]/x[i].
   filter:  float, a backward IIR filter into an offset output,
            z[i] = a z[i+1] + tanh (u[i]), and a loss over its rows read
            by a later loop.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
suffix (int n, const double *x, double *y)
{
  y[n - 1] = x[n - 1];
  for (int i = n - 2; i >= 0; i--)
    y[i] = y[i + 1] * x[i];
}

__attribute__ ((differentiable))
void
filter (int n, float a, const float *u, float *z, float *loss)
{
  z[n - 1] = u[n - 1];
  for (int i = n - 2; i >= 0; i--)
    z[i] = a * z[i + 1] + tanhf (u[i]);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += z[i] * z[i];
  loss[0] = s;
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 1.5);
  TG_GRADCHECK (suffix, &n, x, y);

  float a = 0.6f;
  float *u = tg_alloc_f (n), *zbuf = tg_alloc_f (n + 1), *loss = tg_alloc_f (1);
  tg_fill_f (u, n, 2, -1, 1);
  TG_GRADCHECK (filter, &n, &a, u, zbuf + 1, loss);
  return tg_exit ();
}

/* { dg-do run } */
/* Stores at an index that falls as the counter grows, into arrays that
   later loops read: the gradient bounds the elements written (from
   y[n-1] at i = 0 down to y[0]) as it does for a rising index.
   reverse:  y[n-1-i] = x[i]^2, then z[i] = y[i] x[i]:
             d_x[i] += d_z[i] y[i] + 2 x[i] (d_y + d_z x)[n-1-i];
   countdown (float): a loop counting down writes w[i] = tanh (u[2i+1]),
             which a rising loop reads at w[m-1-i]; the output pointer
             is offset into a larger buffer, as a caller's row would be.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
reverse (int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    y[n - 1 - i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] * x[i];
}

__attribute__ ((differentiable))
void
countdown (int m, const float *u, float *w, float *v)
{
  for (int i = m - 1; i >= 0; i--)
    w[i] = tanhf (u[2 * i + 1]);
  for (int i = 0; i < m; i++)
    v[i] = w[m - 1 - i] * u[2 * i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *z = tg_alloc (n);
  tg_fill (x, n, 1, -1.5, 1.5);
  TG_GRADCHECK (reverse, &n, x, y, z);

  int m = 5;
  float *u = tg_alloc_f (2 * m), *wbuf = tg_alloc_f (m + 3), *v = tg_alloc_f (m);
  tg_fill_f (u, 2 * m, 2, -1, 1);
  TG_GRADCHECK (countdown, &m, u, wbuf + 3, v);
  return tg_exit ();
}

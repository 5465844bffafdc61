/* { dg-do run } */
/* A 3-point stencil with learned weights, x of run-time length n = 7,
   n - 2 outputs: y[i-1] = w[0] x[i-1] + w[1] x[i] + w[2] x[i+1] for
   1 <= i < n - 1 (three reads of x at different offsets, w at constant
   indices).  d_x[i-1] += d_y w[0]; d_x[i] += d_y w[1];
   d_x[i+1] += d_y w[2]; d_w[t] += sum_i d_y[i-1] x[i-1+t].  TG_GRADCHECK
   checks every d_x and d_w against central differences, accumulation into
   pre-filled shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stencil3 (int n, const double *x, const double *w, double *y)
{
  for (int i = 1; i < n - 1; i++)
    y[i - 1] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *w = tg_alloc (3), *y = tg_alloc (n - 2);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, 3, 2, -2, 2);
  TG_GRADCHECK (stencil3, &n, x, w, y);
  return tg_exit ();
}

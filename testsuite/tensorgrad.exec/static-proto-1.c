/* { dg-do run } */
/* The prototype of a static kernel's gradient, written before the kernel,
   is the gradient the plugin defines: no "used but never defined"
   warning (the test fails on excess output), and the call works.

   twice: y[i] = 2 x[i];  d_x[i] += 2 d_y[i]  */

#include "tg-test.h"

static void twice_grad (int n, const double *x, double *y, double *d_x,
                        double *d_y);

__attribute__ ((differentiable))
static void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

int
main (void)
{
  enum { N = 4 };
  double x[N], y[N], dx[N] = { 0 }, dy[N];
  tg_fill (x, N, 1, -1, 1);
  tg_fill (dy, N, 2, -1, 1);
  twice (N, x, y);
  twice_grad (N, x, y, dx, dy);
  for (int i = 0; i < N; i++)
    CHECK_NEAR_AT (dx[i], 2 * dy[i], 1e-15, 1e-15, i);
  return tg_exit ();
}

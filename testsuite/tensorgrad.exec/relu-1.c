/* { dg-do run } */
/* relu as a ternary, 1-D of run-time length: y[i] = x[i] > 0 ? x[i] : 0.
   d_x[i] += x[i] > 0 ? d_y[i] : 0.  Away from the kink (no |x| below
   1e-3) TG_GRADCHECK checks every d_x against central differences,
   accumulation into d_x, and that x, y, d_y are untouched.  Then, exactly,
   relu'(0) = 0 at x = +0.0 and -0.0, and d_y or 0 elsewhere.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0.0;
}

int
main (void)
{
  int n = 13;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0.0, 1e-3);
  TG_GRADCHECK (relu, &n, x, y);

  /* At the kink.  */
  double *c = tg_alloc (n), *pre = tg_alloc (n), *d_x = tg_alloc (n);
  tg_fill (c, n, 2, -1, 1);
  tg_fill (pre, n, 3, -1, 1);
  memcpy (d_x, pre, n * sizeof *d_x);
  x[3] = 0.0;
  x[8] = -0.0;
  relu (n, x, y);
  relu_grad (n, x, y, d_x, c);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == pre[i] + (x[i] > 0 ? c[i] : 0.0), i);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Reuse of a forward result: the gradient of y[i] = tanh (x[i]) reads y
   (1 - y*y) instead of calling tanh again; the dump says so.  TG_GRADCHECK
   checks d_x against central differences, accumulation and the ABI; then
   d_x against the formula exactly.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
th (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i]);
}

int
main (void)
{
  int n = 7;
  double x[7], y[7] = { 0 };
  tg_fill (x, n, 11, -2, 2);
  TG_GRADCHECK (th, &n, x, y);

  /* The formula, exactly.  */
  double c[7], dx[7] = { 0 };
  tg_fill (c, n, 12, -1, 1);
  th (n, x, y);
  th_grad (n, x, y, dx, c);
  for (int i = 0; i < n; i++)
    CHECK_NEAR (dx[i], c[i] * (1 - y[i] * y[i]), 1e-15, 1e-15);
  return tg_exit ();
}
/* { dg-final { scan-tensorgrad-dump "reuse: tanh \\(x\\\[i\\\]\\) is y\\\[i\\\]" } } */
/* { dg-final { scan-tensorgrad-dump-not {d_x\[i\] \+= [^\n]*tanh} } } */

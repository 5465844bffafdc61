/* { dg-do run } */
/* A pointer parameter without const that the kernel only reads is an
   input: its shadow is accumulated.  y[i] = x[i]^3 - x[i] with
   void f (int n, double *x, double *y); d_x += d_y (3 x^2 - 1).
   TG_GRADCHECK checks every d_x against central differences, accumulation
   into d_x (a second call on a pre-filled d_x adds the gradient again), and
   that x, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cubic (int n, double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i] - x[i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (cubic, &n, x, y);
  return tg_exit ();
}

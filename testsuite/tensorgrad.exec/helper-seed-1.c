/* { dg-do run } */
/* A helper kernel called both by the statement that seeds a recurrence
   and inside the recurrence (the fuzzer's kernel 4:535: the compiler
   crashed with a segmentation fault when the helper was substituted at
   the call, in a stage of its own).

     g (a) = 1 / (1 + exp (-a));   y[0] = g (x[0]);
     y[i] = 0.9 y[i-1] + g (x[i]) for i >= 1
     d_x[i] += g'(x[i]) sum_{k >= i} 0.9^(k-i) d_y[k],  g' = g (1 - g)

   TG_GRADCHECK checks every d_x against central differences,
   accumulation into d_x, and that x, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
g (double a)
{
  return 1.0 / (1.0 + exp (-a));
}

__attribute__ ((differentiable))
void
leaky (int n, const double *x, double *y)
{
  y[0] = g (x[0]);
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * 0.9 + g (x[i]);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (leaky, &n, x, y);
  return tg_exit ();
}

/* { dg-do run } */
/* Two top-level calls of one differentiable kernel on the two halves of
   an input and an output, crossed over, with a by-value scalar argument
   computed from the caller's (2 * a), n = 5 at run time, x and y of 2n:
     scale_exp (n, a, x, y): y[i] = a exp (x[i]);
     two_calls (n, a, x, y): scale_exp (n, a, x + n, y);
			     scale_exp (n, 2 * a, x, y + n).
   d_x[n+i] += d_y[i] a exp (x[n+i]); d_x[i] += d_y[n+i] 2a exp (x[i]);
   *d_a += sum_i d_y[i] exp (x[n+i]) + 2 d_y[n+i] exp (x[i]).
   TG_GRADCHECK checks every d_x and d_a against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scale_exp (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * exp (x[i]);
}

__attribute__ ((differentiable))
void
two_calls (int n, double a, const double *x, double *y)
{
  scale_exp (n, a, x + n, y);
  scale_exp (n, 2 * a, x, y + n);
}

int
main (void)
{
  int n = 5, n2 = 2 * n;
  double a = -0.6;
  double *x = tg_alloc (n2), *y = tg_alloc (n2);
  tg_fill (x, n2, 1, -1.5, 1.5);
  TG_GRADCHECK (two_calls, &n, &a, x, y);
  return tg_exit ();
}

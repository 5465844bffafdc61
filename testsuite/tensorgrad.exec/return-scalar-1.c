/* { dg-do run } */
/* A kernel returning double, straight-line from by-value scalars:
   double f (double a, double b) { return a * sin (b); }, gradient
   void f_grad (double a, double b, double *d_a, double *d_b,
		double d_return).
   *d_a += d_return sin b; *d_b += d_return a cos b.  TG_GRADCHECK checks
   d_a and d_b against central differences of L = c_ret * f (a, b) for two
   values of d_return (two seeds of its weights), accumulation into *d_a and
   *d_b; then d_a against its formula, and that d_return = 0 adds
   nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
a_sin_b (double a, double b)
{
  return a * sin (b);
}

int
main (void)
{
  double a = 1.75, b = -0.8;
  TG_GRADCHECK (a_sin_b, &a, &b);
  /* Another d_return: other weights.  */
  const tg_check_opts seed2 = { TG_RTOL, TG_ATOL, 0, 2, 0 };
  TG_GRADCHECK_OPTS (a_sin_b, &seed2, &a, &b);

  /* d_a against its formula for two values of d_return; d_return = 0
     adds nothing.  */
  double cs[2] = { 1.0, -0.375 };
  for (int t = 0; t < 2; t++)
    {
      double d_a = 0.5, d_b = -1.25;
      a_sin_b_grad (a, b, &d_a, &d_b, cs[t]);
      CHECK_NEAR_AT (d_a - 0.5, cs[t] * sin (b), 1e-12, 1e-14, t);
    }
  double d_a = 0.5, d_b = -1.25;
  a_sin_b_grad (a, b, &d_a, &d_b, 0.0);
  CHECK (d_a == 0.5);
  CHECK (d_b == -1.25);
  return tg_exit ();
}

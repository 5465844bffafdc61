/* { dg-do run } */
/* A kernel returning double, straight-line from by-value scalars:
   double f (double a, double b) { return a * sin (b); }, gradient
   void f_grad (double a, double b, double *d_a, double *d_b,
		double d_return).
   *d_a += d_return sin b; *d_b += d_return a cos b.  Checks d_a and d_b
   against central differences of L = c_ret * f (a, b) for two values of
   d_return, accumulation into pre-filled *d_a and *d_b, and that
   d_return = 0 adds nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
a_sin_b (double a, double b)
{
  return a * sin (b);
}

struct ctx
{
  double ab[2];
  double c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return k->c * a_sin_b (k->ab[0], k->ab[1]);
}

int
main (void)
{
  struct ctx k = { { 1.75, -0.8 }, 0 };
  double cs[2] = { 1.0, -0.375 };
  for (int t = 0; t < 2; t++)
    {
      double d_a = 0.5, d_b = -1.25, g[2];
      k.c = cs[t];
      a_sin_b_grad (k.ab[0], k.ab[1], &d_a, &d_b, k.c);
      g[0] = d_a - 0.5;
      g[1] = d_b + 1.25;
      CHECK_NEAR_AT (g[0], k.c * sin (k.ab[1]), 1e-12, 1e-14, t);
      tg_fd_check ("ab", k.ab, 2, loss, &k, g, TG_RTOL, TG_ATOL);
    }
  double d_a = 0.5, d_b = -1.25;
  a_sin_b_grad (k.ab[0], k.ab[1], &d_a, &d_b, 0.0);
  CHECK (d_a == 0.5);
  CHECK (d_b == -1.25);
  return tg_exit ();
}

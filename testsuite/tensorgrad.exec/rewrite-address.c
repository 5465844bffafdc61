/* { dg-do run } */
/* How to rewrite (README): a scalar updated through a pointer.  The
   rewrite of tensorgrad.err/rewrite-address.c: the helper returns the
   term and the kernel adds it (a helper that returns an expression of
   its parameters is substituted where it is called).  Checked: the sum
   equals the original's (compiled here as plain C), and the gradient
   through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define sumsq sumsq_orig
#include "tensorgrad.err/rewrite-address.c"
#undef sumsq
#undef differentiable

static double
square (double v)
{
  return v * v;
}

__attribute__ ((differentiable))
double
sumsq (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += square (x[i]);
  return s;
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  CHECK (sumsq (n, x) == sumsq_orig (n, x));
  TG_GRADCHECK (sumsq, &n, x);
  return tg_exit ();
}

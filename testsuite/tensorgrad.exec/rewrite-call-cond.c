/* { dg-do run } */
/* How to rewrite (README): a call under a condition.  The rewrite of
   tensorgrad.err/rewrite-call-cond.c: one unconditional call whose
   arguments are selected by the flag.  Checked: y equals the
   original's (compiled here as plain C) for both values of the flag,
   and the gradient through the descriptor for both.  */

#include "tg-test.h"

#define differentiable unused
#define axpb axpb_orig
#define layer layer_orig
#include "tensorgrad.err/rewrite-call-cond.c"
#undef axpb
#undef layer
#undef differentiable

__attribute__ ((differentiable))
void
axpb (int n, double a, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}

__attribute__ ((differentiable))
void
layer (int n, int train, double a, const double *x, double *y)
{
  axpb (n, train ? a : 1.0, train ? 0.0 : 0.5, x, y);
}

int
main (void)
{
  int n = 5;
  double a = 1.7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  for (int train = 0; train < 2; train++)
    {
      layer_orig (n, train, a, x, y0);
      layer (n, train, a, x, y);
      CHECK_SAME (y, y0, n * sizeof *y);
      TG_GRADCHECK (layer, &n, &train, &a, x, y);
    }
  return tg_exit ();
}

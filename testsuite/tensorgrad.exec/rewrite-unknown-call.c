/* { dg-do run } */
/* { dg-additional-sources "rewrite-call-aux.c" } */
/* How to rewrite (README): a call of a function whose body is not in
   sight.  The rewrite of tensorgrad.err/rewrite-unknown-call.c: the
   helper is defined in the kernel's file (static inline here, so it
   does not clash with the other file's gelu, which the original calls),
   and its value is substituted where the kernel calls it.  Checked: y
   equals the original's (compiled here as plain C, calling
   rewrite-call-aux.c's gelu), and the gradient through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define gelu_layer gelu_layer_orig
#include "tensorgrad.err/rewrite-unknown-call.c"
#undef gelu_layer
#undef differentiable

static inline double
gelu_here (double a)
{
  return 0.5 * a * (1 + tanh (0.7978845608028654 * (a + 0.044715 * a * a * a)));
}

__attribute__ ((differentiable))
void
gelu_layer (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = gelu_here (x[i]);
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  gelu_layer_orig (n, x, y0);
  gelu_layer (n, x, y);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (y[i], y0[i], 1e-15, 1e-16, i);
  TG_GRADCHECK (gelu_layer, &n, x, y);
  return tg_exit ();
}

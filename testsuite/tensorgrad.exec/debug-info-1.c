/* { dg-do run } */
/* { dg-options "-g" } */
/* Debug information with gradients nothing in the file calls: scale's
   (scale is inlined into f) and unused's.  GCC writes its early debug
   information before the plugin's pass makes them, and inlining or
   splitting a function that has none failed an assertion in
   dwarf2out_abstract_function at -O2 -g; those gradients now get no debug
   information.  f's gradient, called below, is checked against central
   differences.  Checked by hand: the direct call of f_grad from this file
   is part of what is tested.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * sin (x[i]);
}

__attribute__ ((differentiable))
void
unused (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = exp (x[i]) * x[i];
}

__attribute__ ((differentiable))
void
f (int n, const double *x, double *y)
{
  scale (n, x, y);
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  f (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  enum { N = 6 };
  double x[N], y[N], c[N], d_x[N] = { 0 };
  tg_fill (x, N, 1, -2, 2);
  tg_fill (c, N, 2, -1, 1);
  f (N, x, y);
  f_grad (N, x, y, d_x, c);
  struct ctx k = { N, x, y, c };
  tg_fd_check ("x", x, N, loss, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

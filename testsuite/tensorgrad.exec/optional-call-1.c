/* { dg-do run } */
/* A kernel that tests its bias against NULL, called by another that
   passes its own optional bias on: inlined, the caller's array becomes
   optional in the caller's gradient.
   layer: y[i] = tanh (x[i] + (b ? b[i] : 0)); net: t = layer (x, b1),
   y[i] = t[i]^2: d_t = 2 t d_y, d_x[i] += d_t (1 - t^2), d_b1 likewise
   when b1 is given.  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static void
layer (int n, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (x[i] + (b ? b[i] : 0));
}

__attribute__ ((differentiable))
void
net (int n, const double *x, const double *b1, double *y)
{
  double t[16];
  layer (n, x, b1, t);
  for (int i = 0; i < n; i++)
    y[i] = t[i] * t[i];
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *b = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (b, n, 2, -1, 1);
  TG_GRADCHECK (net, &n, x, b, y);
  TG_GRADCHECK (net, &n, x, NULL, y);
  TG_GRADCHECK_NULL (net, "b1", &n, x, b, y);
  return tg_exit ();
}

/* { dg-do run } */
/* How to rewrite (README): an in-out array read before and after its
   update.  The rewrite of tensorgrad.err/rewrite-read-both.c: v is an
   input, the new velocity goes to the output vn; x stays in-out (its
   update reads only the element it overwrites).  Checked: vn and x
   equal what the original (compiled here as plain C) leaves in v and
   x, and the gradient through the descriptor (x in-out).  */

#include "tg-test.h"

#define differentiable unused
#define momentum momentum_orig
#include "tensorgrad.err/rewrite-read-both.c"
#undef momentum
#undef differentiable

__attribute__ ((differentiable))
void
momentum (int n, double mu, double lr, const double *g, const double *v,
          double *vn, double *x)
{
  for (int i = 0; i < n; i++)
    vn[i] = mu * v[i] + g[i];
  for (int i = 0; i < n; i++)
    x[i] -= lr * vn[i];
}

int
main (void)
{
  int n = 5;
  double mu = 0.9, lr = 0.1;
  double *g = tg_alloc (n), *v = tg_alloc (n), *vn = tg_alloc (n);
  double *x = tg_alloc (n);
  tg_fill (g, n, 1, -1, 1);
  tg_fill (v, n, 2, -1, 1);
  tg_fill (x, n, 3, -1, 1);
  double *vo = tg_dup (v, n), *xo = tg_dup (x, n);
  momentum_orig (n, mu, lr, g, vo, xo);
  double *x1 = tg_dup (x, n);
  momentum (n, mu, lr, g, v, vn, x1);
  CHECK_SAME (vn, vo, n * sizeof *vn);
  CHECK_SAME (x1, xo, n * sizeof *x1);
  TG_GRADCHECK (momentum, &n, &mu, &lr, g, v, vn, x);
  return tg_exit ();
}

/* { dg-do run } */
/* How to rewrite (README): state carried in the caller's arrays.  The
   rewrite of tensorgrad.err/rewrite-state-inout.c: the initial state
   comes in the inputs x0 and v0, is copied into the outputs x and v,
   and the time loop updates those.  Checked: x and v equal the
   original's (compiled here as plain C, on copies of x0 and v0), and
   the gradient through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define springs springs_orig
#include "tensorgrad.err/rewrite-state-inout.c"
#undef springs
#undef differentiable

__attribute__ ((differentiable))
void
springs (int T, int n, double dt, double k, const double *x0,
         const double *v0, double *x, double *v)
{
  for (int i = 0; i < n; i++)
    {
      x[i] = x0[i];
      v[i] = v0[i];
    }
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
        v[i] += dt * (-k * x[i]);
      for (int i = 0; i < n; i++)
        x[i] += dt * v[i];
    }
}

int
main (void)
{
  int T = 5, n = 3;
  double dt = 0.1, k = 2.0;
  double *x0 = tg_alloc (n), *v0 = tg_alloc (n);
  double *x = tg_alloc (n), *v = tg_alloc (n);
  tg_fill (x0, n, 1, -1, 1);
  tg_fill (v0, n, 2, -1, 1);
  double *xo = tg_dup (x0, n), *vo = tg_dup (v0, n);
  springs_orig (T, n, dt, k, xo, vo);
  springs (T, n, dt, k, x0, v0, x, v);
  CHECK_SAME (x, xo, n * sizeof *x);
  CHECK_SAME (v, vo, n * sizeof *v);
  TG_GRADCHECK (springs, &T, &n, &dt, &k, x0, v0, x, v);
  return tg_exit ();
}

/* { dg-do run } */
/* How to rewrite (README): an output written under a condition and read
   back.  The rewrite of tensorgrad.err/rewrite-output-cond.c: y is
   stored on every path, with the 0 the caller's clearing gave it.
   Checked: y and z equal the original's (compiled here as plain C, y
   cleared first), and the gradient through the descriptor, x away
   from the kink at 0.  */

#include "tg-test.h"

#define differentiable unused
#define relu_scale relu_scale_orig
#include "tensorgrad.err/rewrite-output-cond.c"
#undef relu_scale
#undef differentiable

__attribute__ ((differentiable))
void
relu_scale (int n, const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0;
  for (int i = 0; i < n; i++)
    z[i] = w[i] * y[i];
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *w = tg_alloc (n);
  double *y = tg_alloc (n), *z = tg_alloc (n);
  double *y0 = tg_alloc (n), *z0 = tg_alloc (n);
  tg_fill_away (x, n, 1, -1, 1, 0, 0.05);
  tg_fill (w, n, 2, -1, 1);
  relu_scale_orig (n, x, w, y0, z0);
  relu_scale (n, x, w, y, z);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  TG_GRADCHECK (relu_scale, &n, x, w, y, z);
  return tg_exit ();
}

/* { dg-do run } */
/* How to rewrite (README): an output read beyond the elements the
   kernel writes.  The rewrite of tensorgrad.err/rewrite-output-range.c:
   the entries the caller keeps come in the input y0, and the kernel
   writes all n of y.  Checked: y and z equal the original's (compiled
   here as plain C, on a copy of y0), and the gradient through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define refresh refresh_orig
#include "tensorgrad.err/rewrite-output-range.c"
#undef refresh
#undef differentiable

__attribute__ ((differentiable))
void
refresh (int n, int m, const double *x, const double *y0, double *y,
         double *z)
{
  for (int i = 0; i < n; i++)
    y[i] = i < m ? 2 * x[i] : y0[i];
  for (int i = 0; i < n; i++)
    z[i] = y[i] * y[i];
}

int
main (void)
{
  int n = 6, m = 4;
  double *x = tg_alloc (n), *y0 = tg_alloc (n);
  double *y = tg_alloc (n), *z = tg_alloc (n), *z0 = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  tg_fill (y0, n, 2, -1, 1);
  double *yo = tg_dup (y0, n);
  refresh_orig (n, m, x, yo, z0);
  refresh (n, m, x, y0, y, z);
  CHECK_SAME (y, yo, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  TG_GRADCHECK (refresh, &n, &m, x, y0, y, z);
  return tg_exit ();
}

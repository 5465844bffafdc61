/* { dg-do run } */
/* An in-out parameter scaled in place, 2-D flat-indexed, n x m at run
   time: y[i*m+j] = 2 * y[i*m+j] + sin (x[i*m+j]).  d_y holds on entry the
   adjoint of the final y and must hold on return the adjoint of the entry
   y, 2 d_y (replaced, not accumulated); d_x += d_y cos x is accumulated.
   TG_GRADCHECK checks every d_x and returned d_y against central
   differences with respect to x and the entry values of y, accumulation
   into d_x, and that x and the final y are untouched; then the exact 2
   d_y.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
double_add (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = 2 * y[i * m + j] + sin (x[i * m + j]);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (y, nm, 2, -2, 2);
  TG_GRADCHECK (double_add, &n, &m, x, y);

  /* The returned d_y is exactly 2 d_y.  */
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_y = tg_alloc (nm);
  tg_fill (c, nm, 3, -1, 1);
  memcpy (d_y, c, nm * sizeof *d_y);
  double_add (n, m, x, y);
  double_add_grad (n, m, x, y, d_x, d_y);
  for (int i = 0; i < nm; i++)
    CHECK_NEAR_AT (d_y[i], 2 * c[i], 1e-15, 0, i);
  return tg_exit ();
}

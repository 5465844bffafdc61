/* { dg-do run } */
/* How to rewrite (README): a computed pointer tested against NULL.  The
   rewrite of tensorgrad.err/rewrite-optional-local.c: the parameter gain
   is tested where its row is read.  Checked: y equals the original's
   (compiled here as plain C) with gains and without, and the gradient
   through the descriptor, with gain and with NULL for it.  */

#include "tg-test.h"

#define differentiable unused
#define gain_rows gain_rows_orig
#include "tensorgrad.err/rewrite-optional-local.c"
#undef gain_rows
#undef differentiable

__attribute__ ((differentiable))
void
gain_rows (int n, int m, const double *x, const double *gain, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = (gain ? gain[i * m + j] : 1) * x[i * m + j];
}

int
main (void)
{
  int n = 3, m = 4;
  double *x = tg_alloc (n * m), *g = tg_alloc (n * m);
  double *y = tg_alloc (n * m), *y0 = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -1, 1);
  tg_fill (g, n * m, 2, 0.5, 1.5);
  gain_rows_orig (n, m, x, g, y0);
  gain_rows (n, m, x, g, y);
  CHECK_SAME (y, y0, n * m * sizeof *y);
  gain_rows_orig (n, m, x, NULL, y0);
  gain_rows (n, m, x, NULL, y);
  CHECK_SAME (y, y0, n * m * sizeof *y);
  TG_GRADCHECK (gain_rows, &n, &m, x, g, y);
  TG_GRADCHECK (gain_rows, &n, &m, x, NULL, y);
  return tg_exit ();
}

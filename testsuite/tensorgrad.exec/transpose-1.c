/* { dg-do run } */
/* A transposing elementwise map, flat-indexed, x is n x m, y is m x n at
   run time: y[j*n+i] = x[i*m+j] * exp (-x[i*m+j]).  The read map is a
   permutation, so d_x[i*m+j] += d_y[j*n+i] (1 - x) exp (-x).  Checks every
   d_x against central differences, accumulation into a pre-filled d_x,
   and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
transpose_xexp (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[j * n + i] = x[i * m + j] * exp (-x[i * m + j]);
}

struct ctx
{
  int n, m;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  transpose_xexp (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *y = tg_alloc (nm), *c = tg_alloc (nm);
  double *d_x = tg_alloc (nm), *g = tg_alloc (nm);
  tg_fill (x, nm, 1, -1, 3);
  tg_fill (c, nm, 2, -1, 1);
  tg_fill (d_x, nm, 3, -1, 1);

  transpose_xexp (n, m, x, y);
  double *x0 = tg_dup (x, nm), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm), *pre = tg_dup (d_x, nm);

  transpose_xexp_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  tg_sub (g, d_x, pre, nm);
  struct ctx k = { n, m, x, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* A 3-D axis permutation (2, 0, 1), flat-indexed, x n x m x p = 5 x 3 x 4
   at run time, y p x n x m: y[(k*n+i)*m+j] = x[(i*m+j)*p+k].  The read
   map is a permutation, so d_x[(i*m+j)*p+k] += d_y[(k*n+i)*m+j].  Checks
   every d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
permute3 (int n, int m, int p, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
	y[(k * n + i) * m + j] = x[(i * m + j) * p + k];
}

struct ctx
{
  int n, m, p;
  double *x, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  permute3 (cx->n, cx->m, cx->p, cx->x, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n * cx->m * cx->p);
}

int
main (void)
{
  int n = 5, m = 3, p = 4;
  int n_x = n * m * p;
  int n_y = n * m * p;
  double *x = tg_alloc (n_x);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_x = tg_alloc (n_x);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (c_y, n_y, 2, -1, 1);
  tg_fill (d_x, n_x, 3, -1, 1);

  permute3 (n, m, p, x, y);
  double *x0 = tg_dup (x, n_x);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);

  permute3_grad (n, m, p, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, m, p, x, y, c_y };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

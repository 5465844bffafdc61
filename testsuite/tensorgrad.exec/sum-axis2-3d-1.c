/* { dg-do run } */
/* A sum along axis 2 (the contiguous one) of an n x m x p tensor,
   flat-indexed, 5 x 3 x 4 at run time:
   for (i < n) for (j < m) { double s = 0;
   for (k < p) s += x[(i*m+j)*p+k]; y[i*m+j] = s; }.
   d_x[(i*m+j)*p+k] += d_y[i*m+j].  Checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sum3_axis2 (int n, int m, int p, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = 0;
	for (int k = 0; k < p; k++)
	  s += x[(i * m + j) * p + k];
	y[i * m + j] = s;
      }
}

struct ctx
{
  int n, m, p;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  sum3_axis2 (t->n, t->m, t->p, t->x, t->y);
  return tg_dot (t->c, t->y, t->n * t->m);
}

int
main (void)
{
  int n = 5, m = 3, p = 4, nx = n * m * p, ny = n * m;
  double *x = tg_alloc (nx), *y = tg_alloc (ny), *c = tg_alloc (ny);
  double *d_x = tg_alloc (nx), *g = tg_alloc (nx);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (c, ny, 2, -1, 1);
  tg_fill (d_x, nx, 3, -1, 1);

  sum3_axis2 (n, m, p, x, y);
  double *x0 = tg_dup (x, nx), *y0 = tg_dup (y, ny), *d_y = tg_dup (c, ny);
  double *pre = tg_dup (d_x, nx);

  sum3_axis2_grad (n, m, p, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  tg_sub (g, d_x, pre, nx);
  struct ctx t = { n, m, p, x, y, c };
  tg_fd_check ("x", x, nx, loss, &t, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

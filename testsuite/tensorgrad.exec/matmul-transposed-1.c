/* { dg-do run } */
/* A product with a transposed operand, y = x w^T: x n x k, w m x k, y
   n x m (5 x 4, 3 x 4, 5 x 3 at run time), both operands read along k:
   for (i < n) for (j < m) { double acc = 0;
   for (p < k) acc += x[i*k+p] * w[j*k+p]; y[i*m+j] = acc; }.
   d_x[i*k+p] += sum_j d_y[i*m+j] w[j*k+p];
   d_w[j*k+p] += sum_i d_y[i*m+j] x[i*k+p].  Checks every d_x and d_w
   against central differences, accumulation into pre-filled shadows,
   and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
matmul_wt (int n, int m, int k, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = 0;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[j * k + p];
	y[i * m + j] = acc;
      }
}

struct ctx
{
  int n, m, k;
  double *x, *w, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  matmul_wt (t->n, t->m, t->k, t->x, t->w, t->y);
  return tg_dot (t->c, t->y, t->n * t->m);
}

int
main (void)
{
  int n = 5, m = 3, k = 4, nx = n * k, nw = m * k, ny = n * m;
  double *x = tg_alloc (nx), *w = tg_alloc (nw), *y = tg_alloc (ny);
  double *c = tg_alloc (ny), *d_x = tg_alloc (nx), *d_w = tg_alloc (nw);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (w, nw, 2, -2, 2);
  tg_fill (c, ny, 3, -1, 1);
  tg_fill (d_x, nx, 4, -1, 1);
  tg_fill (d_w, nw, 5, -1, 1);

  matmul_wt (n, m, k, x, w, y);
  double *x0 = tg_dup (x, nx), *w0 = tg_dup (w, nw), *y0 = tg_dup (y, ny);
  double *d_y = tg_dup (c, ny);
  double *pre_x = tg_dup (d_x, nx), *pre_w = tg_dup (d_w, nw);

  matmul_wt_grad (n, m, k, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (w, w0, nw * sizeof *w);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  double *g_x = tg_alloc (nx), *g_w = tg_alloc (nw);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_w, d_w, pre_w, nw);
  struct ctx t = { n, m, k, x, w, y, c };
  tg_fd_check ("x", x, nx, loss, &t, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, nw, loss, &t, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

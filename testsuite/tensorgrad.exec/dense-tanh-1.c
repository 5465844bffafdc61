/* { dg-do run } */
/* A dense layer with bias and tanh in one kernel, in double:
   x n x k, w k x m, b m, y n x m (5 x 4, 4 x 3 at run time);
   double acc = b[j]; for (p < k) acc += x[i*k+p] * w[p*m+j];
   y[i*m+j] = tanh (acc).  With dz = d_y (1 - y^2):
   d_x[i*k+p] += sum_j dz[i*m+j] w[p*m+j];
   d_w[p*m+j] += sum_i x[i*k+p] dz[i*m+j]; d_b[j] += sum_i dz[i*m+j].
   Checks every d_x, d_w and d_b against central differences,
   accumulation into pre-filled shadows, and that x, w, b, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_tanh_d (int n, int m, int k, const double *x, const double *w,
	      const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = b[j];
      for (int p = 0; p < k; p++)
        acc += x[i*k + p] * w[p*m + j];
      y[i*m + j] = tanh (acc);
    }
}

struct ctx
{
  int n, m, k;
  double *x, *w, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  dense_tanh_d (t->n, t->m, t->k, t->x, t->w, t->b, t->y);
  return tg_dot (t->c, t->y, t->n * t->m);
}

int
main (void)
{
  int n = 5, m = 3, k = 4, nx = n * k, nw = k * m, ny = n * m;
  double *x = tg_alloc (nx), *w = tg_alloc (nw), *b = tg_alloc (m);
  double *y = tg_alloc (ny), *c = tg_alloc (ny);
  double *d_x = tg_alloc (nx), *d_w = tg_alloc (nw), *d_b = tg_alloc (m);
  tg_fill (x, nx, 1, -1, 1);
  tg_fill (w, nw, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  tg_fill (c, ny, 4, -1, 1);
  tg_fill (d_x, nx, 5, -1, 1);
  tg_fill (d_w, nw, 6, -1, 1);
  tg_fill (d_b, m, 7, -1, 1);

  dense_tanh_d (n, m, k, x, w, b, y);
  double *x0 = tg_dup (x, nx), *w0 = tg_dup (w, nw), *b0 = tg_dup (b, m);
  double *y0 = tg_dup (y, ny), *d_y = tg_dup (c, ny);
  double *pre_x = tg_dup (d_x, nx), *pre_w = tg_dup (d_w, nw);
  double *pre_b = tg_dup (d_b, m);

  dense_tanh_d_grad (n, m, k, x, w, b, y, d_x, d_w, d_b, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (w, w0, nw * sizeof *w);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  double *g_x = tg_alloc (nx), *g_w = tg_alloc (nw), *g_b = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, nx);
  tg_sub (g_w, d_w, pre_w, nw);
  tg_sub (g_b, d_b, pre_b, m);
  struct ctx t = { n, m, k, x, w, b, y, c };
  tg_fd_check ("x", x, nx, loss, &t, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, nw, loss, &t, g_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &t, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

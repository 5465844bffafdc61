/* { dg-do run } */
/* A triangular iteration domain: a lower-triangular matrix-vector
   product, w n x n (5 x 5 at run time), only j <= i read, y zeroed in
   the same kernel:
   for (i < n) { y[i] = 0; for (j = 0; j <= i; j++) y[i] += w[i*n+j] x[j]; }.
   d_x[j] += sum_{i >= j} d_y[i] w[i*n+j]; d_w[i*n+j] += d_y[i] x[j] for
   j <= i, nothing above the diagonal.  Checks every d_x and d_w against
   central differences (the upper triangle against 0), that the upper
   triangle of d_w keeps its values exactly, accumulation into pre-filled
   shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
lower_matvec (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = 0;
      for (int j = 0; j <= i; j++)
	y[i] += w[i * n + j] * x[j];
    }
}

struct ctx
{
  int n;
  double *w, *x, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  lower_matvec (cx->n, cx->w, cx->x, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n);
}

int
main (void)
{
  int n = 5;
  int n_w = n * n;
  int n_x = n;
  int n_y = n;
  double *w = tg_alloc (n_w);
  double *x = tg_alloc (n_x);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_w = tg_alloc (n_w);
  double *d_x = tg_alloc (n_x);
  tg_fill (w, n_w, 1, -2, 2);
  tg_fill (x, n_x, 2, -2, 2);
  tg_fill (c_y, n_y, 3, -1, 1);
  tg_fill (d_w, n_w, 4, -1, 1);
  tg_fill (d_x, n_x, 5, -1, 1);

  lower_matvec (n, w, x, y);
  double *w0 = tg_dup (w, n_w);
  double *x0 = tg_dup (x, n_x);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_w = tg_dup (d_w, n_w);
  double *pre_x = tg_dup (d_x, n_x);

  lower_matvec_grad (n, w, x, y, d_w, d_x, d_y);

  CHECK_SAME (w, w0, n_w * sizeof (double));
  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_w = tg_alloc (n_w);
  tg_sub (g_w, d_w, pre_w, n_w);
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, w, x, y, c_y };
  tg_fd_check ("w", w, n_w, loss, &cx, g_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      CHECK_AT (d_w[i * n + j] == pre_w[i * n + j], i * n + j);
  return tg_exit ();
}

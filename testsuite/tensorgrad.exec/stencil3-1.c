/* { dg-do run } */
/* A 3-point stencil with learned weights, x of run-time length n = 7,
   n - 2 outputs: y[i-1] = w[0] x[i-1] + w[1] x[i] + w[2] x[i+1] for
   1 <= i < n - 1 (three reads of x at different offsets, w at constant
   indices).  d_x[i-1] += d_y w[0]; d_x[i] += d_y w[1];
   d_x[i+1] += d_y w[2]; d_w[t] += sum_i d_y[i-1] x[i-1+t].  Checks every
   d_x and d_w against central differences, accumulation into pre-filled
   shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stencil3 (int n, const double *x, const double *w, double *y)
{
  for (int i = 1; i < n - 1; i++)
    y[i - 1] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
}

struct ctx
{
  int n;
  double *x, *w, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  stencil3 (cx->n, cx->x, cx->w, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n - 2);
}

int
main (void)
{
  int n = 7;
  int n_x = n;
  int n_w = 3;
  int n_y = n - 2;
  double *x = tg_alloc (n_x);
  double *w = tg_alloc (n_w);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_x = tg_alloc (n_x);
  double *d_w = tg_alloc (n_w);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (w, n_w, 2, -2, 2);
  tg_fill (c_y, n_y, 3, -1, 1);
  tg_fill (d_x, n_x, 4, -1, 1);
  tg_fill (d_w, n_w, 5, -1, 1);

  stencil3 (n, x, w, y);
  double *x0 = tg_dup (x, n_x);
  double *w0 = tg_dup (w, n_w);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);
  double *pre_w = tg_dup (d_w, n_w);

  stencil3_grad (n, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (w, w0, n_w * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  double *g_w = tg_alloc (n_w);
  tg_sub (g_w, d_w, pre_w, n_w);
  struct ctx cx = { n, x, w, y, c_y };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, n_w, loss, &cx, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

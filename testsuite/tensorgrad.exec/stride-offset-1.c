/* { dg-do run } */
/* Strided, offset reads of two inputs with different strides, 1-D of
   run-time length n = 5: x holds 2n values, w 3n,
   y[i] = w[3*i+2] * sin (x[2*i+1]).
   d_x[2i+1] += d_y w[3i+2] cos x[2i+1]; d_w[3i+2] += d_y sin x[2i+1];
   the elements read by no iteration (x[2i], w[3i], w[3i+1]) get nothing.
   Checks every d_x and d_w against central differences (so the unread
   ones against 0), accumulation into pre-filled shadows, and that x, w,
   y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
stride_offset (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = w[3 * i + 2] * sin (x[2 * i + 1]);
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
  stride_offset (cx->n, cx->x, cx->w, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n);
}

int
main (void)
{
  int n = 5;
  int n_x = 2 * n;
  int n_w = 3 * n;
  int n_y = n;
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

  stride_offset (n, x, w, y);
  double *x0 = tg_dup (x, n_x);
  double *w0 = tg_dup (w, n_w);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);
  double *pre_w = tg_dup (d_w, n_w);

  stride_offset_grad (n, x, w, y, d_x, d_w, d_y);

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
  for (int i = 0; i < n; i++)
    {
      CHECK_AT (d_x[2 * i] == pre_x[2 * i], i);
      CHECK_AT (d_w[3 * i] == pre_w[3 * i], i);
      CHECK_AT (d_w[3 * i + 1] == pre_w[3 * i + 1], i);
    }
  return tg_exit ();
}

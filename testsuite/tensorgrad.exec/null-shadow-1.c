/* { dg-do run } */
/* A NULL input shadow means that gradient is not wanted: y[i] = x[i] *
   exp (w[i]).  f_grad (..., NULL, d_w, d_y) must compute d_w (and not
   crash); f_grad (..., d_x, NULL, d_y) must compute d_x; with both NULL
   it writes nothing.  Checks d_w and d_x against central differences
   each time, accumulation into pre-filled shadows, and that x, w, y, d_y
   are untouched by all three calls.  */

#include <math.h>
#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
xexpw (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * exp (w[i]);
}

struct ctx
{
  int n;
  double *x, *w, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  xexpw (k->n, k->x, k->w, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *c = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  double *g = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -1, 1);
  tg_fill (c, n, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);
  tg_fill (d_w, n, 5, -1, 1);

  xexpw (n, x, w, y);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, n);
  struct ctx k = { n, x, w, y, c };

  /* Only d_w.  */
  xexpw_grad (n, x, w, y, NULL, d_w, d_y);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  CHECK_SAME (d_x, pre_x, n * sizeof *d_x);
  tg_sub (g, d_w, pre_w, n);
  tg_fd_check ("w", w, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* Only d_x.  */
  xexpw (n, x, w, y);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  xexpw_grad (n, x, w, y, d_x, NULL, d_y);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  CHECK_SAME (d_w, pre_w, n * sizeof *d_w);
  tg_sub (g, d_x, pre_x, n);
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* Neither.  */
  xexpw (n, x, w, y);
  xexpw_grad (n, x, w, y, NULL, NULL, d_y);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  return tg_exit ();
}

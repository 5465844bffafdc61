/* { dg-do run } */
/* A static kernel gets a static gradient, called from main in the same
   file: y[i] = x[i] * w[i] + w[i], 1-D.  d_x += d_y w; d_w += d_y (x + 1).
   Checks every d_x and d_w against central differences, accumulation into
   pre-filled shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static void
mul_add (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * w[i] + w[i];
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
  mul_add (k->n, k->x, k->w, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *c = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  tg_fill (c, n, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);
  tg_fill (d_w, n, 5, -1, 1);

  mul_add (n, x, w, y);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, n);

  mul_add_grad (n, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, c, n * sizeof *d_y);
  double *g_x = tg_alloc (n), *g_w = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, w, y, c };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, n, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

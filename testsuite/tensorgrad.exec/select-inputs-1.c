/* { dg-do run } */
/* A ternary whose condition compares two inputs and whose arms are
   different expressions of both, 1-D:
   y[i] = x[i] > w[i] ? x[i] * w[i] : x[i] - 2 * w[i].
   d_x += d_y (x > w ? w : 1); d_w += d_y (x > w ? x : -2).  With |x - w|
   at least 1e-3 checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, d_y are
   untouched; then, exactly, a tie x == w takes the else arm.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
pick (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > w[i] ? x[i] * w[i] : x[i] - 2 * w[i];
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
  pick (k->n, k->x, k->w, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 11;
  double *x = tg_alloc (n), *w = tg_alloc (n), *y = tg_alloc (n);
  double *c = tg_alloc (n), *d_x = tg_alloc (n), *d_w = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, n, 2, -2, 2);
  for (int i = 0; i < n; i++)
    if (fabs (x[i] - w[i]) < 1e-3)
      w[i] -= 0.2;
  tg_fill (c, n, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);
  tg_fill (d_w, n, 5, -1, 1);

  pick (n, x, w, y);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, n), *y0 = tg_dup (y, n);
  double *d_y = tg_dup (c, n);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, n);

  pick_grad (n, x, w, y, d_x, d_w, d_y);

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

  /* A tie takes the else arm.  */
  w[3] = x[3];
  pick (n, x, w, y);
  memcpy (d_x, pre_x, n * sizeof *d_x);
  memcpy (d_w, pre_w, n * sizeof *d_w);
  pick_grad (n, x, w, y, d_x, d_w, d_y);
  CHECK (d_x[3] == pre_x[3] + c[3]);
  CHECK (d_w[3] == pre_w[3] + -2 * c[3]);
  return tg_exit ();
}

/* { dg-do run } */
/* A per-row scale broadcast along columns, 2-D flat-indexed, n x m at run
   time: y[i*m+j] = s[i] * x[i*m+j] - x[i*m+j] / s[i], s in [0.5, 2].
   d_x += d_y (s - 1/s); d_s[i] += sum_j d_y x (1 + 1/s^2).  Checks every
   d_x and d_s against central differences, accumulation into pre-filled
   shadows, and that x, s, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
row_scale (int n, int m, const double *s, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = s[i] * x[i * m + j] - x[i * m + j] / s[i];
}

struct ctx
{
  int n, m;
  double *s, *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  row_scale (k->n, k->m, k->s, k->x, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *s = tg_alloc (n), *x = tg_alloc (nm), *y = tg_alloc (nm);
  double *c = tg_alloc (nm), *d_s = tg_alloc (n), *d_x = tg_alloc (nm);
  tg_fill (s, n, 1, 0.5, 2);
  tg_fill (x, nm, 2, -2, 2);
  tg_fill (c, nm, 3, -1, 1);
  tg_fill (d_s, n, 4, -1, 1);
  tg_fill (d_x, nm, 5, -1, 1);

  row_scale (n, m, s, x, y);
  double *s0 = tg_dup (s, n), *x0 = tg_dup (x, nm), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm);
  double *pre_s = tg_dup (d_s, n), *pre_x = tg_dup (d_x, nm);

  row_scale_grad (n, m, s, x, y, d_s, d_x, d_y);

  CHECK_SAME (s, s0, n * sizeof *s);
  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  double *g_s = tg_alloc (n), *g_x = tg_alloc (nm);
  tg_sub (g_s, d_s, pre_s, n);
  tg_sub (g_x, d_x, pre_x, nm);
  struct ctx k = { n, m, s, x, y, c };
  tg_fd_check ("s", s, n, loss, &k, g_s, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

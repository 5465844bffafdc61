/* { dg-do run } */
/* Bias broadcast over rows, 2-D flat-indexed, n x m at run time:
   y[i*m+j] = x[i*m+j] + b[j].  d_x[i*m+j] += d_y[i*m+j];
   d_b[j] += sum_i d_y[i*m+j] (the broadcast's adjoint sums over i).
   Checks every d_x and d_b against central differences and the exact
   column sums, accumulation into pre-filled shadows, and that x, b, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bias_add (int n, int m, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] + b[j];
}

struct ctx
{
  int n, m;
  double *x, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  bias_add (k->n, k->m, k->x, k->b, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *b = tg_alloc (m), *y = tg_alloc (nm);
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_b = tg_alloc (m);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (b, m, 2, -1, 1);
  tg_fill (c, nm, 3, -1, 1);
  tg_fill (d_x, nm, 4, -1, 1);
  tg_fill (d_b, m, 5, -1, 1);

  bias_add (n, m, x, b, y);
  double *x0 = tg_dup (x, nm), *b0 = tg_dup (b, m), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm);
  double *pre_x = tg_dup (d_x, nm), *pre_b = tg_dup (d_b, m);

  bias_add_grad (n, m, x, b, y, d_x, d_b, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  double *g_x = tg_alloc (nm), *g_b = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_b, d_b, pre_b, m);
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += c[i * m + j];
      CHECK_NEAR_AT (g_b[j], s, 1e-12, 1e-14, j);
    }
  struct ctx k = { n, m, x, b, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &k, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

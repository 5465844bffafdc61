/* { dg-do run } */
/* A 2-D VLA temporary t[n][m] written by one nest and read by a later
   nest in the other loop order (a column reduction), n x m = 5 x 3 at run
   time:
     t[i][j] = x[i*m+j] * w[j];   y[j] = sum_i tanh (t[i][j]).
   d_x[i*m+j] += d_y[j] (1 - tanh^2 t[i][j]) w[j];
   d_w[j] += sum_i d_y[j] (1 - tanh^2 t[i][j]) x[i*m+j].
   Checks every d_x and d_w against central differences, accumulation
   into pre-filled shadows, and that x, w, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
temp_2d (int n, int m, const double *x, const double *w, double *y)
{
  double t[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[i][j] = x[i * m + j] * w[j];
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
	s += tanh (t[i][j]);
      y[j] = s;
    }
}

struct ctx
{
  int n, m;
  double *x, *w, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  temp_2d (k->n, k->m, k->x, k->w, k->y);
  return tg_dot (k->cy, k->y, k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *w = tg_alloc (m), *y = tg_alloc (m);
  double *cy = tg_alloc (m), *d_x = tg_alloc (nm), *d_w = tg_alloc (m);
  tg_fill (x, nm, 1, -1.5, 1.5);
  tg_fill (w, m, 2, -1.5, 1.5);
  tg_fill (cy, m, 3, -1, 1);
  tg_fill (d_x, nm, 4, -1, 1);
  tg_fill (d_w, m, 5, -1, 1);

  temp_2d (n, m, x, w, y);
  double *x0 = tg_dup (x, nm), *w0 = tg_dup (w, m), *y0 = tg_dup (y, m);
  double *d_y = tg_dup (cy, m);
  double *pre_x = tg_dup (d_x, nm), *pre_w = tg_dup (d_w, m);

  temp_2d_grad (n, m, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (w, w0, m * sizeof *w);
  CHECK_SAME (y, y0, m * sizeof *y);
  CHECK_SAME (d_y, cy, m * sizeof *d_y);
  double *g_x = tg_alloc (nm), *g_w = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_w, d_w, pre_w, m);
  struct ctx k = { n, m, x, w, y, cy };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, m, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Elementwise product through VLA parameters, n x m at run time:
   void f (int n, int m, const double x[n][m], const double w[n][m],
	   double y[n][m]);  y[i][j] = x[i][j] * w[i][j].
   Shadows double d_x[n][m], d_w[n][m], d_y[n][m]; d_x += d_y w,
   d_w += d_y x.  Checks every d_x and d_w against central differences,
   accumulation into pre-filled shadows, and that x, w, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
vla_mul (int n, int m, const double x[n][m], const double w[n][m],
	 double y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i][j] = x[i][j] * w[i][j];
}

struct ctx
{
  int n, m;
  double *x, *w, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  int m = k->m;
  vla_mul (k->n, m, (const double (*)[m]) k->x, (const double (*)[m]) k->w,
	   (double (*)[m]) k->y);
  return tg_dot (k->c, k->y, k->n * m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *w = tg_alloc (nm), *y = tg_alloc (nm);
  double *c = tg_alloc (nm), *d_x = tg_alloc (nm), *d_w = tg_alloc (nm);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (w, nm, 2, -2, 2);
  tg_fill (c, nm, 3, -1, 1);
  tg_fill (d_x, nm, 4, -1, 1);
  tg_fill (d_w, nm, 5, -1, 1);

  vla_mul (n, m, (const double (*)[m]) x, (const double (*)[m]) w,
	   (double (*)[m]) y);
  double *x0 = tg_dup (x, nm), *w0 = tg_dup (w, nm), *y0 = tg_dup (y, nm);
  double *d_y = tg_dup (c, nm);
  double *pre_x = tg_dup (d_x, nm), *pre_w = tg_dup (d_w, nm);

  vla_mul_grad (n, m, (const double (*)[m]) x, (const double (*)[m]) w,
		(double (*)[m]) y, (double (*)[m]) d_x, (double (*)[m]) d_w,
		(double (*)[m]) d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (w, w0, nm * sizeof *w);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  double *g_x = tg_alloc (nm), *g_w = tg_alloc (nm);
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_w, d_w, pre_w, nm);
  struct ctx k = { n, m, x, w, y, c };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, nm, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Row softmax in one kernel, n x m = 5 x 4 at run time, stabilised by the
   row maximum (fmax reduction), a sum of exponentials and a division:
   mx = max_j x[i*m+j]; s = sum_j exp (x - mx); y[i*m+j] = exp (x - mx) / s.
   The loss reaches x through d_y only:
   d_x[i*m+j] += y[i*m+j] (d_y[i*m+j] - sum_k d_y[i*m+k] y[i*m+k])
   (the path through mx cancels).  Checks every d_x against central
   differences, accumulation into a pre-filled d_x, and that x, y, d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax_rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
	mx = fmax (mx, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
	s += exp (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
	y[i * m + j] = exp (x[i * m + j] - mx) / s;
    }
}

struct ctx
{
  int n, m;
  double *x, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  softmax_rows (cx->n, cx->m, cx->x, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n * cx->m);
}

int
main (void)
{
  int n = 5, m = 4;
  int n_x = n * m;
  int n_y = n * m;
  double *x = tg_alloc (n_x);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_x = tg_alloc (n_x);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (c_y, n_y, 2, -1, 1);
  tg_fill (d_x, n_x, 3, -1, 1);

  softmax_rows (n, m, x, y);
  double *x0 = tg_dup (x, n_x);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);

  softmax_rows_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, m, x, y, c_y };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Batch normalisation in training mode: the mean and variance of each of
   c = 3 channels over a batch of n = 5 rows (x n x c at run time, the
   channel outermost, the batch reductions inner), a per-channel gain g
   and bias b, eps = 1e-5 a constant:
   mu = mean_i x[i*c+j]; var = mean_i (x - mu)^2; r = 1 / sqrt (var + eps);
   y[i*c+j] = g[j] (x[i*c+j] - mu) r + b[j].  With xh = (x - mu) r and
   dxh = d_y g[j]: d_g[j] += sum_i d_y xh; d_b[j] += sum_i d_y;
   d_x += r (dxh - mean_i dxh - xh mean_i (dxh xh)).  Checks every d_x,
   d_g and d_b against central differences, accumulation into pre-filled
   shadows, and that x, g, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
batchnorm_train (int n, int c, const double *x, const double *g,
                 const double *b, double *y)
{
  for (int j = 0; j < c; j++)
    {
      double mu = 0;
      for (int i = 0; i < n; i++)
	mu += x[i * c + j];
      mu = mu / n;
      double var = 0;
      for (int i = 0; i < n; i++)
	var += (x[i * c + j] - mu) * (x[i * c + j] - mu);
      var = var / n;
      double r = 1 / sqrt (var + 1e-5);
      for (int i = 0; i < n; i++)
	y[i * c + j] = g[j] * (x[i * c + j] - mu) * r + b[j];
    }
}

struct ctx
{
  int n, c;
  double *x, *g, *b, *y, *c_y;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  batchnorm_train (cx->n, cx->c, cx->x, cx->g, cx->b, cx->y);
  return tg_dot (cx->c_y, cx->y, cx->n * cx->c);
}

int
main (void)
{
  int n = 5, c = 3;
  int n_x = n * c;
  int n_g = c;
  int n_b = c;
  int n_y = n * c;
  double *x = tg_alloc (n_x);
  double *g = tg_alloc (n_g);
  double *b = tg_alloc (n_b);
  double *y = tg_alloc (n_y);
  double *c_y = tg_alloc (n_y);
  double *d_x = tg_alloc (n_x);
  double *d_g = tg_alloc (n_g);
  double *d_b = tg_alloc (n_b);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (g, n_g, 2, 0.5, 2);
  tg_fill (b, n_b, 3, -1, 1);
  tg_fill (c_y, n_y, 4, -1, 1);
  tg_fill (d_x, n_x, 5, -1, 1);
  tg_fill (d_g, n_g, 6, -1, 1);
  tg_fill (d_b, n_b, 7, -1, 1);

  batchnorm_train (n, c, x, g, b, y);
  double *x0 = tg_dup (x, n_x);
  double *g0 = tg_dup (g, n_g);
  double *b0 = tg_dup (b, n_b);
  double *y0 = tg_dup (y, n_y);
  double *d_y = tg_dup (c_y, n_y);
  double *pre_x = tg_dup (d_x, n_x);
  double *pre_g = tg_dup (d_g, n_g);
  double *pre_b = tg_dup (d_b, n_b);

  batchnorm_train_grad (n, c, x, g, b, y, d_x, d_g, d_b, d_y);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  CHECK_SAME (g, g0, n_g * sizeof (double));
  CHECK_SAME (b, b0, n_b * sizeof (double));
  CHECK_SAME (y, y0, n_y * sizeof (double));
  CHECK_SAME (d_y, c_y, n_y * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  double *g_g = tg_alloc (n_g);
  tg_sub (g_g, d_g, pre_g, n_g);
  double *g_b = tg_alloc (n_b);
  tg_sub (g_b, d_b, pre_b, n_b);
  struct ctx cx = { n, c, x, g, b, y, c_y };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("g", g, n_g, loss, &cx, g_g, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, n_b, loss, &cx, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

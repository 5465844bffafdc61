/* { dg-do run } */
/* A scalar accumulator initialised from an input value, m = 3 outputs,
   k = 4 terms at run time:
   double acc = b[j]; for (p < k) acc += x[p] * w[p*m+j]; y[j] = acc;
   d_b[j] += d_y[j]; d_x[p] += sum_j d_y[j] w[p*m+j];
   d_w[p*m+j] += d_y[j] x[p].  Checks every d_x, d_w and d_b against
   central differences, accumulation into pre-filled shadows, and that
   x, w, b, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
acc_init (int m, int k, const double *x, const double *w, const double *b,
	  double *y)
{
  for (int j = 0; j < m; j++)
    {
      double acc = b[j];
      for (int p = 0; p < k; p++)
	acc += x[p] * w[p * m + j];
      y[j] = acc;
    }
}

struct ctx
{
  int m, k;
  double *x, *w, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  acc_init (t->m, t->k, t->x, t->w, t->b, t->y);
  return tg_dot (t->c, t->y, t->m);
}

int
main (void)
{
  int m = 3, k = 4, km = k * m;
  double *x = tg_alloc (k), *w = tg_alloc (km), *b = tg_alloc (m);
  double *y = tg_alloc (m), *c = tg_alloc (m);
  double *d_x = tg_alloc (k), *d_w = tg_alloc (km), *d_b = tg_alloc (m);
  tg_fill (x, k, 1, -2, 2);
  tg_fill (w, km, 2, -2, 2);
  tg_fill (b, m, 3, -2, 2);
  tg_fill (c, m, 4, -1, 1);
  tg_fill (d_x, k, 5, -1, 1);
  tg_fill (d_w, km, 6, -1, 1);
  tg_fill (d_b, m, 7, -1, 1);

  acc_init (m, k, x, w, b, y);
  double *x0 = tg_dup (x, k), *w0 = tg_dup (w, km), *b0 = tg_dup (b, m);
  double *y0 = tg_dup (y, m), *d_y = tg_dup (c, m);
  double *pre_x = tg_dup (d_x, k), *pre_w = tg_dup (d_w, km);
  double *pre_b = tg_dup (d_b, m);

  acc_init_grad (m, k, x, w, b, y, d_x, d_w, d_b, d_y);

  CHECK_SAME (x, x0, k * sizeof *x);
  CHECK_SAME (w, w0, km * sizeof *w);
  CHECK_SAME (b, b0, m * sizeof *b);
  CHECK_SAME (y, y0, m * sizeof *y);
  CHECK_SAME (d_y, c, m * sizeof *d_y);
  double *g_x = tg_alloc (k), *g_w = tg_alloc (km), *g_b = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, k);
  tg_sub (g_w, d_w, pre_w, km);
  tg_sub (g_b, d_b, pre_b, m);
  struct ctx t = { m, k, x, w, b, y, c };
  tg_fd_check ("x", x, k, loss, &t, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, km, loss, &t, g_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &t, g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

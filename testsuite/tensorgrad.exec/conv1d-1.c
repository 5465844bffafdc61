/* { dg-do run } */
/* A valid 1-D convolution (cross-correlation) with a by-value bias,
   x of length n = 7, filter of width kw = 3, n - kw + 1 = 5 outputs:
   for (i < n - kw + 1) { double acc = b; for (t < kw)
   acc += x[i+t] * w[t]; y[i] = acc; },
   gradient void conv1d_grad (int n, int kw, const double *x,
   const double *w, double b, double *y, double *d_x, double *d_w,
   double *d_b, double *d_y).
   d_x[i+t] += d_y[i] w[t]; d_w[t] += sum_i d_y[i] x[i+t];
   *d_b += sum_i d_y[i].  Checks every d_x, d_w and d_b against central
   differences, accumulation into pre-filled shadows, and that x, w, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
conv1d (int n, int kw, const double *x, const double *w, double b,
	double *y)
{
  for (int i = 0; i < n - kw + 1; i++)
    {
      double acc = b;
      for (int t = 0; t < kw; t++)
	acc += x[i + t] * w[t];
      y[i] = acc;
    }
}

struct ctx
{
  int n, kw;
  double *x, *w, *b, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  conv1d (k->n, k->kw, k->x, k->w, *k->b, k->y);
  return tg_dot (k->c, k->y, k->n - k->kw + 1);
}

int
main (void)
{
  int n = 7, kw = 3, ny = n - kw + 1;
  double *x = tg_alloc (n), *w = tg_alloc (kw), *y = tg_alloc (ny);
  double *c = tg_alloc (ny), *d_x = tg_alloc (n), *d_w = tg_alloc (kw);
  double b = 0.375, d_b = -0.625;
  tg_fill (x, n, 1, -2, 2);
  tg_fill (w, kw, 2, -2, 2);
  tg_fill (c, ny, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);
  tg_fill (d_w, kw, 5, -1, 1);

  conv1d (n, kw, x, w, b, y);
  double *x0 = tg_dup (x, n), *w0 = tg_dup (w, kw), *y0 = tg_dup (y, ny);
  double *d_y = tg_dup (c, ny);
  double *pre_x = tg_dup (d_x, n), *pre_w = tg_dup (d_w, kw);

  conv1d_grad (n, kw, x, w, b, y, d_x, d_w, &d_b, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, kw * sizeof *w);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, c, ny * sizeof *d_y);
  double *g_x = tg_alloc (n), *g_w = tg_alloc (kw), g_b = d_b + 0.625;
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_w, d_w, pre_w, kw);
  struct ctx k = { n, kw, x, w, &b, y, c };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, kw, loss, &k, g_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", &b, 1, loss, &k, &g_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Row-wise recurrences whose first column is written apart: a cumulative
   sum per row seeded in the same outer loop, and a first-order filter per
   channel, y[c][t] = a y[c][t-1] + b x[c][t], seeded by a nest of its
   own.  The seed writes column 0 and the recurrence columns 1 to m - 1 of
   rows of m elements: different columns, so no element is written twice
   (they were refused as written by more than one nest).  Checks d_x,
   d_a and d_b against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
cumsum_rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      y[i * m] = x[i * m];
      for (int j = 1; j < m; j++)
	y[i * m + j] = y[i * m + j - 1] + x[i * m + j];
    }
}

__attribute__ ((differentiable))
void
filter (int C, int T, double a, double b, const double *x, double *y)
{
  for (int c = 0; c < C; c++)
    y[c * T] = b * x[c * T];
  for (int c = 0; c < C; c++)
    for (int t = 1; t < T; t++)
      y[c * T + t] = a * y[c * T + t - 1] + b * x[c * T + t];
}

enum { N = 3, M = 4 };

struct ctx
{
  double *x, *y, *w, a, b;
};

static double
loss_cumsum (void *p)
{
  struct ctx *k = p;
  cumsum_rows (N, M, k->x, k->y);
  return tg_dot (k->w, k->y, N * M);
}

static double
loss_filter (void *p)
{
  struct ctx *k = p;
  filter (N, M, k->a, k->b, k->x, k->y);
  double s = 0;
  for (int i = 0; i < N * M; i++)
    s += k->w[i] * sin (k->y[i]);
  return s;
}

int
main (void)
{
  double x[N * M], y[N * M], w[N * M], d_x[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1, 1);
  tg_fill (w, N * M, 2, -1, 1);
  struct ctx k = { x, y, w, 0.7, 1.3 };
  cumsum_rows (N, M, x, y);
  cumsum_rows_grad (N, M, x, y, d_x, w);
  tg_fd_check ("cumsum x", x, N * M, loss_cumsum, &k, d_x, TG_RTOL, TG_ATOL);

  double d_y[N * M], d_a = 0, d_b = 0;
  filter (N, M, k.a, k.b, x, y);
  for (int i = 0; i < N * M; i++)
    {
      d_y[i] = w[i] * cos (y[i]);
      d_x[i] = 0;
    }
  filter_grad (N, M, k.a, k.b, x, y, &d_a, &d_b, d_x, d_y);
  tg_fd_check ("filter x", x, N * M, loss_filter, &k, d_x, TG_RTOL, TG_ATOL);
  double e = 1e-6;
  k.a += e;
  double lp = loss_filter (&k);
  k.a -= 2 * e;
  double lm = loss_filter (&k);
  k.a += e;
  CHECK_NEAR (d_a, (lp - lm) / (2 * e), 1e-6, 1e-7);
  k.b += e;
  lp = loss_filter (&k);
  k.b -= 2 * e;
  lm = loss_filter (&k);
  k.b += e;
  CHECK_NEAR (d_b, (lp - lm) / (2 * e), 1e-6, 1e-7);
  return tg_exit ();
}

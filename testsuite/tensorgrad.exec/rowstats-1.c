/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Layer normalisation written with row statistics in sibling loops: the
   mean is summed by one loop and used inside the variance's sum in the
   next.  Both are computed once per row, before the loops that use them
   (the mean was once summed again for every term of the variance, a
   gradient a thousand times slower at 1024 columns).  Checks d_x,
   d_gamma and d_beta against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, const double *x, const double *gamma,
	   const double *beta, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += x[i * m + j];
      double mean = s / m;
      double v = 0;
      for (int j = 0; j < m; j++)
	v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      double rstd = 1 / sqrt (v / m + 1e-5);
      for (int j = 0; j < m; j++)
	y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

/* The mean once per row, then the variance from it.  */
/* { dg-final { scan-tensorgrad-dump "s\\\[i\\\] = sum \\(j < m; 0; x\\\[m \\* i \\+ j\\\]\\);" } } */
/* { dg-final { scan-tensorgrad-dump "v\\\[i\\\] = sum \\(j < m; 0; \\(x\\\[m \\* i \\+ j\\\] - s\\\[i\\\] / \\(double\\) m\\)" } } */

enum { N = 3, M = 5 };

struct ctx
{
  double *x, *g, *b, *y, *w;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  layernorm (N, M, k->x, k->g, k->b, k->y);
  return tg_dot (k->w, k->y, N * M);
}

int
main (void)
{
  double x[N * M], g[M], b[M], y[N * M], w[N * M];
  double d_x[N * M] = { 0 }, d_g[M] = { 0 }, d_b[M] = { 0 };
  tg_fill (x, N * M, 1, -2, 2);
  tg_fill (g, M, 2, 0.5, 1.5);
  tg_fill (b, M, 3, -1, 1);
  tg_fill (w, N * M, 4, -1, 1);
  layernorm (N, M, x, g, b, y);
  layernorm_grad (N, M, x, g, b, y, d_x, d_g, d_b, w);
  struct ctx k = { x, g, b, y, w };
  tg_fd_check ("x", x, N * M, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("gamma", g, M, loss, &k, d_g, TG_RTOL, TG_ATOL);
  tg_fd_check ("beta", b, M, loss, &k, d_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

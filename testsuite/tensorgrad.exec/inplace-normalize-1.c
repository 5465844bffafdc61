/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A temporary normalized in place by a sum a loop before computed from
   it, as a softmax is often written: p = exp (x); z = sum p; p /= z.
   The sum is computed before the loop that divides (a local array with
   one element per row, or one element), so p's values before the
   division get an array of their own (version.c).  Row by row in a 2-D
   array, and over a whole vector.  Checks d_x against central
   differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
rows (int n, int m, const double *x, double *y)
{
  double p[64];
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < m; j++)
	p[i * m + j] = exp (x[i * m + j]);
      double z = 0;
      for (int j = 0; j < m; j++)
	z += p[i * m + j];
      for (int j = 0; j < m; j++)
	p[i * m + j] /= z;
      for (int j = 0; j < m; j++)
	y[i * m + j] = p[i * m + j] * sin (p[i * m + j] + x[i * m + j]);
    }
}

__attribute__ ((differentiable))
double
whole (int n, const double *x)
{
  double p[n];
  for (int i = 0; i < n; i++)
    p[i] = exp (x[i]);
  double z = 0;
  for (int i = 0; i < n; i++)
    z += p[i];
  for (int i = 0; i < n; i++)
    p[i] /= z;
  double e = 0;
  for (int i = 0; i < n; i++)
    e -= p[i] * log (p[i]);
  return e;
}

/* { dg-final { scan-tensorgrad-dump-times "version: p, written again by a later loop nest" 2 } } */

enum { N = 3, M = 4 };

struct ctx
{
  double *x, *y, *c;
};

static double
loss_rows (void *p)
{
  struct ctx *k = p;
  rows (N, M, k->x, k->y);
  return tg_dot (k->c, k->y, N * M);
}

static double
loss_whole (void *p)
{
  struct ctx *k = p;
  return whole (N * M, k->x);
}

int
main (void)
{
  double x[N * M], y[N * M], c[N * M], d_x[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1.5, 1.5);
  tg_fill (c, N * M, 2, -1, 1);
  rows (N, M, x, y);
  rows_grad (N, M, x, y, d_x, c);
  struct ctx k = { x, y, c };
  tg_fd_check ("rows x", x, N * M, loss_rows, &k, d_x, TG_RTOL, TG_ATOL);
  for (int i = 0; i < N * M; i++)
    d_x[i] = 0;
  whole_grad (N * M, x, d_x, 1.0);
  tg_fd_check ("whole x", x, N * M, loss_whole, &k, d_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

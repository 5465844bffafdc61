/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A temporary normalized in place by a sum a loop before computed from
   it, as a softmax is often written: p = exp (x); z = sum p; p /= z.
   The sum is computed before the loop that divides (a local array with
   one element per row, or one element), so p's values before the
   division get an array of their own (version.c).  Row by row in a 2-D
   array, and over a whole vector.  With p the softmax of a row,
   rows: y = p sin (p + x); with u = d_y (sin (p + x) + p cos (p + x)),
   d_x[j] += d_y[j] p[j] cos (p[j] + x[j]) + p[j] (u[j] - sum_k p[k] u[k]);
   whole: e = -sum p log p; d_x[i] += -d_r p[i] (log p[i] + e).
   TG_GRADCHECK checks d_x against central differences, accumulation into
   d_x, and that x and y are untouched.  */

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

int
main (void)
{
  int n = N, m = M, nm = N * M;
  double x[N * M], y[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1.5, 1.5);
  TG_GRADCHECK (rows, &n, &m, x, y);
  TG_GRADCHECK (whole, &nm, x);
  return tg_exit ();
}

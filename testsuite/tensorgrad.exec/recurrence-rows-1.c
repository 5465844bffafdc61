/* { dg-do run } */
/* Row-wise recurrences whose first column is written apart: a cumulative
   sum per row seeded in the same outer loop, and a first-order filter per
   channel, y[c][t] = a y[c][t-1] + b x[c][t], seeded by a nest of its
   own.  The seed writes column 0 and the recurrence columns 1 to m - 1 of
   rows of m elements: different columns, so no element is written twice
   (they were refused as written by more than one nest).  Gradients:
   cumsum_rows: d_x[i*m+j] += sum_{k>=j} d_y[i*m+k]; filter, with
   g[t] = d_y[c*T+t] + a g[t+1] (g[T] = 0): d_x[c*T+t] += b g[t];
   *d_b += sum g[t] x[c*T+t]; *d_a += sum_{t>=1} g[t] y[c*T+t-1].
   TG_GRADCHECK checks d_x, d_a and d_b against central differences,
   accumulation into the shadows, and that x, y and d_y are untouched.  */

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

int
main (void)
{
  int n = N, m = M;
  double a = 0.7, b = 1.3, x[N * M], y[N * M] = { 0 };
  tg_fill (x, N * M, 1, -1, 1);
  TG_GRADCHECK (cumsum_rows, &n, &m, x, y);
  TG_GRADCHECK (filter, &n, &m, &a, &b, x, y);
  return tg_exit ();
}

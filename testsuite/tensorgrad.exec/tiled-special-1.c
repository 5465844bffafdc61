/* { dg-do run } */
/* Special values through the tiled products (lib/back/tiled.h): the
   packed panels are padded with zeros past the matrix's edges, and the
   padding must not turn an infinity into a NaN that reaches C.  A dense
   layer, float, at 9 x 40 x 100 (both products tiled, edge tiles in
   every direction): y[i*m + j] = b[j] + sum_p x[i*k + p] w[p*m + j];
   d_x = d_y w^T, d_w = x^T d_y.  With w[3*m + 99] = +inf (in the last,
   partial panel of columns), x[8*k + 39] = NaN (the last, partial panel
   of rows) and d_y finite: d_x[i*k + 3] is +-inf or NaN for every row i
   (its sum has the term d_y[i*m + 99] * inf), every other d_x element
   finite; d_w[p*m + j] is NaN exactly for p = 39 (x's NaN column),
   finite elsewhere.  Each element checked against that rule, computed
   from the formula in double.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const float *x, const float *w, const float *b,
       float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

int
main (void)
{
  enum { N = 9, K = 40, M = 100 };
  int n = N, k = K, m = M;
  static float x[N * K], w[K * M], b[M], y[N * M], dy[N * M];
  static float dx[N * K], dw[K * M], db[M];
  tg_fill_f (x, N * K, 1, -1, 1);
  tg_fill_f (w, K * M, 2, -1, 1);
  tg_fill_f (b, M, 3, -1, 1);
  tg_fill_f (dy, N * M, 4, -1, 1);
  w[3 * M + 99] = INFINITY;
  x[8 * K + 39] = NAN;
  dense_grad (n, k, m, x, w, b, y, dx, dw, db, dy);
  for (int i = 0; i < N; i++)
    for (int p = 0; p < K; p++)
      {
	/* The formula in double: non-finite exactly where a term is.  */
	double s = 0;
	for (int j = 0; j < M; j++)
	  s += (double) dy[i * M + j] * w[p * M + j];
	CHECK_AT (isfinite (dx[i * K + p]) == isfinite (s), i * K + p);
      }
  for (int p = 0; p < K; p++)
    for (int j = 0; j < M; j++)
      {
	double s = 0;
	for (int i = 0; i < N; i++)
	  s += (double) x[i * K + p] * dy[i * M + j];
	CHECK_AT (isnan (dw[p * M + j]) == isnan (s), p * M + j);
	CHECK_AT (isfinite (dw[p * M + j]) == isfinite (s), p * M + j);
      }
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_x = " } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+: tiled: d_w = " } } */

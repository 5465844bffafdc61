/* { dg-do run } */
/* Batched products with -fplugin-arg-tensorgrad-blas: one CBLAS call per
   batch (the dump says "in a loop over" the batch counter).
   bmm (float): C[b] = A[b] B[b], A[b] m x K, B[b] K x n, flat-indexed:
   d_A[b] += d_C[b] B[b]^T, d_B[b] += A[b]^T d_C[b].
   attn (double), per head h of H: s[h][i][j] = scale * sum_e
   q[(h*T + i)*E + e] kk[(h*T + j)*E + e], P = softmax over j of s,
   o[(h*T + i)*E + e] = sum_j P[h][i][j] v[(h*T + j)*E + e], scores and
   weights in local arrays.  d_v[h] += P[h]^T d_o[h], d_P[h] = d_o[h]
   v[h]^T, and through the softmax d_q[h] += scale * d_s[h] kk[h],
   d_kk[h] += scale * d_s[h]^T q[h]: products per head; the scores,
   which the gradient computes again, are a call per head too, then
   scaled in place.
   Odd sizes; every component against central differences, also with
   NULL shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bmm (int nb, int m, int n, int K, const float *A, const float *B, float *C)
{
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
	{
	  float acc = 0;
	  for (int k = 0; k < K; k++)
	    acc += A[(b * m + i) * K + k] * B[(b * K + k) * n + j];
	  C[(b * m + i) * n + j] = acc;
	}
}

__attribute__ ((differentiable))
void
attn (int H, int T, int E, const double *q, const double *kk,
      const double *v, double *o)
{
  double s[H * T * T], P[H * T * T];
  double scale = 1.0 / sqrt ((double) E);
  for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++)
      for (int j = 0; j < T; j++)
	{
	  double acc = 0;
	  for (int e = 0; e < E; e++)
	    acc += q[(h * T + i) * E + e] * kk[(h * T + j) * E + e];
	  s[(h * T + i) * T + j] = acc * scale;
	}
  for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++)
      {
	double mx = s[(h * T + i) * T];
	for (int j = 1; j < T; j++)
	  mx = fmax (mx, s[(h * T + i) * T + j]);
	double sum = 0;
	for (int j = 0; j < T; j++)
	  sum += exp (s[(h * T + i) * T + j] - mx);
	for (int j = 0; j < T; j++)
	  P[(h * T + i) * T + j] = exp (s[(h * T + i) * T + j] - mx) / sum;
      }
  for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++)
      for (int e = 0; e < E; e++)
	{
	  double acc = 0;
	  for (int j = 0; j < T; j++)
	    acc += P[(h * T + i) * T + j] * v[(h * T + j) * E + e];
	  o[(h * T + i) * E + e] = acc;
	}
}

int
main (void)
{
  int nb = 3, m = 5, n = 7, K = 9;
  float *A = tg_alloc_f (nb * m * K), *B = tg_alloc_f (nb * K * n);
  float *C = tg_alloc_f (nb * m * n);
  tg_fill_f (A, nb * m * K, 1, -1, 1);
  tg_fill_f (B, nb * K * n, 2, -1, 1);
  TG_GRADCHECK (bmm, &nb, &m, &n, &K, A, B, C);
  TG_GRADCHECK_NULL (bmm, "A", &nb, &m, &n, &K, A, B, C);

  int H = 2, T = 5, E = 3;
  double *q = tg_alloc (H * T * E), *kk = tg_alloc (H * T * E);
  double *v = tg_alloc (H * T * E), *o = tg_alloc (H * T * E);
  tg_fill (q, H * T * E, 3, -1, 1);
  tg_fill (kk, H * T * E, 4, -1, 1);
  tg_fill (v, H * T * E, 5, -1, 1);
  TG_GRADCHECK (attn, &H, &T, &E, q, kk, v, o);
  TG_GRADCHECK_NULL (attn, "q v", &H, &T, &E, q, kk, v, o);
  TG_GRADCHECK_NULL (attn, "kk", &H, &T, &E, q, kk, v, o);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_A = \[a-zA-Z0-9_\]+ \\* B\\^T as cblas_sgemm \\(m, K, n\\) in a loop over b\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_B = A\\^T \\* \[a-zA-Z0-9_\]+ as cblas_sgemm \\(K, n, m\\) in a loop over b\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_v = P\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(T, E, T\\) in a loop over h\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: s = q \\* kk\\^T as cblas_dgemm \\(T, T, E\\) in a loop over h, computed again\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */

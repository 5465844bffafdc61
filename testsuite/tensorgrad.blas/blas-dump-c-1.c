/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=blas-dump-c-1.gen.c -I." } */
/* { dg-additional-sources "blas-dump-c-1-aux.c" } */
/* With -fplugin-arg-tensorgrad-blas, -fplugin-arg-tensorgrad-dump-c
   prints the CBLAS calls the plugin emits (with their prototype and the
   run-time test of the sizes): blas-dump-c-1-aux.c compiles that file
   (the gradient renamed bmm_grad_c), and this test checks that it
   computes what the injected gradient does, for a batched product
   C[b] = A[b] B[b] (d_A[b] += d_C[b] B[b]^T, d_B[b] += A[b]^T d_C[b],
   one call per batch), with a NULL shadow, and at a size where the
   loops run instead (K = 0: no call, nothing added).  TG_GRADCHECK
   checks the injected one against central differences.  */

#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bmm (int nb, int m, int n, int K, const double *A, const double *B,
     double *C)
{
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
	{
	  double acc = 0;
	  for (int k = 0; k < K; k++)
	    acc += A[(b * m + i) * K + k] * B[(b * K + k) * n + j];
	  C[(b * m + i) * n + j] = acc;
	}
}

void bmm_grad_c (int nb, int m, int n, int K, const double *A,
		 const double *B, double *C, double *d_A, double *d_B,
		 double *d_C);

enum { NB = 2, M = 3, N = 5, K = 4 };
static double A[NB * M * K], B[NB * K * N], C[NB * M * N], dC[NB * M * N];

int
main (void)
{
  int nb = NB, m = M, n = N, k = K;
  tg_fill (A, NB * M * K, 1, -1, 1);
  tg_fill (B, NB * K * N, 2, -1, 1);
  tg_fill (dC, NB * M * N, 3, -1, 1);
  TG_GRADCHECK (bmm, &nb, &m, &n, &k, A, B, C);

  bmm (NB, M, N, K, A, B, C);
  double dA1[NB * M * K], dB1[NB * K * N], dA2[NB * M * K], dB2[NB * K * N];
  tg_fill (dA1, NB * M * K, 4, -1, 1);
  tg_fill (dB1, NB * K * N, 5, -1, 1);
  memcpy (dA2, dA1, sizeof dA1);
  memcpy (dB2, dB1, sizeof dB1);
  bmm_grad (NB, M, N, K, A, B, C, dA1, dB1, dC);
  bmm_grad_c (NB, M, N, K, A, B, C, dA2, dB2, dC);
  for (int i = 0; i < NB * M * K; i++)
    CHECK_NEAR_AT (dA2[i], dA1[i], 1e-14, 1e-14, i);
  for (int i = 0; i < NB * K * N; i++)
    CHECK_NEAR_AT (dB2[i], dB1[i], 1e-14, 1e-14, i);
  /* A NULL shadow: the other one is still right.  */
  double dA3[NB * M * K] = { 0 }, dA4[NB * M * K] = { 0 };
  bmm_grad (NB, M, N, K, A, B, C, dA3, NULL, dC);
  bmm_grad_c (NB, M, N, K, A, B, C, dA4, NULL, dC);
  for (int i = 0; i < NB * M * K; i++)
    CHECK_NEAR_AT (dA4[i], dA3[i], 1e-14, 1e-14, i);
  /* K = 0: the loops, which add nothing.  */
  double dB5[NB * K * N] = { 0 };
  bmm_grad_c (NB, M, N, 0, A, B, C, NULL, dB5, dC);
  for (int i = 0; i < NB * K * N; i++)
    CHECK_NEAR_AT (dB5[i], 0.0, 0, 0, i);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-file "blas-dump-c-1.gen.c" "cblas_dgemm \\(101, 111, 112, m, K, n, 1, " } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */

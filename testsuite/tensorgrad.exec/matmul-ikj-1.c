/* { dg-do run } */
/* Matrix-matrix product C = A B, A m x K, B K x n, C m x n (5 x 4, 4 x 3
   at run time), C zeroed in a separate nest, then loops i, k, j
   accumulating into C (an output: it reads only what it wrote):
   for (i < m) for (j < n) C[i*n+j] = 0;
   for (i < m) for (k < K) for (j < n) C[i*n+j] += A[i*K+k] * B[k*n+j].
   d_A[i*K+k] += sum_j d_C[i*n+j] B[k*n+j];
   d_B[k*n+j] += sum_i A[i*K+k] d_C[i*n+j].  TG_GRADCHECK checks every d_A
   and d_B against central differences, accumulation into pre-filled
   shadows, and that A, B, C, d_C are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mm_ikj (int m, int n, int K, const double *A, const double *B, double *C)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      C[i * n + j] = 0;
  for (int i = 0; i < m; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < n; j++)
	C[i * n + j] += A[i * K + k] * B[k * n + j];
}

int
main (void)
{
  int m = 5, n = 3, K = 4;
  double *A = tg_alloc (m * K), *B = tg_alloc (K * n), *C = tg_alloc (m * n);
  tg_fill (A, m * K, 1, -2, 2);
  tg_fill (B, K * n, 2, -2, 2);
  TG_GRADCHECK (mm_ikj, &m, &n, &K, A, B, C);
  return tg_exit ();
}

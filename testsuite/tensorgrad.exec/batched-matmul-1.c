/* { dg-do run } */
/* Batched matrix product, nb = 2 batches of C = A B with A m x K, B K x n
   (5 x 4, 4 x 3 at run time), flat-indexed, each batch its own A and B:
   for (b < nb) for (i < m) for (j < n) { double acc = 0;
   for (k < K) acc += A[(b*m+i)*K+k] * B[(b*K+k)*n+j];
   C[(b*m+i)*n+j] = acc; }.
   d_A[(b*m+i)*K+k] += sum_j d_C[(b*m+i)*n+j] B[(b*K+k)*n+j];
   d_B[(b*K+k)*n+j] += sum_i A[(b*m+i)*K+k] d_C[(b*m+i)*n+j] (no sum over
   b).  TG_GRADCHECK checks every d_A and d_B against central differences,
   accumulation into pre-filled shadows, and that A, B, C, d_C are
   untouched.  */

#include <math.h>
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

int
main (void)
{
  int nb = 2, m = 5, n = 3, K = 4;
  int na = nb * m * K, nbb = nb * K * n, nc = nb * m * n;
  double *A = tg_alloc (na), *B = tg_alloc (nbb), *C = tg_alloc (nc);
  tg_fill (A, na, 1, -2, 2);
  tg_fill (B, nbb, 2, -2, 2);
  TG_GRADCHECK (bmm, &nb, &m, &n, &K, A, B, C);
  return tg_exit ();
}

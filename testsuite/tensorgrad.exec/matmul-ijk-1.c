/* { dg-do run } */
/* Matrix-matrix product C = A B, A m x K, B K x n, C m x n (5 x 4, 4 x 3
   at run time), loops i, j, k with a scalar accumulator:
   for (i < m) for (j < n) { double acc = 0;
   for (k < K) acc += A[i*K+k] * B[k*n+j]; C[i*n+j] = acc; }.
   d_A[i*K+k] += sum_j d_C[i*n+j] B[k*n+j];
   d_B[k*n+j] += sum_i A[i*K+k] d_C[i*n+j].  Checks every d_A and d_B
   against central differences, accumulation into pre-filled shadows,
   and that A, B, C, d_C are untouched.  Kept with its own central
   differences, not tg_gradcheck's, so that the descriptor path is itself
   checked: a product of two inputs.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mm_ijk (int m, int n, int K, const double *A, const double *B, double *C)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double acc = 0;
	for (int k = 0; k < K; k++)
	  acc += A[i * K + k] * B[k * n + j];
	C[i * n + j] = acc;
      }
}

struct ctx
{
  int m, n, K;
  double *A, *B, *C, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  mm_ijk (t->m, t->n, t->K, t->A, t->B, t->C);
  return tg_dot (t->c, t->C, t->m * t->n);
}

int
main (void)
{
  int m = 5, n = 3, K = 4, na = m * K, nb = K * n, nc = m * n;
  double *A = tg_alloc (na), *B = tg_alloc (nb), *C = tg_alloc (nc);
  double *c = tg_alloc (nc), *d_A = tg_alloc (na), *d_B = tg_alloc (nb);
  tg_fill (A, na, 1, -2, 2);
  tg_fill (B, nb, 2, -2, 2);
  tg_fill (c, nc, 3, -1, 1);
  tg_fill (d_A, na, 4, -1, 1);
  tg_fill (d_B, nb, 5, -1, 1);

  mm_ijk (m, n, K, A, B, C);
  double *A0 = tg_dup (A, na), *B0 = tg_dup (B, nb), *C0 = tg_dup (C, nc);
  double *d_C = tg_dup (c, nc);
  double *pre_A = tg_dup (d_A, na), *pre_B = tg_dup (d_B, nb);

  mm_ijk_grad (m, n, K, A, B, C, d_A, d_B, d_C);

  CHECK_SAME (A, A0, na * sizeof *A);
  CHECK_SAME (B, B0, nb * sizeof *B);
  CHECK_SAME (C, C0, nc * sizeof *C);
  CHECK_SAME (d_C, c, nc * sizeof *d_C);
  double *g_A = tg_alloc (na), *g_B = tg_alloc (nb);
  tg_sub (g_A, d_A, pre_A, na);
  tg_sub (g_B, d_B, pre_B, nb);
  struct ctx t = { m, n, K, A, B, C, c };
  tg_fd_check ("A", A, na, loss, &t, g_A, TG_RTOL, TG_ATOL);
  tg_fd_check ("B", B, nb, loss, &t, g_B, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

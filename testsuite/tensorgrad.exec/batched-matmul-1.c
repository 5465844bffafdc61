/* { dg-do run } */
/* Batched matrix product, nb = 2 batches of C = A B with A m x K, B K x n
   (5 x 4, 4 x 3 at run time), flat-indexed, each batch its own A and B:
   for (b < nb) for (i < m) for (j < n) { double acc = 0;
   for (k < K) acc += A[(b*m+i)*K+k] * B[(b*K+k)*n+j];
   C[(b*m+i)*n+j] = acc; }.
   d_A[(b*m+i)*K+k] += sum_j d_C[(b*m+i)*n+j] B[(b*K+k)*n+j];
   d_B[(b*K+k)*n+j] += sum_i A[(b*m+i)*K+k] d_C[(b*m+i)*n+j] (no sum over
   b).  Checks every d_A and d_B against central differences,
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

struct ctx
{
  int nb, m, n, K;
  double *A, *B, *C, *c;
};

static double
loss (void *v)
{
  struct ctx *t = v;
  bmm (t->nb, t->m, t->n, t->K, t->A, t->B, t->C);
  return tg_dot (t->c, t->C, t->nb * t->m * t->n);
}

int
main (void)
{
  int nb = 2, m = 5, n = 3, K = 4;
  int na = nb * m * K, nbb = nb * K * n, nc = nb * m * n;
  double *A = tg_alloc (na), *B = tg_alloc (nbb), *C = tg_alloc (nc);
  double *c = tg_alloc (nc), *d_A = tg_alloc (na), *d_B = tg_alloc (nbb);
  tg_fill (A, na, 1, -2, 2);
  tg_fill (B, nbb, 2, -2, 2);
  tg_fill (c, nc, 3, -1, 1);
  tg_fill (d_A, na, 4, -1, 1);
  tg_fill (d_B, nbb, 5, -1, 1);

  bmm (nb, m, n, K, A, B, C);
  double *A0 = tg_dup (A, na), *B0 = tg_dup (B, nbb), *C0 = tg_dup (C, nc);
  double *d_C = tg_dup (c, nc);
  double *pre_A = tg_dup (d_A, na), *pre_B = tg_dup (d_B, nbb);

  bmm_grad (nb, m, n, K, A, B, C, d_A, d_B, d_C);

  CHECK_SAME (A, A0, na * sizeof *A);
  CHECK_SAME (B, B0, nbb * sizeof *B);
  CHECK_SAME (C, C0, nc * sizeof *C);
  CHECK_SAME (d_C, c, nc * sizeof *d_C);
  double *g_A = tg_alloc (na), *g_B = tg_alloc (nbb);
  tg_sub (g_A, d_A, pre_A, na);
  tg_sub (g_B, d_B, pre_B, nbb);
  struct ctx t = { nb, m, n, K, A, B, C, c };
  tg_fd_check ("A", A, na, loss, &t, g_A, TG_RTOL, TG_ATOL);
  tg_fd_check ("B", B, nbb, loss, &t, g_B, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

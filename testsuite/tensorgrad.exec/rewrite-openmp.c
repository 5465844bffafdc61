/* { dg-do run } */
/* { dg-options "-fopenmp" } */
/* How to rewrite (README): an OpenMP directive in a kernel.  The
   rewrite of tensorgrad.err/rewrite-openmp.c: the kernel is serial, and
   the caller runs it, and its gradient, on blocks of rows in a parallel
   loop (the blocks write disjoint rows of y and of d_x).  Checked: y
   equals the original's (compiled here as plain C, its directive
   obeyed), the gradient through the descriptor, and the blocked
   gradient equals the gradient of the whole.  */

#include "tg-test.h"

#define differentiable unused
#define rows_tanh rows_tanh_orig
#include "tensorgrad.err/rewrite-openmp.c"
#undef rows_tanh
#undef differentiable

__attribute__ ((differentiable))
void
rows_tanh (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = tanh (x[i * m + j]);
}

int
main (void)
{
  enum { N = 8, M = 3, BLOCK = 2 };
  int n = N, m = M;
  double *x = tg_alloc (N * M), *y = tg_alloc (N * M), *y0 = tg_alloc (N * M);
  double *d_x = tg_alloc (N * M), *d_x1 = tg_alloc (N * M);
  double *d_y = tg_alloc (N * M);
  tg_fill (x, N * M, 1, -2, 2);
  tg_fill (d_y, N * M, 2, -1, 1);
  rows_tanh_orig (N, M, x, y0);
#pragma omp parallel for
  for (int b = 0; b < N; b += BLOCK)
    rows_tanh (BLOCK, M, x + b * M, y + b * M);
  CHECK_SAME (y, y0, N * M * sizeof *y);
  TG_GRADCHECK (rows_tanh, &n, &m, x, y);
#pragma omp parallel for
  for (int b = 0; b < N; b += BLOCK)
    rows_tanh_grad (BLOCK, M, x + b * M, y + b * M, d_x + b * M,
                    d_y + b * M);
  rows_tanh_grad (N, M, x, y, d_x1, d_y);
  CHECK_SAME (d_x, d_x1, N * M * sizeof *d_x);
  return tg_exit ();
}

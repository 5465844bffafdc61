/* { dg-do run } */
/* Gradients with reductions, compiled with -g -fsanitize=address
   (asan.exp): they used to make final crash, the kernel's lexical blocks
   reaching the gradient's insns through the locations of ASan's checks.
   Row softmax (a max and a sum reduction per row, 5 x 4 at run time) and
   C = A B with a scalar accumulator (5 x 4 times 4 x 3).  Checks every
   component of d_x, d_A and d_B against central differences, with
   pre-filled shadows, that the inputs and d_y, d_C are untouched, and,
   everything being freed, that LeakSanitizer finds no leak (the
   gradient of softmax frees its temporaries).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax_rows (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
	mx = fmax (mx, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
	s += exp (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
	y[i * m + j] = exp (x[i * m + j] - mx) / s;
    }
}

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

struct sm_ctx
{
  int n, m;
  double *x, *y, *c;
};

static double
sm_loss (void *v)
{
  struct sm_ctx *t = v;
  softmax_rows (t->n, t->m, t->x, t->y);
  return tg_dot (t->c, t->y, t->n * t->m);
}

struct mm_ctx
{
  int m, n, K;
  double *A, *B, *C, *c;
};

static double
mm_loss (void *v)
{
  struct mm_ctx *t = v;
  mm_ijk (t->m, t->n, t->K, t->A, t->B, t->C);
  return tg_dot (t->c, t->C, t->m * t->n);
}

static void
check_softmax (void)
{
  int n = 5, m = 4, nx = n * m;
  double *x = tg_alloc (nx), *y = tg_alloc (nx), *c = tg_alloc (nx);
  double *d_x = tg_alloc (nx);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (c, nx, 2, -1, 1);
  tg_fill (d_x, nx, 3, -1, 1);

  softmax_rows (n, m, x, y);
  double *x0 = tg_dup (x, nx), *y0 = tg_dup (y, nx);
  double *d_y = tg_dup (c, nx), *pre_x = tg_dup (d_x, nx);

  softmax_rows_grad (n, m, x, y, d_x, d_y);

  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (y, y0, nx * sizeof *y);
  CHECK_SAME (d_y, c, nx * sizeof *d_y);
  double *g_x = tg_alloc (nx);
  tg_sub (g_x, d_x, pre_x, nx);
  struct sm_ctx t = { n, m, x, y, c };
  tg_fd_check ("x", x, nx, sm_loss, &t, g_x, TG_RTOL, TG_ATOL);
  free (x), free (y), free (c), free (d_x), free (x0), free (y0);
  free (d_y), free (pre_x), free (g_x);
}

static void
check_matmul (void)
{
  int m = 5, n = 3, K = 4, na = m * K, nb = K * n, nc = m * n;
  double *A = tg_alloc (na), *B = tg_alloc (nb), *C = tg_alloc (nc);
  double *c = tg_alloc (nc), *d_A = tg_alloc (na), *d_B = tg_alloc (nb);
  tg_fill (A, na, 4, -2, 2);
  tg_fill (B, nb, 5, -2, 2);
  tg_fill (c, nc, 6, -1, 1);
  tg_fill (d_A, na, 7, -1, 1);
  tg_fill (d_B, nb, 8, -1, 1);

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
  struct mm_ctx t = { m, n, K, A, B, C, c };
  tg_fd_check ("A", A, na, mm_loss, &t, g_A, TG_RTOL, TG_ATOL);
  tg_fd_check ("B", B, nb, mm_loss, &t, g_B, TG_RTOL, TG_ATOL);
  free (A), free (B), free (C), free (c), free (d_A), free (d_B);
  free (A0), free (B0), free (C0), free (d_C), free (pre_A), free (pre_B);
  free (g_A), free (g_B);
}

int
main (void)
{
  check_softmax ();
  check_matmul ();
  return tg_exit ();
}

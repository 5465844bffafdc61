/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A one-loop gradient of plain arithmetic runs in lanes of 8
   (lib/passes/lanes.c); under a forward loop on OpenMP threads its
   blocks of 8 run on threads and the last n % 8 elements after them
   (lib/passes/parallel.c, plugin/emit.cc parallel_nest).  Elementwise
   kernels as people write them: a weighted square (float, every shadow
   NULL-able), tanh scaled per element (double; the gradient reads the
   stored y), at sizes below one block, exactly blocks, and with a rest.
   No partial sums: the gradient at TG_THREADS threads has the bits of
   the one at one thread.  A scalar weight's adjoint sums along the loop
   in lanes: that nest stays serial, and the dump says why.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
weighted_square (int n, const float *x, const float *w, float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * w[i];
}

__attribute__ ((differentiable))
void
tanh_scale (long n, const double *a, const double *x, double *y)
{
#pragma omp parallel for schedule(static, 64)
  for (long i = 0; i < n; i++)
    y[i] = tanh (a[i] * x[i]);
}

__attribute__ ((differentiable))
void
axpy (int n, float alpha, const float *x, const float *b, float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i] + b[i];
}

/* weighted_square's gradient at one thread and at TG_THREADS: the same
   bits.  */
static void
check_threads (int n, const float *x, const float *w)
{
  float *y = tg_alloc_f (n + 1), *dy = tg_alloc_f (n + 1);
  float *dx[2], *dw[2];
  tg_fill_f (dy, n, 7, -1, 1);
  weighted_square (n, x, w, y);
  for (int r = 0; r < 2; r++)
    {
      omp_set_num_threads (r ? TG_THREADS : 1);
      dx[r] = tg_alloc_f (n + 1), dw[r] = tg_alloc_f (n + 1);
      tg_fill_f (dx[r], n, 8, -1, 1);
      tg_fill_f (dw[r], n, 9, -1, 1);
      weighted_square_grad (n, x, w, y, dx[r], dw[r], dy);
    }
  omp_set_num_threads (TG_THREADS);
  CHECK_SAME (dx[0], dx[1], n * sizeof (float));
  CHECK_SAME (dw[0], dw[1], n * sizeof (float));
  for (int r = 0; r < 2; r++)
    free (dx[r]), free (dw[r]);
  free (y), free (dy);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  static const int sizes[] = { 0, 5, 8, 64, 1003 };
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int n = sizes[s];
      long ln = n;
      float *x = tg_alloc_f (n + 1), *w = tg_alloc_f (n + 1);
      float *y = tg_alloc_f (n + 1), *b = tg_alloc_f (n + 1);
      double *a = tg_alloc (n + 1), *xd = tg_alloc (n + 1);
      double *yd = tg_alloc (n + 1);
      tg_fill_f (x, n, 1, -1, 1);
      tg_fill_f (w, n, 2, -1, 1);
      tg_fill_f (b, n, 3, -1, 1);
      tg_fill (a, n, 4, -2, 2);
      tg_fill (xd, n, 5, -1, 1);
      float alpha = 0.75f;
      TG_GRADCHECK (weighted_square, &n, x, w, y);
      TG_GRADCHECK_NULL (weighted_square, "x", &n, x, w, y);
      TG_GRADCHECK_NULL (weighted_square, "w", &n, x, w, y);
      TG_GRADCHECK (tanh_scale, &ln, a, xd, yd);
      TG_GRADCHECK_NULL (tanh_scale, "a", &ln, a, xd, yd);
      TG_GRADCHECK (axpy, &n, &alpha, x, b, y);
      check_threads (n, x, w);
      free (x), free (w), free (y), free (b), free (a), free (xd), free (yd);
    }
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over i of the nest writing d_x, d_w runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over i of the nest writing d_a, d_x runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the nest writing \[^\n\]*d_alpha\[^\n\]* stays serial: it sums along its one loop in lanes" 1 } } */

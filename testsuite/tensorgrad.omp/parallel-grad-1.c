/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The gradient of a kernel whose forward runs a loop on OpenMP threads
   runs on threads too (lib/passes/parallel.c), where it can.  A dense
   layer over rows in parallel (float, the bias NULL-able): its
   gradient's one nest over the rows runs on threads, each with a row of
   scratch of its own, the weight's and the bias's adjoints summed per
   thread and then in the order of the threads; two calls at the same
   number of threads give the same bits.  A scan along each row (a
   recurrence the gradient runs backwards) under a parallel loop over
   the rows stays serial, and the dump says why.  Every gradient
   component against central differences, at 1, 2 and 4 threads.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
dense_tanh (int n, int m, int k, const float *x, const float *w,
            const float *b, float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b ? b[j] : 0.0f;
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = tanhf (acc);
      }
}

__attribute__ ((differentiable))
void
row_scan (int n, int m, const double *x, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      y[i * m] = x[i * m];
      for (int j = 1; j < m; j++)
        y[i * m + j] = 0.5 * y[i * m + j - 1] + sin (x[i * m + j]);
    }
}

/* dense_tanh's gradient twice at TG_THREADS threads: the same bits.  */
static void
check_repeatable (int n, int m, int k, const float *x, const float *w,
                  const float *b)
{
  float *y = tg_alloc_f (n * m), *dy = tg_alloc_f (n * m);
  float *dx[2], *dw[2], *db[2];
  tg_fill_f (dy, n * m, 7, -1, 1);
  dense_tanh (n, m, k, x, w, b, y);
  for (int r = 0; r < 2; r++)
    {
      dx[r] = tg_alloc_f (n * k), dw[r] = tg_alloc_f (k * m);
      db[r] = tg_alloc_f (m);
      dense_tanh_grad (n, m, k, x, w, b, y, dx[r], dw[r], db[r], dy);
    }
  CHECK_SAME (dx[0], dx[1], n * k * sizeof (float));
  CHECK_SAME (dw[0], dw[1], k * m * sizeof (float));
  CHECK_SAME (db[0], db[1], m * sizeof (float));
  for (int r = 0; r < 2; r++)
    free (dx[r]), free (dw[r]), free (db[r]);
  free (y), free (dy);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int n = 37, m = 13, k = 9;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -1, 1);
  tg_fill_f (b, m, 3, -0.5, 0.5);
  TG_GRADCHECK (dense_tanh, &n, &m, &k, x, w, b, y);
  TG_GRADCHECK_NULL (dense_tanh, "w", &n, &m, &k, x, w, b, y);
  TG_GRADCHECK_NULL (dense_tanh, "x b", &n, &m, &k, x, w, b, y);
  TG_GRADCHECK (dense_tanh, &n, &m, &k, x, w, (float *) NULL, y);
  check_repeatable (n, m, k, x, w, b);

  int rn = 5, rm = 8;
  double *xs = tg_alloc (rn * rm), *ys = tg_alloc (rn * rm);
  tg_fill (xs, rn * rm, 4, -1, 1);
  TG_GRADCHECK (row_scan, &rn, &rm, xs, ys);
  free (x), free (w), free (b), free (y), free (xs), free (ys);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over i of the nest writing d1, d_b, d_x, d_w runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_b is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_w is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread has a d1 of its own there" 1 } } */
/* { dg-final { scan-tensorgrad-dump "parallel: the nest writing \[^\n\]* stays serial: it runs a recurrence" } } */

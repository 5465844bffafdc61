/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-parallel-min=1000 -Wl,--wrap=GOMP_parallel" } */
/* Without -fplugin-arg-tensorgrad-blas, a gradient that runs on OpenMP
   threads runs its matrix products as tiled products on them too
   (plugin/emit.cc, tiled_team): each thread a block of the result's
   columns, in every iteration of the batch loops.  The blocks are apart
   and an element's sum does not depend on the columns beside it, so the
   products are the same bits at 1 and at TG_THREADS threads (d_b, summed
   per thread by parallel.c, up to the order of the threads' sums).
     dense (float, rows in parallel): y = x w + b, d_x += d_y w^T,
       d_w += x^T d_y (tiled: 40 x 48 x 37), d_b over the rows;
     bmm (double, batches in parallel): C[b] = A[b] B[b]^T, one product
       per batch iteration (d_A[b] += d_C[b] B[b], d_B[b] += d_C[b]^T
       A[b]), 3 batches of 24 x 40 x 36.
   GOMP_parallel is wrapped to count the regions the gradients open and
   the teams they ask for (all of OpenMP's threads: the products are
   above parallel-min).  Every component against central differences;
   NULL shadows.  */

#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const float *x, const float *w, const float *b,
       float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = acc;
      }
}

__attribute__ ((differentiable))
void
bmm (int nb, int m, int n, int K, const double *A, const double *B,
     double *C)
{
#pragma omp parallel for
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        {
          double acc = 0;
          for (int k = 0; k < K; k++)
            acc += A[(b * m + i) * K + k] * B[(b * n + j) * K + k];
          C[(b * m + i) * n + j] = acc;
        }
}

void __real_GOMP_parallel (void (*) (void *), void *, unsigned, unsigned);

static int recording, nteams;
static unsigned teams[64];

void
__wrap_GOMP_parallel (void (*fn) (void *), void *data, unsigned nth,
                      unsigned flags)
{
  if (recording && nteams < 64)
    teams[nteams++] = nth;
  __real_GOMP_parallel (fn, data, nth, flags);
}

static void
check_teams (int least)
{
  CHECK (nteams >= least);
  for (int t = 0; t < nteams; t++)
    CHECK_AT (teams[t] == TG_THREADS, t);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int n = 40, k = 48, m = 37;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m), *gy = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -1, 1);
  tg_fill_f (b, m, 3, -1, 1);
  tg_fill_f (gy, n * m, 4, -1, 1);
  TG_GRADCHECK (dense, &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "x", &n, &k, &m, x, w, b, y);

  /* One thread and TG_THREADS: the same bits.  */
  float *dx1 = tg_alloc_f (n * k), *dw1 = tg_alloc_f (k * m);
  float *db1 = tg_alloc_f (m), *dxn = tg_alloc_f (n * k);
  float *dwn = tg_alloc_f (k * m), *dbn = tg_alloc_f (m);
  dense (n, k, m, x, w, b, y);
  omp_set_num_threads (1);
  dense_grad (n, k, m, x, w, b, y, dx1, dw1, db1, gy);
  omp_set_num_threads (TG_THREADS);
  recording = 1;
  dense_grad (n, k, m, x, w, b, y, dxn, dwn, dbn, gy);
  recording = 0;
  check_teams (3);
  CHECK_SAME (dxn, dx1, n * k * sizeof (float));
  CHECK_SAME (dwn, dw1, k * m * sizeof (float));
  /* d_b sums over the rows per thread (parallel.c's partials): the
     same up to the order of the threads' sums.  */
  for (int j = 0; j < m; j++)
    CHECK_NEAR_AT (dbn[j], db1[j], 1e-5, 1e-6, j);

  int nb = 3, bm = 24, bn = 40, bk = 36;
  double *A = tg_alloc (nb * bm * bk), *B = tg_alloc (nb * bn * bk);
  double *C = tg_alloc (nb * bm * bn), *gc = tg_alloc (nb * bm * bn);
  tg_fill (A, nb * bm * bk, 5, -1, 1);
  tg_fill (B, nb * bn * bk, 6, -1, 1);
  tg_fill (gc, nb * bm * bn, 7, -1, 1);
  TG_GRADCHECK (bmm, &nb, &bm, &bn, &bk, A, B, C);
  TG_GRADCHECK_NULL (bmm, "A", &nb, &bm, &bn, &bk, A, B, C);
  double *dA1 = tg_alloc (nb * bm * bk), *dB1 = tg_alloc (nb * bn * bk);
  double *dAn = tg_alloc (nb * bm * bk), *dBn = tg_alloc (nb * bn * bk);
  bmm (nb, bm, bn, bk, A, B, C);
  omp_set_num_threads (1);
  bmm_grad (nb, bm, bn, bk, A, B, C, dA1, dB1, gc);
  omp_set_num_threads (TG_THREADS);
  nteams = 0;
  recording = 1;
  bmm_grad (nb, bm, bn, bk, A, B, C, dAn, dBn, gc);
  recording = 0;
  check_teams (2);
  CHECK_SAME (dAn, dA1, nb * bm * bk * sizeof (double));
  CHECK_SAME (dBn, dB1, nb * bn * bk * sizeof (double));
  free (x), free (w), free (b), free (y), free (gy), free (dx1), free (dw1);
  free (db1), free (dxn), free (dwn), free (dbn), free (A), free (B);
  free (C), free (gc), free (dA1), free (dB1), free (dAn), free (dBn);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "\n  parallel: the tiled product writing d_x runs on OpenMP threads, each on a block of its columns\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  parallel: the tiled product writing d_w runs on OpenMP threads, each on a block of its columns\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  parallel: the tiled product writing d_A runs on OpenMP threads, each on a block of its columns\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "\n  parallel: the tiled product writing d_B runs on OpenMP threads, each on a block of its columns\n" 1 } } */

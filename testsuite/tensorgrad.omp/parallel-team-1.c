/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */
/* no-tiled: the products stay loops, the partials of whose sums this
   tests (without it they are tiled products on the threads,
   parallel-tiled-1.c).  */
/* A gradient with partials called where its region gets fewer threads
   than omp_get_max_threads () says: from inside a parallel region, with
   one active level, each call's region has a team of one.  Each thread
   zeroes only its own block of a partial (plugin/emit.cc,
   parallel_nest), so the sum must run over the team the region has,
   not over the threads asked for: the blocks of threads that do not
   exist hold whatever the heap held (it is dirtied first).

   dense (float): y[i][j] = tanh (b[j] + sum_p x[i][p] w[p][j]);
     d_w[p][j] += sum_i x[i][p] g[i][j], d_b[j] += sum_i g[i][j],
     d_x[i][p] += sum_j w[p][j] g[i][j], g = d_y (1 - y^2),
   d_w and d_b summed per thread.  Each of TG_THREADS threads of an
   outer region computes the gradient of its own batch; each result is
   the same bits as the same batch's gradient on one thread, and the
   gradient against central differences there.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
dense (int n, int m, int k, const float *x, const float *w, const float *b,
       float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = tanhf (acc);
      }
}

/* Blocks of the heap, 2 KB to 16 KB, filled with 1000 and freed, with
   a block after them kept until the gradient returns (*FENCE), so that
   they are not given back to the system (which would zero them).  The
   asm keeps GCC from dropping the stores to memory about to be freed.  */
static void
dirty_heap (void **fence)
{
  void *blocks[8];
  for (int i = 0; i < 8; i++)
    {
      size_t bytes = (size_t) 2048 << (i % 4);
      float *f = malloc (bytes);
      if (!f)
        abort ();
      for (size_t e = 0; e < bytes / sizeof *f; e++)
        f[e] = 1000.0f;
      __asm__ volatile ("" : : "r"(f) : "memory");
      blocks[i] = f;
    }
  *fence = malloc (64);
  for (int i = 0; i < 8; i++)
    free (blocks[i]);
}

enum { N = 19, M = 13, K = 9, NB = 4 };

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  omp_set_max_active_levels (1);
  float *x = tg_alloc_f (NB * N * K), *w = tg_alloc_f (K * M);
  float *b = tg_alloc_f (M), *y = tg_alloc_f (NB * N * M);
  float *dy = tg_alloc_f (NB * N * M);
  float *dw[2][NB], *db[2][NB], *dx[2][NB];
  tg_fill_f (x, NB * N * K, 1, -1, 1);
  tg_fill_f (w, K * M, 2, -1, 1);
  tg_fill_f (b, M, 3, -0.5, 0.5);
  tg_fill_f (dy, NB * N * M, 4, -1, 1);
  for (int r = 0; r < 2; r++)
    for (int s = 0; s < NB; s++)
      {
        dw[r][s] = tg_alloc_f (K * M), db[r][s] = tg_alloc_f (M);
        dx[r][s] = tg_alloc_f (N * K);
      }
  int n = N, m = M, k = K;
  for (int s = 0; s < NB; s++)
    dense (n, m, k, x + s * N * K, w, b, y + s * N * M);

  /* Each batch on one thread, outside any region.  */
  omp_set_num_threads (1);
  for (int s = 0; s < NB; s++)
    dense_grad (n, m, k, x + s * N * K, w, b, y + s * N * M, dx[0][s],
                dw[0][s], db[0][s], dy + s * N * M);
  /* Each batch by a thread of an outer region, where a region of its own
     has one thread however many omp_get_max_threads () gives.  */
  omp_set_num_threads (TG_THREADS);
  int asked = 0;
#pragma omp parallel for schedule(static, 1) reduction(max : asked)
  for (int s = 0; s < NB; s++)
    {
      asked = omp_get_max_threads ();
      void *fence;
      dirty_heap (&fence);
      dense_grad (n, m, k, x + s * N * K, w, b, y + s * N * M, dx[1][s],
                  dw[1][s], db[1][s], dy + s * N * M);
      free (fence);
    }
  CHECK (asked == TG_THREADS);
  for (int s = 0; s < NB; s++)
    {
      CHECK_SAME (dw[0][s], dw[1][s], K * M * sizeof (float));
      CHECK_SAME (db[0][s], db[1][s], M * sizeof (float));
      CHECK_SAME (dx[0][s], dx[1][s], N * K * sizeof (float));
    }
  TG_GRADCHECK (dense, &n, &m, &k, x, w, b, y);
  for (int r = 0; r < 2; r++)
    for (int s = 0; s < NB; s++)
      free (dw[r][s]), free (db[r][s]), free (dx[r][s]);
  free (x), free (w), free (b), free (y), free (dy);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: d_w is summed per thread there, then in the order of the threads" 1 } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */
/* no-tiled: the products stay loops, the partials of whose sums this
   tests (without it they are tiled products on the threads,
   parallel-tiled-1.c).  */
/* The gradient of a kernel whose forward runs a loop on OpenMP threads
   runs on threads too (lib/passes/parallel.c), where it can.  A dense
   layer over rows in parallel (float, the bias NULL-able): its
   gradient's one nest over the rows runs on threads, each with a row of
   scratch of its own, the weight's and the bias's adjoints summed per
   thread and then in the order of the threads; two calls at the same
   number of threads give the same bits.  A scan along each row (a
   recurrence the gradient runs backwards) under a parallel loop over
   the rows stays serial, and the dump says why.  Causal attention over
   (b, t) pairs: its gradient's nest over the samples, each thread with
   its own causal row of scratch, adding to d_qkv where no other sample
   does.  Every gradient
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

/* Causal attention as llm.c writes it, its (b, t) pairs under the
   pragma: the gradient's nest over the samples runs on threads, each
   with its own causal row of scratch (set over the whole row, used up to
   t: inside it wherever the nest runs), d_qkv added to directly: each
   sample's rows of it are its own, its heads C / NH * h + i below C.  */
__attribute__ ((differentiable))
void
attention (int B, int T, int C, int NH, const float *qkv, float *preatt,
           float *att, float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *q = qkv + (b * T + t) * 3 * C + h * hs;
          float *srow = preatt + ((b * NH + h) * T + t) * T;
          float *prow = att + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            {
              const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
              float sc = 0.0f;
              for (int i = 0; i < hs; i++)
                sc += q[i] * k[i];
              sc *= scale;
              srow[u] = sc;
              if (sc > mx)
                mx = sc;
            }
          float z = 0.0f;
          for (int u = 0; u <= t; u++)
            {
              float e = expf (srow[u] - mx);
              z += e;
              prow[u] = e;
            }
          for (int u = 0; u < T; u++)
            prow[u] = u <= t ? prow[u] / z : 0.0f;
          float *o = out + (b * T + t) * C + h * hs;
          for (int i = 0; i < hs; i++)
            o[i] = 0.0f;
          for (int u = 0; u <= t; u++)
            {
              const float *v = qkv + (b * T + u) * 3 * C + 2 * C + h * hs;
              for (int i = 0; i < hs; i++)
                o[i] += prow[u] * v[i];
            }
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

  int B = 3, T = 4, C = 6, NH = 2;
  float *qkv = tg_alloc_f (B * T * 3 * C), *pre = tg_alloc_f (B * NH * T * T);
  float *att = tg_alloc_f (B * NH * T * T), *out = tg_alloc_f (B * T * C);
  tg_fill_f (qkv, B * T * 3 * C, 5, -1, 1);
  TG_GRADCHECK (attention, &B, &T, &C, &NH, qkv, pre, att, out);
  TG_GRADCHECK_NULL (attention, "preatt att", &B, &T, &C, &NH, qkv, pre, att,
                     out);
  free (qkv), free (pre), free (att), free (out);

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
/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread has a d1 of its own there" 2 } } */
/* { dg-final { scan-tensorgrad-dump "parallel: the nest writing \[^\n\]* stays serial: it runs a recurrence" } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the loop over b of the nest writing d5, d1, e_att, d_z, d_qkv, d3 runs on OpenMP threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread has a d5 of its own there" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: the iterations there add to elements of d_qkv apart" 1 } } */

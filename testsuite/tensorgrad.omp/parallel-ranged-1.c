/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */
/* no-tiled: the products stay loops, the partials of whose sums this
   tests (without it they are tiled products on the threads,
   parallel-tiled-1.c).  */
/* A partial whose elements move with the loop on threads holds, in each
   thread, only the elements its own iterations reach
   (lib/passes/parallel.c step 2c, thread_range; plugin/emit.cc,
   ranged_block): the threads take runs of the loop in order, and the
   sum adds, for each element, the partials of the threads whose runs
   reach it, in thread order.

   conv1d (float): y[s][o][l] = b[o] + sum_{c, k} w[o][c][k]
     x[s][c][l + k - 1] (zero padding of one), over samples s on threads:
     d_x[s][c][l + k - 1] += w[o][c][k] d_y[s][o][l] reaches one element
     into the neighbouring samples' rows where the padding's test skips
     it, so d_x is summed per thread, each thread's partial its samples'
     rows and one element on each side.
   windows (double): y[i] = sum_{j < m} sin (x[i*k + j]) with k < m: the
     windows of neighbouring rows overlap, d_x[i*k + j] += d_y[i]
     cos (x[i*k + j]).
   pairs (float, one loop in lanes of 8, its blocks on threads):
     y[i] = x[i] * x[i + 1], d_x[i] += d_y[i] x[i + 1],
     d_x[i + 1] += d_y[i] x[i].
   Every component against central differences at 1, 2 and 4 threads,
   with sizes that do not divide among the threads; two calls on the
   same number of threads give the same bits.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
conv1d (int S, int C, int O, int L, const float *x, const float *w,
        const float *b, float *y)
{
#pragma omp parallel for
  for (int s = 0; s < S; s++)
    for (int o = 0; o < O; o++)
      for (int l = 0; l < L; l++)
        {
          float acc = b[o];
          for (int c = 0; c < C; c++)
            for (int k = 0; k < 3; k++)
              if (l + k - 1 >= 0 && l + k - 1 < L)
                acc += w[(o * C + c) * 3 + k] * x[(s * C + c) * L + l + k - 1];
          y[(s * O + o) * L + l] = acc;
        }
}

__attribute__ ((differentiable))
void
windows (int n, int m, int k, const double *x, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      double s = 0.0;
      for (int j = 0; j < m; j++)
        s += sin (x[i * k + j]);
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
pairs (int n, const float *x, float *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i + 1];
}

/* conv1d's gradient twice at TG_THREADS threads: the same bits.  */
static void
check_repeatable (int S, int C, int O, int L, const float *x, const float *w,
                  const float *b)
{
  float *y = tg_alloc_f (S * O * L), *dy = tg_alloc_f (S * O * L);
  float *dx[2], *dw[2], *db[2];
  tg_fill_f (dy, S * O * L, 7, -1, 1);
  conv1d (S, C, O, L, x, w, b, y);
  for (int r = 0; r < 2; r++)
    {
      dx[r] = tg_alloc_f (S * C * L), dw[r] = tg_alloc_f (O * C * 3);
      db[r] = tg_alloc_f (O);
      conv1d_grad (S, C, O, L, x, w, b, y, dx[r], dw[r], db[r], dy);
    }
  CHECK_SAME (dx[0], dx[1], S * C * L * sizeof (float));
  CHECK_SAME (dw[0], dw[1], O * C * 3 * sizeof (float));
  CHECK_SAME (db[0], db[1], O * sizeof (float));
  for (int r = 0; r < 2; r++)
    free (dx[r]), free (dw[r]), free (db[r]);
  free (y), free (dy);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int S = 7, C = 2, O = 3, L = 5;
  float *x = tg_alloc_f (S * C * L), *w = tg_alloc_f (O * C * 3);
  float *b = tg_alloc_f (O), *y = tg_alloc_f (S * O * L);
  tg_fill_f (x, S * C * L, 1, -1, 1);
  tg_fill_f (w, O * C * 3, 2, -1, 1);
  tg_fill_f (b, O, 3, -0.5, 0.5);
  TG_GRADCHECK (conv1d, &S, &C, &O, &L, x, w, b, y);
  TG_GRADCHECK_NULL (conv1d, "w b", &S, &C, &O, &L, x, w, b, y);
  check_repeatable (S, C, O, L, x, w, b);
  /* One sample: the other threads' runs are empty.  */
  int S1 = 1;
  TG_GRADCHECK (conv1d, &S1, &C, &O, &L, x, w, b, y);

  int n = 11, m = 5, k = 3;
  double *wx = tg_alloc ((n - 1) * k + m), *wy = tg_alloc (n);
  tg_fill (wx, (n - 1) * k + m, 4, -1, 1);
  TG_GRADCHECK (windows, &n, &m, &k, wx, wy);

  int pn = 37;
  float *px = tg_alloc_f (pn + 1), *py = tg_alloc_f (pn);
  tg_fill_f (px, pn + 1, 5, -1, 1);
  TG_GRADCHECK (pairs, &pn, px, py);
  free (x), free (w), free (b), free (y), free (wx), free (wy);
  free (px), free (py);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: each thread's partial of d_x holds the elements its iterations reach" 3 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_w is summed per thread there, then in the order of the threads" 1 } } */
/* { dg-final { scan-tensorgrad-dump-not "parallel: each thread's partial of d_w" } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* An array every iteration of the gradient's loop on threads adds to,
   at elements no other iteration reaches, needs no partials
   (lib/passes/parallel.c step 2c'), also when only the truncation of a
   quotient of sizes keeps the iterations apart: the heads of a row
   x[i*C + h*hs + j] with hs = C / NH, h < NH, j < hs stay below the
   next row's, C / NH * NH <= C.  The gradient is then the serial one,
   bit for bit, at any number of threads.

   head_norms (float): y[i][h] = sqrt (1 + sum_j x[i][h*hs + j]^2), so
     d_x[i*C + h*hs + j] += d_y[i][h] * x[i*C + h*hs + j] / y[i][h],
   with C = 10, NH = 3: the last element of each row is no head's.
   head_window (double): y[i][h] = sum_{j <= hs} sin (x[i*C + h*hs + j]),
   one element past each head, which for the last head is the next row's
   first when NH divides C (C = 9, NH = 3): its d_x stays summed per
   thread.  rev_rows (double): y[i] = sum_j x[n-1-i][j]^2, rows taken
   from the end, d_x[(n-1-i)*m + j] += 2 d_y[i] x[(n-1-i)*m + j]: each
   later iteration's row lies below, apart too.  Both against central differences at 1, 2 and 4 threads (the
   NULL shadow too); head_norms's gradient on TG_THREADS threads is the
   same bits as on one.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
head_norms (int n, int C, int NH, const float *x, float *y)
{
  int hs = C / NH;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int h = 0; h < NH; h++)
      {
        const float *r = x + i * C + h * hs;
        float s = 1.0f;
        for (int j = 0; j < hs; j++)
          s += r[j] * r[j];
        y[i * NH + h] = sqrtf (s);
      }
}

__attribute__ ((differentiable))
void
head_window (int n, int C, int NH, const double *x, double *y)
{
  int hs = C / NH;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int h = 0; h < NH; h++)
      {
        double s = 0.0;
        for (int j = 0; j <= hs; j++)
          s += sin (x[i * C + h * hs + j]);
        y[i * NH + h] = s;
      }
}

__attribute__ ((differentiable))
void
rev_rows (int n, int m, const double *x, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      double s = 0.0;
      for (int j = 0; j < m; j++)
        s += x[(n - 1 - i) * m + j] * x[(n - 1 - i) * m + j];
      y[i] = s;
    }
}

/* head_norms's gradient on TG_THREADS threads and on one: the same
   bits.  */
static void
check_serial_bits (int n, int C, int NH, const float *x)
{
  float *y = tg_alloc_f (n * NH), *dy = tg_alloc_f (n * NH);
  float *dx[2];
  tg_fill_f (dy, n * NH, 9, -1, 1);
  head_norms (n, C, NH, x, y);
  for (int r = 0; r < 2; r++)
    {
      omp_set_num_threads (r ? TG_THREADS : 1);
      dx[r] = tg_alloc_f (n * C);
      tg_fill_f (dx[r], n * C, 10, -1, 1);
      head_norms_grad (n, C, NH, x, y, dx[r], dy);
    }
  CHECK_SAME (dx[0], dx[1], n * C * sizeof (float));
  omp_set_num_threads (TG_THREADS);
  free (dx[0]), free (dx[1]), free (y), free (dy);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int n = 23, C = 10, NH = 3;
  float *x = tg_alloc_f (n * C), *y = tg_alloc_f (n * NH);
  tg_fill_f (x, n * C, 1, -1, 1);
  TG_GRADCHECK (head_norms, &n, &C, &NH, x, y);
  TG_GRADCHECK_NULL (head_norms, "x", &n, &C, &NH, x, y);
  check_serial_bits (n, C, NH, x);
  /* A row longer than the heads need, and one they fill.  */
  int C2 = 12, NH2 = 4;
  float *x2 = tg_alloc_f (n * C2), *y2 = tg_alloc_f (n * NH2);
  tg_fill_f (x2, n * C2, 2, -1, 1);
  TG_GRADCHECK (head_norms, &n, &C2, &NH2, x2, y2);
  check_serial_bits (n, C2, NH2, x2);

  int wn = 17, wC = 9, wNH = 3;
  double *wx = tg_alloc (wn * wC + 1), *wy = tg_alloc (wn * wNH);
  tg_fill (wx, wn * wC + 1, 3, -1, 1);
  TG_GRADCHECK (head_window, &wn, &wC, &wNH, wx, wy);
  int rn = 13, rm = 7;
  double *rx = tg_alloc (rn * rm), *ry = tg_alloc (rn);
  tg_fill (rx, rn * rm, 4, -1, 1);
  TG_GRADCHECK (rev_rows, &rn, &rm, rx, ry);
  TG_GRADCHECK_NULL (rev_rows, "x", &rn, &rm, rx, ry);
  free (x), free (y), free (x2), free (y2), free (wx), free (wy);
  free (rx), free (ry);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: the iterations there add to elements of d_x apart" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "parallel: d_x is summed per thread there, then in the order of the threads" 1 } } */

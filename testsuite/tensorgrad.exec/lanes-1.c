/* { dg-do run } */
/* Innermost loops in lanes of 8 (lib/passes/lanes.c): the gradient's
   loop runs in blocks of 8 iterations and a rest, and a sum into one
   element keeps 8 partial sums.  Every size below leaves a rest, some
   have no whole block (3, 7), one is whole blocks only (24); each
   gradient is checked against central differences, also with NULL
   shadows, which put a test inside the laned loop.
   dense: a layer through row pointers, y = x w + b, whose d_x sums in
   lanes of j and d_w steps along j (an axpy);
   dense_f: the same in float with a mask on the outputs (dropout's),
   whose test is in the lanes;
   softmax_f: sum_k y[k] d_y[k], a reduction, sums in lanes;
   normalize, dot: the gradient computes the forward's sum again, a
   reduction that sums in lanes (dot's in float);
   fixed: a loop of constant extent 4 stays as it is, one of 24 runs in
   lanes.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const double *x, const double *w,
       const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *xi = x + i * k;
      double *yi = y + i * m;
      for (int j = 0; j < m; j++)
        yi[j] = b[j];
      for (int p = 0; p < k; p++)
        for (int j = 0; j < m; j++)
          yi[j] += xi[p] * w[p * m + j];
    }
}

__attribute__ ((differentiable))
void
dense_f (int n, int k, int m, const float *x, const float *w,
         const float *b, const unsigned char *keep, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        float a = b[j];
        for (int p = 0; p < k; p++)
          a += x[i * k + p] * w[p * m + j];
        y[i * m + j] = keep[i * m + j] ? 2.0f * a : 0.0f;
      }
}

__attribute__ ((differentiable))
void
softmax_f (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *row = x + i * m;
      float mx = row[0];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, row[j]);
      float s = 0;
      for (int j = 0; j < m; j++)
        s += expf (row[j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (row[j] - mx) / s;
    }
}

__attribute__ ((differentiable))
void
normalize (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * x[i * m + j];
      for (int j = 0; j < m; j++)
        y[i * m + j] = x[i * m + j] / s;
    }
}

__attribute__ ((differentiable))
double
dot (int n, const float *x, const float *w)
{
  float s = 0;
  for (int j = 0; j < n; j++)
    s += x[j] * w[j];
  return s * s;
}

__attribute__ ((differentiable))
void
fixed (int n, const double *x, const double *a, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < 4; j++)
        s += a[j] * x[i * 4 + j];
      for (int j = 0; j < 24; j++)
        y[i * 24 + j] = s * a[4 + j];
    }
}

static void
check_dense (int n, int k, int m)
{
  double *x = tg_alloc (n * k), *w = tg_alloc (k * m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * k, 1, -1, 1);
  tg_fill (w, k * m, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  TG_GRADCHECK (dense, &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "w", &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "x b", &n, &k, &m, x, w, b, y);
}

static void
check_dense_f (int n, int k, int m)
{
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m);
  unsigned char *keep = malloc (n * m);
  for (int i = 0; i < n * m; i++)
    keep[i] = i % 3 != 1;
  tg_fill_f (x, n * k, 4, -1, 1);
  tg_fill_f (w, k * m, 5, -1, 1);
  tg_fill_f (b, m, 6, -0.5, 1);
  TG_GRADCHECK (dense_f, &n, &k, &m, x, w, b, keep, y);
  TG_GRADCHECK_NULL (dense_f, "x", &n, &k, &m, x, w, b, keep, y);
}

static void
check_softmax_f (int n, int m)
{
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 7, -2, 2);
  TG_GRADCHECK (softmax_f, &n, &m, x, y);
}

int
main (void)
{
  check_dense (3, 19, 21);
  check_dense (2, 7, 3);
  check_dense (4, 24, 24);
  check_dense_f (3, 17, 13);
  check_dense_f (2, 3, 7);
  check_softmax_f (3, 37);
  check_softmax_f (2, 5);

  for (int m = 3; m <= 25; m += 11)
    {
      int rows = 2;
      double *x = tg_alloc (rows * m), *y = tg_alloc (rows * m);
      tg_fill (x, rows * m, 10, 0.5, 1.5);
      TG_GRADCHECK (normalize, &rows, &m, x, y);
      float *xf = tg_alloc_f (m), *wf = tg_alloc_f (m);
      tg_fill_f (xf, m, 11, -1, 1);
      tg_fill_f (wf, m, 12, -1, 1);
      TG_GRADCHECK (dot, &m, xf, wf);
      TG_GRADCHECK_NULL (dot, "w", &m, xf, wf);
    }

  int n = 3;
  double *x = tg_alloc (n * 4), *a = tg_alloc (28), *y = tg_alloc (n * 24);
  tg_fill (x, n * 4, 8, -1, 1);
  tg_fill (a, 28, 9, -1, 1);
  TG_GRADCHECK (fixed, &n, x, a, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lanes: d_x sums in 8 lanes of loop j" } } */
/* { dg-final { scan-tensorgrad-dump "lanes: d_s sums in 8 lanes of loop j" } } */
/* { dg-final { scan-tensorgrad-dump-times "lanes: \[0-9\]+ loop\\(s\\) run in lanes of 8, 1 reduction\\(s\\) sum in lanes" 2 } } */

/* { dg-do run } */
/* Kernels whose loops carry OpenMP directives, as C that trains at
   speed writes them: a dense layer's rows in parallel (float, the bias
   NULL-able), a matrix product over collapse(2) with schedule(static)
   and a private inner counter declared outside, a loss with
   reduction(+:), a parallel region holding two worksharing loops (a row
   normalization's statistics, then the rows), a simd loop with a
   reduction, a convolution whose weight every iteration shares (checked
   by hand), and rows through a VLA parameter.
   The kernel means what its serial loops mean: every gradient component
   is checked against central differences (the forward runs on
   TG_THREADS threads, as GCC compiled it), with NULL shadows, and the
   gradients at one thread and at TG_THREADS against each other.  */

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
        float acc = b != NULL ? b[j] : 0.0f;
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = tanhf (acc);
      }
}

__attribute__ ((differentiable))
void
matmul (int n, int m, int k, const double *a, const double *bm, double *c)
{
  int p;
#pragma omp parallel for collapse(2) schedule(static) private(p)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double s = 0;
        for (p = 0; p < k; p++)
          s += a[i * k + p] * bm[p * m + j];
        c[i * m + j] = s;
      }
}

__attribute__ ((differentiable))
double
mse (int n, const double *pred, const double *target)
{
  double s = 0;
#pragma omp parallel for reduction(+:s) schedule(dynamic, 4)
  for (int i = 0; i < n; i++)
    {
      double d = pred[i] - target[i];
      s += d * d;
    }
  return s / n;
}

__attribute__ ((differentiable))
void
rownorm (int n, int m, const double *x, double *mean, double *y)
{
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      {
        double s = 0;
        for (int j = 0; j < m; j++)
          s += x[i * m + j];
        mean[i] = s / m;
      }
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        y[i * m + j] = exp (x[i * m + j] - mean[i]);
  }
}

__attribute__ ((differentiable))
float
dot_simd (int n, const float *x, const float *y)
{
  float acc = 0.0f;
#pragma omp simd reduction(+:acc)
  for (int i = 0; i < n; i++)
    acc += x[i] * y[i];
  return acc * acc;
}

__attribute__ ((differentiable))
void
conv1d (int B, int C, int L, int K, const double *x, const double *w,
        double *y)
{
  int Lo = L - K + 1;
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++)
    for (int c = 0; c < C; c++)
      for (int l = 0; l < Lo; l++)
        {
          double s = 0;
          for (int q = 0; q < K; q++)
            s += w[c * K + q] * x[b * L + l + q];
          y[(b * C + c) * Lo + l] = s;
        }
}

/* Rows through a VLA parameter: the serial twin's copy of x has a type
   of its own (the kernel's sizes stay the kernel's).  */
__attribute__ ((differentiable))
void
rows_vla (int n, int m, const double x[n][m], const double w[m], double y[n])
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    {
      double s = 0.0;
      for (int j = 0; j < m; j++)
        s += x[i][j] * w[j];
      y[i] = tanh (s);
    }
}

/* conv1d checked by hand, for the loss sum g .* y: its gradient also with
   d_x NULL, against the same d_w bit for bit.  */
struct cctx { int B, C, L, K; double *x, *w; const double *g; };

static double
closs (void *v)
{
  struct cctx *k = v;
  int ny = k->B * k->C * (k->L - k->K + 1);
  double y[ny];
  conv1d (k->B, k->C, k->L, k->K, k->x, k->w, y);
  return tg_dot (k->g, y, ny);
}

static void
check_conv1d (void)
{
  int B = 3, C = 2, L = 9, K = 3, ny = B * C * (L - K + 1);
  double *x = tg_alloc (B * L), *w = tg_alloc (C * K), *y = tg_alloc (ny);
  double *g = tg_alloc (ny), *dx = tg_alloc (B * L), *dw = tg_alloc (C * K);
  tg_fill (x, B * L, 12, -1, 1);
  tg_fill (w, C * K, 13, -1, 1);
  tg_fill (g, ny, 14, -1, 1);
  conv1d (B, C, L, K, x, w, y);
  double *gy = tg_dup (g, ny);
  conv1d_grad (B, C, L, K, x, w, y, dx, dw, gy);
  CHECK_SAME (gy, g, ny * sizeof (double));
  struct cctx k = { B, C, L, K, x, w, g };
  tg_fd_check ("x", x, B * L, closs, &k, dx, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, C * K, closs, &k, dw, TG_RTOL, TG_ATOL);
  /* d_x NULL: d_w alone, the same.  */
  double *dw2 = tg_alloc (C * K);
  conv1d_grad (B, C, L, K, x, w, y, NULL, dw2, gy);
  CHECK_SAME (dw2, dw, C * K * sizeof (double));
  free (x), free (w), free (y), free (g), free (dx), free (dw), free (dw2);
  free (gy);
}

/* The gradient of matmul for the loss sum c .* g at one thread and at
   TG_THREADS: the same.  */
static void
check_threads (int n, int m, int k, const double *a, const double *bm)
{
  double *c = tg_alloc (n * m), *g = tg_alloc (n * m);
  double *da1 = tg_alloc (n * k), *db1 = tg_alloc (k * m);
  double *dan = tg_alloc (n * k), *dbn = tg_alloc (k * m);
  tg_fill (g, n * m, 9, -1, 1);
  matmul (n, m, k, a, bm, c);
  omp_set_num_threads (1);
  matmul_grad (n, m, k, a, bm, c, da1, db1, g);
  omp_set_num_threads (TG_THREADS);
  matmul_grad (n, m, k, a, bm, c, dan, dbn, g);
  for (int i = 0; i < n * k; i++)
    CHECK_NEAR_AT (da1[i], dan[i], 1e-12, 1e-14, i);
  for (int i = 0; i < k * m; i++)
    CHECK_NEAR_AT (db1[i], dbn[i], 1e-12, 1e-14, i);
  free (c), free (g), free (da1), free (db1), free (dan), free (dbn);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  int n = 7, m = 5, k = 3;
  float *x = tg_alloc_f (n * k), *w = tg_alloc_f (k * m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * k, 1, -1, 1);
  tg_fill_f (w, k * m, 2, -1, 1);
  tg_fill_f (b, m, 3, -0.5, 0.5);
  TG_GRADCHECK (dense_tanh, &n, &m, &k, x, w, b, y);
  TG_GRADCHECK_NULL (dense_tanh, "w", &n, &m, &k, x, w, b, y);
  TG_GRADCHECK (dense_tanh, &n, &m, &k, x, w, (float *) NULL, y);

  double *a = tg_alloc (n * k), *bm = tg_alloc (k * m), *c = tg_alloc (n * m);
  tg_fill (a, n * k, 4, -1, 1);
  tg_fill (bm, k * m, 5, -1, 1);
  TG_GRADCHECK (matmul, &n, &m, &k, a, bm, c);
  TG_GRADCHECK_NULL (matmul, "a", &n, &m, &k, a, bm, c);
  check_threads (n, m, k, a, bm);

  int len = 37;
  double *pred = tg_alloc (len), *target = tg_alloc (len);
  tg_fill (pred, len, 6, -1, 1);
  tg_fill (target, len, 7, -1, 1);
  TG_GRADCHECK (mse, &len, pred, target);

  double *xr = tg_alloc (n * m), *mean = tg_alloc (n), *yr = tg_alloc (n * m);
  tg_fill (xr, n * m, 8, -1, 1);
  TG_GRADCHECK (rownorm, &n, &m, xr, mean, yr);
  TG_GRADCHECK_NULL (rownorm, "mean", &n, &m, xr, mean, yr);

  float *u = tg_alloc_f (len), *v = tg_alloc_f (len);
  tg_fill_f (u, len, 10, -1, 1);
  tg_fill_f (v, len, 11, -1, 1);
  TG_GRADCHECK (dot_simd, &len, u, v);

  check_conv1d ();

  double *yv = tg_alloc (n), *wv = tg_alloc (m);
  tg_fill (wv, m, 15, -1, 1);
  TG_GRADCHECK (rows_vla, &n, &m, xr, wv, yv);
  TG_GRADCHECK_NULL (rows_vla, "x", &n, &m, xr, wv, yv);
  return tg_exit ();
}

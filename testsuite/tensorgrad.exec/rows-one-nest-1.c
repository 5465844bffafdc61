/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=rows-one-nest-1.gen.c -fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled -I." } */
/* { dg-additional-sources "rows-one-nest-1-aux.c" } */
/* The statements of a fused gradient nest that the rows pass gave loops
   of their own run as one nest of those loops again, in the GIMPLE and in
   dump-c (rows-one-nest-1-aux.c compiles its file under other names):
   one loop, their shared values once when every shadow is there, else
   each statement inside its own NULL tests with the tests they share
   outside.  layernorm: y = (x - mean) rstd gamma + beta over each row,
   float; the row's sums for d_x, d_gamma and d_beta (a softmax's row
   was the example until merge.c made it one update after its sum).
   dense: y = x w + b over rows i, double; d_x[i][p] += sum_j w[p][j]
   d_y[i][j], d_w[p][j] += sum_i x[i][p] d_y[i][j], d_b[j] += sum_i
   d_y[i][j].  Both gradients
   are checked against central differences, with each input shadow NULL
   too, and the injected ones against dump-c's with every combination of
   NULL shadows.  With no-tiled: dense's products would run tiled
   (tiled-dense-1.c).  */

#include <stddef.h>
#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, const float *x, const float *gamma,
           const float *beta, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += x[i * m + j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);
      for (int j = 0; j < m; j++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

__attribute__ ((differentiable))
void
dense (int n, int k, int m, const double *x, const double *w,
       const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        double acc = b[j];
        for (int p = 0; p < k; p++)
          acc += x[i * k + p] * w[p * m + j];
        y[i * m + j] = acc;
      }
}

void layernorm_grad (int, int, const float *, const float *, const float *,
                     float *, float *, float *, float *, float *);
void layernorm_grad_c (int, int, const float *, const float *,
                       const float *, float *, float *, float *, float *,
                       float *);
void dense_grad (int, int, int, const double *, const double *,
                 const double *, double *, double *, double *, double *,
                 double *);
void dense_grad_c (int, int, int, const double *, const double *,
                   const double *, double *, double *, double *, double *,
                   double *);

enum { N = 3, M = 6, K = 4 };

/* Both layer norm gradients, with the shadows whose bits are set in WANT
   given (1 d_x, 2 d_gamma, 4 d_beta, 8 d_y), compared element by
   element; one not given, or all when d_y is not, left as they were.  */
static void
compare_layernorm (const float *x, const float *g, const float *b, int want)
{
  float y[N * M], dy[N * M], dx1[N * M], dx2[N * M];
  float dg1[M], dg2[M], db1[M], db2[M];
  tg_fill_f (dy, N * M, 11, -1, 1);
  for (int i = 0; i < N * M; i++)
    dx1[i] = dx2[i] = 0.25f;
  for (int i = 0; i < M; i++)
    dg1[i] = dg2[i] = db1[i] = db2[i] = 0.25f;
  layernorm (N, M, x, g, b, y);
  layernorm_grad (N, M, x, g, b, y, want & 1 ? dx1 : NULL,
                  want & 2 ? dg1 : NULL, want & 4 ? db1 : NULL,
                  want & 8 ? dy : NULL);
  layernorm_grad_c (N, M, x, g, b, y, want & 1 ? dx2 : NULL,
                    want & 2 ? dg2 : NULL, want & 4 ? db2 : NULL,
                    want & 8 ? dy : NULL);
  for (int i = 0; i < N * M; i++)
    {
      CHECK_NEAR_AT (dx2[i], dx1[i], 1e-6, 1e-6, i);
      if (!(want & 1) || !(want & 8))
        CHECK_AT (dx1[i] == 0.25f && dx2[i] == 0.25f, i);
    }
  for (int i = 0; i < M; i++)
    {
      CHECK_NEAR_AT (dg2[i], dg1[i], 1e-6, 1e-6, i);
      CHECK_NEAR_AT (db2[i], db1[i], 1e-6, 1e-6, i);
      if (!(want & 2) || !(want & 8))
        CHECK_AT (dg1[i] == 0.25f && dg2[i] == 0.25f, i);
      if (!(want & 4) || !(want & 8))
        CHECK_AT (db1[i] == 0.25f && db2[i] == 0.25f, i);
    }
}

/* Both dense gradients, with the shadows whose bits are set in WANT
   (1 d_x, 2 d_w, 4 d_b) given, compared element by element; one not
   given leaves its array as it was.  */
static void
compare_dense (const double *x, const double *w, const double *b, int want)
{
  double y[N * M], dy[N * M];
  double dx1[N * K], dx2[N * K], dw1[K * M], dw2[K * M], db1[M], db2[M];
  for (int i = 0; i < N * K; i++)
    dx1[i] = dx2[i] = 0.5;
  for (int i = 0; i < K * M; i++)
    dw1[i] = dw2[i] = 0.5;
  for (int i = 0; i < M; i++)
    db1[i] = db2[i] = 0.5;
  tg_fill (dy, N * M, 12, -1, 1);
  dense (N, K, M, x, w, b, y);
  dense_grad (N, K, M, x, w, b, y, want & 1 ? dx1 : NULL,
              want & 2 ? dw1 : NULL, want & 4 ? db1 : NULL, dy);
  dense_grad_c (N, K, M, x, w, b, y, want & 1 ? dx2 : NULL,
                want & 2 ? dw2 : NULL, want & 4 ? db2 : NULL, dy);
  for (int i = 0; i < N * K; i++)
    {
      CHECK_NEAR_AT (dx2[i], dx1[i], 1e-13, 1e-14, i);
      if (!(want & 1))
        CHECK_AT (dx1[i] == 0.5 && dx2[i] == 0.5, i);
    }
  for (int i = 0; i < K * M; i++)
    {
      CHECK_NEAR_AT (dw2[i], dw1[i], 1e-13, 1e-14, i);
      if (!(want & 2))
        CHECK_AT (dw1[i] == 0.5 && dw2[i] == 0.5, i);
    }
  for (int i = 0; i < M; i++)
    {
      CHECK_NEAR_AT (db2[i], db1[i], 1e-13, 1e-14, i);
      if (!(want & 4))
        CHECK_AT (db1[i] == 0.5 && db2[i] == 0.5, i);
    }
}

int
main (void)
{
  int n = N, m = M, k = K;
  float *xf = tg_alloc_f (N * M), *yf = tg_alloc_f (N * M);
  float *gf = tg_alloc_f (M), *bf = tg_alloc_f (M);
  tg_fill_f (xf, N * M, 1, -2, 2);
  tg_fill_f (gf, M, 5, 0.5, 1.5);
  tg_fill_f (bf, M, 6, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (layernorm, "x", &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (layernorm, "gamma beta", &n, &m, xf, gf, bf, yf);
  for (int want = 0; want < 16; want++)
    compare_layernorm (xf, gf, bf, want);

  double *x = tg_alloc (N * K), *w = tg_alloc (K * M), *b = tg_alloc (M);
  double *y = tg_alloc (N * M);
  tg_fill (x, N * K, 2, -1, 1);
  tg_fill (w, K * M, 3, -1, 1);
  tg_fill (b, M, 4, -1, 1);
  TG_GRADCHECK (dense, &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "x", &n, &k, &m, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "w", &n, &k, &m, x, w, b, y);
  for (int want = 0; want < 8; want++)
    compare_dense (x, w, b, want);
  return tg_exit ();
}

/* layernorm: the statements over a row that share d_y[j] * gamma[j] and
   x[j] - mean, one loop (skipped together when d_y is NULL); dense: d_x's
   and d_w's statements one nest over p and j, which read d_y (fold.c's
   copy) and are skipped together when it is NULL.  */
/* { dg-final { scan-tensorgrad-dump-times "lower: stage \[0-9\]+ statements \[0-9\]+ to \[0-9\]+: one nest of their own loops" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "lower: stage \[0-9\]+ statements \[0-9\]+ to \[0-9\]+: skipped when d_y is NULL" 2 } } */
/* { dg-final { scan-tensorgrad-dump "rows: \[0-9\]+ loop nests run as one, 1 outer loop shared" } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-optional-1.gen.c -fplugin-arg-tensorgrad-dump -I." } */
/* { dg-additional-sources "dump-c-optional-1-aux.c" } */
/* dump-c of kernels with optional inputs: the C file tests them against
   NULL as the injected gradient does (dump-c-optional-1-aux.c compiles
   it under other names).  Its gradients are compared with the injected
   ones with every optional input given, with each NULL and its shadow
   NULL, and with an input NULL but its shadow given (left as it was).
   layernorm: y = (x - m) r (g ? g[i] : 1) + (b ? b[i] : 0), double;
   conv1d_f:  y[c][t] = sum_k x[t + k] w[c][k] (+ bias[c] if given), float,
   the gradients as in optional-layernorm-1.c and optional-conv1d-1.c.  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int N, int D, const double *x, const double *g, const double *b,
           double *y)
{
  for (int n = 0; n < N; n++)
    {
      double m = 0;
      for (int i = 0; i < D; i++)
        m += x[n * D + i];
      m /= D;
      double v = 0;
      for (int i = 0; i < D; i++)
        v += (x[n * D + i] - m) * (x[n * D + i] - m);
      double r = 1 / sqrt (v / D + 1e-5);
      for (int i = 0; i < D; i++)
        y[n * D + i] = (x[n * D + i] - m) * r * (g ? g[i] : 1)
                       + (b ? b[i] : 0);
    }
}

__attribute__ ((differentiable))
void
conv1d_f (int T, int K, int C, const float *x, const float *w,
          const float *bias, float *y)
{
  for (int c = 0; c < C; c++)
    for (int t = 0; t < T; t++)
      {
        float s = 0;
        for (int k = 0; k < K; k++)
          s += x[t + k] * w[c * K + k];
        if (bias)
          s += bias[c];
        y[c * T + t] = s;
      }
}

void layernorm_grad (int, int, const double *, const double *,
                     const double *, double *, double *, double *, double *,
                     double *);
void layernorm_grad_c (int, int, const double *, const double *,
                       const double *, double *, double *, double *, double *,
                       double *);
void conv1d_f_grad (int, int, int, const float *, const float *,
                    const float *, float *, float *, float *, float *,
                    float *);
void conv1d_f_grad_c (int, int, int, const float *, const float *,
                      const float *, float *, float *, float *, float *,
                      float *);

enum { N = 3, D = 5, T = 4, K = 3, C = 2, L = T + K - 1 };

/* Both layer norm gradients with G, B (either may be NULL) and shadows
   DG, DB as given when WANT, compared element by element; a shadow
   passed for a NULL input must be left as it was.  */
static void
compare_layernorm (const double *x, const double *g, const double *b,
                   int want)
{
  double y[N * D], dy[N * D], dx1[N * D] = { 0 }, dx2[N * D] = { 0 };
  double dg1[D], dg2[D], db1[D], db2[D];
  for (int i = 0; i < D; i++)
    dg1[i] = dg2[i] = db1[i] = db2[i] = 0.5;
  tg_fill (dy, N * D, 11, -1, 1);
  layernorm (N, D, x, g, b, y);
  layernorm_grad (N, D, x, g, b, y, dx1, want ? dg1 : NULL,
                  want ? db1 : NULL, dy);
  layernorm_grad_c (N, D, x, g, b, y, dx2, want ? dg2 : NULL,
                    want ? db2 : NULL, dy);
  for (int i = 0; i < N * D; i++)
    CHECK_NEAR_AT (dx2[i], dx1[i], 1e-13, 1e-14, i);
  for (int i = 0; i < D; i++)
    {
      CHECK_NEAR_AT (dg2[i], dg1[i], 1e-13, 1e-14, i);
      CHECK_NEAR_AT (db2[i], db1[i], 1e-13, 1e-14, i);
      if (!g)
        CHECK_AT (dg1[i] == 0.5 && dg2[i] == 0.5, i);
      if (!b)
        CHECK_AT (db1[i] == 0.5 && db2[i] == 0.5, i);
    }
}

int
main (void)
{
  double x[N * D], g[D], b[D];
  tg_fill (x, N * D, 1, -1, 1);
  tg_fill (g, D, 2, 0.5, 1.5);
  tg_fill (b, D, 3, -1, 1);
  compare_layernorm (x, g, b, 1);
  compare_layernorm (x, NULL, b, 1);
  compare_layernorm (x, g, NULL, 1);
  compare_layernorm (x, NULL, NULL, 1);
  compare_layernorm (x, NULL, NULL, 0);

  float xf[L], wf[C * K], bf[C], yf[C * T], dyf[C * T];
  tg_fill_f (xf, L, 4, -1, 1);
  tg_fill_f (wf, C * K, 5, -1, 1);
  tg_fill_f (bf, C, 6, -1, 1);
  tg_fill_f (dyf, C * T, 7, -1, 1);
  for (int with = 0; with < 2; with++)
    {
      const float *bias = with ? bf : NULL;
      float dx1[L] = { 0 }, dx2[L] = { 0 }, dw1[C * K] = { 0 },
            dw2[C * K] = { 0 }, db1[C] = { 0 }, db2[C] = { 0 };
      conv1d_f (T, K, C, xf, wf, bias, yf);
      conv1d_f_grad (T, K, C, xf, wf, bias, yf, dx1, dw1, db1, dyf);
      conv1d_f_grad_c (T, K, C, xf, wf, bias, yf, dx2, dw2, db2, dyf);
      for (int i = 0; i < L; i++)
        CHECK_NEAR_AT (dx2[i], dx1[i], 1e-6, 1e-6, i);
      for (int i = 0; i < C * K; i++)
        CHECK_NEAR_AT (dw2[i], dw1[i], 1e-6, 1e-6, i);
      for (int i = 0; i < C; i++)
        {
          CHECK_NEAR_AT (db2[i], db1[i], 1e-6, 1e-6, i);
          if (!with)
            CHECK_AT (db1[i] == 0 && db2[i] == 0, i);
          else
            CHECK_AT (db1[i] != 0, i);
        }
    }
  TG_GRADCHECK (layernorm, &(int){ N }, &(int){ D }, x, NULL, b,
                (double[N * D]){ 0 });
  return tg_exit ();
}

/* The lowering that both back ends print skips the statements that
   write an optional input's shadow when the input is NULL.  */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+ statement \[0-9\]+: skipped when bias is NULL" } } */
/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+ statement \[0-9\]+: skipped when g is NULL" } } */

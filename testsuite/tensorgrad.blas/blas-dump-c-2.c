/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=blas-dump-c-2.gen.c -I." } */
/* { dg-additional-sources "blas-dump-c-2-aux.c" } */
/* Products over a triangle in dump-c's C (blas-dump-c-1.c does the same
   for a box): blas-dump-c-2-aux.c compiles the file -fplugin-arg-
   tensorgrad-dump-c wrote, the gradients renamed *_c, and this test
   checks that they compute what the injected ones do (double):
     mix:  y[t][i] = sum over u <= t of L[t][u] x[u][i]: d_x = L^T d_y
           (a trmm from the left, L's lower triangle), d_L's lower
           triangle = d_y x^T (a gemm into a scratch);
     lin:  y[i][t] = sum over u <= t of x[i][u] wt[u][t]: d_x = d_y wt^T
           (a trmm from the right, wt's upper triangle), d_wt's upper
           triangle = x^T d_y;
   with a NULL shadow, and at sizes where the loops run (n = 0).  The
   injected gradients against central differences (TG_GRADCHECK).  */

#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mix (int T, int n, const double *L, const double *x, double *y)
{
  for (int t = 0; t < T; t++)
    for (int i = 0; i < n; i++)
      {
        double acc = 0;
        for (int u = 0; u <= t; u++)
          acc += L[t * T + u] * x[u * n + i];
        y[t * n + i] = acc;
      }
}

__attribute__ ((differentiable))
void
lin (int n, int T, const double *x, const double *wt, double *y)
{
  for (int i = 0; i < n; i++)
    for (int t = 0; t < T; t++)
      {
        double acc = 0;
        for (int u = 0; u <= t; u++)
          acc += x[i * T + u] * wt[u * T + t];
        y[i * T + t] = acc;
      }
}

void mix_grad_c (int T, int n, const double *L, const double *x, double *y,
                 double *d_L, double *d_x, double *d_y);
void lin_grad_c (int n, int T, const double *x, const double *wt, double *y,
                 double *d_x, double *d_wt, double *d_y);

enum { TT = 6, N = 5 };
static double L[TT * TT], x[TT * N], y[TT * N], dy[TT * N];

int
main (void)
{
  int T = TT, n = N;
  tg_fill (L, TT * TT, 1, -1, 1);
  tg_fill (x, TT * N, 2, -1, 1);
  tg_fill (dy, TT * N, 3, -1, 1);
  TG_GRADCHECK (mix, &T, &n, L, x, y);
  TG_GRADCHECK (lin, &n, &T, x, L, y);

  double a1[TT * TT], b1[TT * N], a2[TT * TT], b2[TT * N];
  tg_fill (a1, TT * TT, 4, -1, 1);
  tg_fill (b1, TT * N, 5, -1, 1);
  memcpy (a2, a1, sizeof a1);
  memcpy (b2, b1, sizeof b1);
  mix (TT, N, L, x, y);
  mix_grad (TT, N, L, x, y, a1, b1, dy);
  mix_grad_c (TT, N, L, x, y, a2, b2, dy);
  for (int i = 0; i < TT * TT; i++)
    CHECK_NEAR_AT (a2[i], a1[i], 1e-14, 1e-14, i);
  for (int i = 0; i < TT * N; i++)
    CHECK_NEAR_AT (b2[i], b1[i], 1e-14, 1e-14, i);

  lin (N, TT, x, L, y);
  lin_grad (N, TT, x, L, y, b1, a1, dy);
  lin_grad_c (N, TT, x, L, y, b2, a2, dy);
  for (int i = 0; i < TT * TT; i++)
    CHECK_NEAR_AT (a2[i], a1[i], 1e-14, 1e-14, i);
  for (int i = 0; i < TT * N; i++)
    CHECK_NEAR_AT (b2[i], b1[i], 1e-14, 1e-14, i);

  /* A NULL shadow: the other one is still right.  */
  double c3[TT * N] = { 0 }, c4[TT * N] = { 0 };
  lin_grad (N, TT, x, L, y, c3, NULL, dy);
  lin_grad_c (N, TT, x, L, y, c4, NULL, dy);
  for (int i = 0; i < TT * N; i++)
    CHECK_NEAR_AT (c4[i], c3[i], 1e-14, 1e-14, i);
  /* n = 0: the loops, which add nothing to d_L.  */
  double d5[TT * TT] = { 0 };
  mix_grad_c (TT, 0, L, x, y, d5, NULL, dy);
  for (int i = 0; i < TT * TT; i++)
    CHECK_NEAR_AT (d5[i], 0.0, 0, 0, i);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-file "blas-dump-c-2.gen.c" "cblas_dtrmm \\(101, 141, 122, 112, 131, T, n, 1, " } } */
/* { dg-final { scan-tensorgrad-file "blas-dump-c-2.gen.c" "cblas_dtrmm \\(101, 142, 121, 112, 131, n, T, 1, " } } */
/* { dg-final { tg-blas-calls cblas_dtrmm } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-1.gen.c -I." } */
/* { dg-additional-sources "dump-c-1-aux.c" } */
/* -fplugin-arg-tensorgrad-dump-c writes the gradient as C: dump-c-1-aux.c
   compiles that file (with the gradient renamed dense_relu_grad_c) and
   this test checks that it computes what the injected gradient does,
   including with a NULL shadow; TG_GRADCHECK checks the injected one
   against central differences, accumulation and the ABI.  The kernel has a
   reduction, a select and a returned loss.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
dense_relu (int n, int m, const double *x, const double *w, double *y)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    {
      double acc = 0;
      for (int j = 0; j < m; j++)
        acc += x[j] * w[i * m + j];
      y[i] = acc > 0 ? acc : 0.1 * acc;
      l += y[i] * y[i];
    }
  return l;
}

void dense_relu_grad_c (int n, int m, const double *x, const double *w,
                        double *y, double *d_x, double *d_w, double *d_y,
                        double d_return);

enum { N = 5, M = 4 };
static double x[M], w[N * M], y[N], c[N];

int
main (void)
{
  int n = N, m = M;
  tg_fill (x, M, 31, -1, 1);
  tg_fill (w, N * M, 32, -1, 1);
  tg_fill (c, N, 33, -1, 1);
  /* The injected gradient against central differences, to atol 1e-8.  */
  const tg_check_opts tight = { 1e-6, 1e-8, 0, 0, 0 };
  TG_GRADCHECK_OPTS (dense_relu, &tight, &n, &m, x, w, y);

  /* The C file's gradient computes what the injected one does.  */
  dense_relu (N, M, x, w, y);
  double dx1[M] = { 0 }, dw1[N * M] = { 0 }, dx2[M] = { 0 }, dw2[N * M] = { 0 };
  double dy[N];
  memcpy (dy, c, sizeof dy);
  dense_relu_grad (N, M, x, w, y, dx1, dw1, dy, 0.75);
  dense_relu_grad_c (N, M, x, w, y, dx2, dw2, dy, 0.75);
  for (int i = 0; i < M; i++)
    CHECK_NEAR (dx2[i], dx1[i], 1e-14, 1e-14);
  for (int i = 0; i < N * M; i++)
    CHECK_NEAR (dw2[i], dw1[i], 1e-14, 1e-14);
  /* A NULL input shadow: the other one is still right.  */
  double dx3[M] = { 0 };
  dense_relu_grad_c (N, M, x, w, y, dx3, NULL, dy, 0.75);
  for (int i = 0; i < M; i++)
    CHECK_NEAR (dx3[i], dx1[i], 1e-14, 1e-14);
  return tg_exit ();
}

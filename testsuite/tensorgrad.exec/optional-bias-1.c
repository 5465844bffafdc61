/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A dense layer whose bias may be NULL, tested as the kernel's authors
   write it: the test is a predicate of the gradient, which reads bias
   and writes d_bias only where it holds.
   dense:       float, y[n][o] = tanh (v), v = (bias != NULL ? bias[o] : 0)
                + sum_i x[n][i] w[o][i]:  d_v = d_y (1 - y^2),
                d_x[n][i] += sum_o d_v w[o][i], d_w[o][i] += sum_n d_v x[n][i],
                d_bias[o] += sum_n d_v when bias is not NULL.
   dense_after: double, v = sum_i x w, then v += bias ? bias[o] : 0;
                y = v^2: d_v = 2 v d_y.
   dense_if:    double, if (bias) v = bias[o]; else v = 0; then the sum;
                y = sin (v): d_v = cos (v) d_y.
   Each is checked with a bias, with bias NULL (its shadow NULL too), and
   with bias NULL but a shadow passed, which must stay as it was.  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int N, int I, int O, const float *x, const float *w,
       const float *bias, float *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      {
        float v = bias != NULL ? bias[o] : 0.0f;
        for (int i = 0; i < I; i++)
          v += x[n * I + i] * w[o * I + i];
        y[n * O + o] = tanhf (v);
      }
}

__attribute__ ((differentiable))
void
dense_after (int N, int I, int O, const double *x, const double *w,
             const double *bias, double *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      {
        double v = 0;
        for (int i = 0; i < I; i++)
          v += x[n * I + i] * w[o * I + i];
        v += bias ? bias[o] : 0;
        y[n * O + o] = v * v;
      }
}

__attribute__ ((differentiable))
void
dense_if (int N, int I, int O, const double *x, const double *w,
          const double *bias, double *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      {
        double v;
        if (bias)
          v = bias[o];
        else
          v = 0;
        for (int i = 0; i < I; i++)
          v += x[n * I + i] * w[o * I + i];
        y[n * O + o] = sin (v);
      }
}

void dense_grad (int N, int I, int O, const float *x, const float *w,
                 const float *bias, float *y, float *d_x, float *d_w,
                 float *d_bias, float *d_y);
void dense_if_grad (int N, int I, int O, const double *x, const double *w,
                    const double *bias, double *y, double *d_x, double *d_w,
                    double *d_bias, double *d_y);

int
main (void)
{
  int N = 3, I = 4, O = 5;
  float *x = tg_alloc_f (N * I), *w = tg_alloc_f (O * I);
  float *b = tg_alloc_f (O), *y = tg_alloc_f (N * O);
  tg_fill_f (x, N * I, 1, -1, 1);
  tg_fill_f (w, O * I, 2, -1, 1);
  tg_fill_f (b, O, 3, -1, 1);
  TG_GRADCHECK (dense, &N, &I, &O, x, w, b, y);
  TG_GRADCHECK (dense, &N, &I, &O, x, w, NULL, y);
  TG_GRADCHECK_NULL (dense, "bias", &N, &I, &O, x, w, b, y);
  TG_GRADCHECK_NULL (dense, "bias x", &N, &I, &O, x, w, NULL, y);

  double *xd = tg_alloc (N * I), *wd = tg_alloc (O * I);
  double *bd = tg_alloc (O), *yd = tg_alloc (N * O);
  tg_fill (xd, N * I, 4, -1, 1);
  tg_fill (wd, O * I, 5, -1, 1);
  tg_fill (bd, O, 6, -1, 1);
  TG_GRADCHECK (dense_after, &N, &I, &O, xd, wd, bd, yd);
  TG_GRADCHECK (dense_after, &N, &I, &O, xd, wd, NULL, yd);
  TG_GRADCHECK_NULL (dense_after, "w", &N, &I, &O, xd, wd, NULL, yd);
  TG_GRADCHECK (dense_if, &N, &I, &O, xd, wd, bd, yd);
  TG_GRADCHECK (dense_if, &N, &I, &O, xd, wd, NULL, yd);
  TG_GRADCHECK_NULL (dense_if, "bias", &N, &I, &O, xd, wd, bd, yd);

  /* bias NULL, its shadow given: the gradient leaves the shadow alone
     and computes the others as without the term.  */
  float *dy = tg_alloc_f (N * O), *dx = tg_alloc_f (N * I);
  float *dw = tg_alloc_f (O * I), *db = tg_alloc_f (O);
  tg_fill_f (dy, N * O, 7, -1, 1);
  for (int o = 0; o < O; o++)
    db[o] = 42.0f;
  dense (N, I, O, x, w, NULL, y);
  dense_grad (N, I, O, x, w, NULL, y, dx, dw, db, dy);
  for (int o = 0; o < O; o++)
    CHECK_AT (db[o] == 42.0f, o);
  for (int n = 0; n < N; n++)
    for (int i = 0; i < I; i++)
      {
        double s = 0;
        for (int o = 0; o < O; o++)
          s += dy[n * O + o] * (1 - (double) y[n * O + o] * y[n * O + o])
               * w[o * I + i];
        CHECK_NEAR_AT (dx[n * I + i], s, 1e-5, 1e-6, n * I + i);
      }
  double *dyd = tg_alloc (N * O), *dxd = tg_alloc (N * I);
  double *dwd = tg_alloc (O * I), *dbd = tg_alloc (O);
  tg_fill (dyd, N * O, 8, -1, 1);
  for (int o = 0; o < O; o++)
    dbd[o] = -3.0;
  dense_if (N, I, O, xd, wd, NULL, yd);
  dense_if_grad (N, I, O, xd, wd, NULL, yd, dxd, dwd, dbd, dyd);
  for (int o = 0; o < O; o++)
    CHECK_AT (dbd[o] == -3.0, o);
  return tg_exit ();
}

/* The test is lifted as a predicate of the program; d_bias is written
   only where it holds.  */
/* { dg-final { scan-tensorgrad-dump "nonnull \\(bias\\) \\? bias\\\[o\\\] : 0" } } */
/* { dg-final { scan-tensorgrad-dump "skipped when bias is NULL" } } */

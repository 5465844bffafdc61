/* { dg-do run } */
/* The two arms of an if/else each writing the same elements in a loop
   of its own (or with memset/memcpy) define them once: a dense layer
   whose optional bias is copied into the output or the output cleared,
   then the product added (float, the bias also NULL); the same with
   memcpy and memset (double); every other row cleared with memset and
   the rest computed, then scaled in place; rows split by a bound on the
   counter, n < K copied and the rest squared.  The arms pass joins each
   pair into one nest of selects (the dump says so).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense_bias (int n, int m, const float *x, const float *w, const float *bias,
            float *y)
{
  if (bias)
    for (int o = 0; o < m; o++)
      y[o] = bias[o];
  else
    for (int o = 0; o < m; o++)
      y[o] = 0.0f;
  for (int o = 0; o < m; o++)
    for (int i = 0; i < n; i++)
      y[o] += w[o * n + i] * x[i];
}

__attribute__ ((differentiable))
void
dense_bias_copy (int B, int n, int m, const double *x, const double *w,
                 const double *bias, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double *yb = y + b * m;
      if (bias != NULL)
        memcpy (yb, bias, m * sizeof (double));
      else
        memset (yb, 0, m * sizeof (double));
      for (int i = 0; i < n; i++)
        for (int o = 0; o < m; o++)
          yb[o] += x[b * n + i] * w[i * m + o];
    }
}

__attribute__ ((differentiable))
void
odd_rows_cleared (int N, int C, const float *x, float *y)
{
  for (int n = 0; n < N; n++)
    {
      if (n % 2)
        memset (y + n * C, 0, C * sizeof (float));
      else
        for (int c = 0; c < C; c++)
          y[n * C + c] = x[n * C + c] * x[n * C + c];
    }
  for (int n = 0; n < N; n++)
    for (int c = 0; c < C; c++)
      y[n * C + c] = (y[n * C + c] + 1.0f) * x[n * C + c];
}

__attribute__ ((differentiable))
void
split_rows (int N, int K, int C, const double *x, double *y)
{
  for (int n = 0; n < N; n++)
    if (n < K)
      for (int c = 0; c < C; c++)
        y[n * C + c] = x[n * C + c];
    else
      for (int c = 0; c < C; c++)
        y[n * C + c] = sin (x[n * C + c]) * x[n * C + c];
}

int
main (void)
{
  int n = 4, m = 3;
  float *x = tg_alloc_f (n), *w = tg_alloc_f (m * n), *bias = tg_alloc_f (m);
  float *y = tg_alloc_f (m);
  tg_fill_f (x, n, 1, -1, 1);
  tg_fill_f (w, m * n, 2, -1, 1);
  tg_fill_f (bias, m, 3, -1, 1);
  TG_GRADCHECK (dense_bias, &n, &m, x, w, bias, y);
  TG_GRADCHECK_NULL (dense_bias, "bias", &n, &m, x, w, bias, y);

  int B = 3;
  double *xd = tg_alloc (B * n), *wd = tg_alloc (n * m), *bd = tg_alloc (m);
  double *yd = tg_alloc (B * m);
  tg_fill (xd, B * n, 4, -1, 1);
  tg_fill (wd, n * m, 5, -1, 1);
  tg_fill (bd, m, 6, -1, 1);
  TG_GRADCHECK (dense_bias_copy, &B, &n, &m, xd, wd, bd, yd);
  TG_GRADCHECK_NULL (dense_bias_copy, "bias", &B, &n, &m, xd, wd, bd, yd);

  int N = 5, C = 3, K = 2;
  float *xr = tg_alloc_f (N * C), *yr = tg_alloc_f (N * C);
  tg_fill_f (xr, N * C, 7, -1, 1);
  TG_GRADCHECK (odd_rows_cleared, &N, &C, xr, yr);

  double *xs = tg_alloc (N * C), *ys = tg_alloc (N * C);
  tg_fill (xs, N * C, 8, -1, 1);
  TG_GRADCHECK (split_rows, &N, &K, &C, xs, ys);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "arms: the nests writing y under conditions that exclude each other are one" 4 } } */

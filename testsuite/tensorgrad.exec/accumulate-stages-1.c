/* { dg-do run } */
/* A sum down the columns of a stage's loop, which the gradient computes
   again (lib/passes/accumulate.c, accumulate-stages): a batch norm's
   mean and variance, feature by feature over the batch (x[i*m + j]
   along i), are set to their initial value, then added into row by row
   with j innermost, before rows.c (which made them scalars of a fused
   loop over j walking x with stride m: 2.7 times the hand-written
   backward at -O3).
   bn: float, per feature j mu = mean_i x, r = 1 / sqrt (mean_i (x - mu)^2
   + eps), y = g[j] (x - mu) r + b[j]; with xh = (x - mu) r, dxh = d_y g[j]:
   d_g[j] += sum_i d_y xh, d_b[j] += sum_i d_y,
   d_x += r (dxh - mean_i dxh - xh mean_i (dxh xh)).
   bn_d: the same in double.
   colnorm: float, q[j] = tanh (1 + sum_i x[i*m + j]^2) in a local
   array, y = x / q[j]: the function of the sum (tanh) applied to q in a
   third stage.
   rownorm: a sum along a row (unit stride along its own loop) stays as
   it is.  5 x 37 and 3 x 19 (a rest after blocks of 8), also with NULL
   shadows, checked against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
bn (int n, int m, const float *x, const float *g, const float *b, float *y)
{
  for (int j = 0; j < m; j++)
    {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += x[i * m + j];
      float mean = s / n;
      float v = 0.0f;
      for (int i = 0; i < n; i++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      float rstd = 1.0f / sqrtf (v / n + 1e-5f);
      for (int i = 0; i < n; i++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * g[j] + b[j];
    }
}

__attribute__ ((differentiable))
void
bn_d (int n, int m, const double *x, const double *g, const double *b,
      double *y)
{
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += x[i * m + j];
      double mean = s / n;
      double v = 0;
      for (int i = 0; i < n; i++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      double rstd = 1 / sqrt (v / n + 1e-5);
      for (int i = 0; i < n; i++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * g[j] + b[j];
    }
}

__attribute__ ((differentiable))
void
colnorm (int n, int m, const float *x, float *y)
{
  float q[m];
  for (int j = 0; j < m; j++)
    {
      float a = 0.0f;
      for (int i = 0; i < n; i++)
        a += x[i * m + j] * x[i * m + j];
      q[j] = tanhf (1.0f + a);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] / q[j];
}

__attribute__ ((differentiable))
void
rownorm (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double a = 0;
      for (int j = 0; j < m; j++)
        a += x[i * m + j] * x[i * m + j];
      double r = 1 / sqrt (1 + a);
      for (int j = 0; j < m; j++)
        y[i * m + j] = x[i * m + j] * r;
    }
}

int
main (void)
{
  int n = 5, m = 37;
  float *xf = tg_alloc_f (n * m), *gf = tg_alloc_f (m), *bf = tg_alloc_f (m);
  float *yf = tg_alloc_f (n * m);
  tg_fill_f (xf, n * m, 1, -2, 2);
  tg_fill_f (gf, m, 2, 0.5, 2);
  tg_fill_f (bf, m, 3, -1, 1);
  TG_GRADCHECK (bn, &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (bn, "g b", &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (bn, "x", &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK (colnorm, &n, &m, xf, yf);

  int n2 = 3, m2 = 19;
  double *x = tg_alloc (n2 * m2), *g = tg_alloc (m2), *b = tg_alloc (m2);
  double *y = tg_alloc (n2 * m2);
  tg_fill (x, n2 * m2, 4, -2, 2);
  tg_fill (g, m2, 5, 0.5, 2);
  tg_fill (b, m2, 6, -1, 1);
  TG_GRADCHECK (bn_d, &n2, &m2, x, g, b, y);
  TG_GRADCHECK_NULL (bn_d, "x b", &n2, &m2, x, g, b, y);
  TG_GRADCHECK (rownorm, &n2, &m2, x, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "accumulate-stages: the sum over i into s, by additions with j innermost" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "accumulate-stages: the sum over i into v, by additions with j innermost" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "accumulate-stages: the sum over i into " 5 } } */
/* { dg-final { scan-tensorgrad-after accumulate-stages "for i < n, j < m:\n *s\\\[j\\\] \\+= x\\\[j \\+ m \\* i\\\];" } } */
/* { dg-final { scan-tensorgrad-after accumulate-stages "for j < m:\n *q\\\[j\\\] = tanh \\(1f \\+ q\\\[j\\\]\\);" } } */

/* { dg-do run } */
/* Row-wise operators, whose gradient an expert writes as one loop over
   the rows with a few loops over one row inside: the rows pass gives the
   generated gradient that shape, and shrink makes each row's statistics
   and adjoints one element.  softmax: y = exp (x - max) / sum over the
   row, d_x[j] += y[j] (d_y[j] - sum_k y[k] d_y[k]); no temporary of the
   gradient has as many elements as x (scanned below).  layernorm: the
   mean and reciprocal deviation kept as outputs, y = (x - m) r g + b;
   d_x = r g d_y - r/n sum (r g d_y) - (x - m) r^3 / n sum (g d_y (x - m)),
   rows reached through a pointer offset.  A causal softmax, whose rows
   are triangular, gets the same shape.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += expf (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (x[i * m + j] - mx) / s;
    }
}

__attribute__ ((differentiable))
void
layernorm (int n, int m, const double *x, const double *g, const double *b,
           double *y, double *mean, double *rstd)
{
  for (int i = 0; i < n; i++)
    {
      const double *row = x + i * m;
      double s = 0;
      for (int j = 0; j < m; j++)
        s += row[j];
      double mu = s / m;
      double v = 0;
      for (int j = 0; j < m; j++)
        v += (row[j] - mu) * (row[j] - mu);
      double r = 1.0 / sqrt (v / m + 1e-5);
      for (int j = 0; j < m; j++)
        y[i * m + j] = (row[j] - mu) * r * g[j] + b[j];
      mean[i] = mu;
      rstd[i] = r;
    }
}

/* The exponentials stored in y and divided in place: the gradient reads
   y, as the plain softmax's (rescale-row-1.c).  */
__attribute__ ((differentiable))
void
softmax_inplace (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        if (x[i * m + j] > mx)
          mx = x[i * m + j];
      float s = 0;
      for (int j = 0; j < m; j++)
        {
          y[i * m + j] = expf (x[i * m + j] - mx);
          s += y[i * m + j];
        }
      for (int j = 0; j < m; j++)
        y[i * m + j] /= s;
    }
}

__attribute__ ((differentiable))
void
causal (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double mx = -1e300;
      for (int u = 0; u <= t; u++)
        mx = fmax (mx, s[t * T + u]);
      double z = 0;
      for (int u = 0; u <= t; u++)
        z += exp (s[t * T + u] - mx);
      for (int u = 0; u <= t; u++)
        p[t * T + u] = exp (s[t * T + u] - mx) / z;
    }
}

int
main (void)
{
  int n = 3, m = 7;
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  TG_GRADCHECK (softmax, &n, &m, x, y);
  TG_GRADCHECK_NULL (softmax, "x", &n, &m, x, y);
  TG_GRADCHECK (softmax_inplace, &n, &m, x, y);

  int ln = 4, lm = 5;
  double *lx = tg_alloc (ln * lm), *g = tg_alloc (lm), *b = tg_alloc (lm);
  double *ly = tg_alloc (ln * lm), *mean = tg_alloc (ln), *rstd = tg_alloc (ln);
  tg_fill (lx, ln * lm, 2, -1, 1);
  tg_fill (g, lm, 3, 0.5, 1.5);
  tg_fill (b, lm, 4, -1, 1);
  TG_GRADCHECK (layernorm, &ln, &lm, lx, g, b, ly, mean, rstd);
  TG_GRADCHECK_NULL (layernorm, "g mean", &ln, &lm, lx, g, b, ly, mean, rstd);

  int T = 5;
  double *s = tg_alloc (T * T), *p = tg_alloc (T * T);
  tg_fill (s, T * T, 5, -2, 2);
  TG_GRADCHECK (causal, &T, s, p);
  return tg_exit ();
}

/* Each gradient: one loop over the rows, and no temporary larger than a
   row (no size is a product); the in-place softmax computes no
   exponentials again.  */
/* { dg-final { scan-tensorgrad-dump-times "rows: \[0-9\]+ loop nests run as one, 1 outer loop shared" 4 } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*\\*" } } */
/* { dg-final { scan-tensorgrad-dump "rescale: d_y.v1 holds s times its adjoint" } } */

/* { dg-do run } */
/* Two sums into one element from nests of their own are no reduction
   chain (lib/back/lower.c find_chain): a layer norm's gradient adds to
   the adjoint of the row's sum s (d_s) in the nest of d_x's main term
   and again in the nest of the variance's term, each a loop of its own
   inside the loop over rows.  They never share an innermost loop, so
   the stage is vectorized (before, the dump said "not vectorized:
   statements 8 and 13 add to one element of 'd_s'" and GCC's loops over
   the row ran scalar: 1.4 times the hand-written backward at -O3).
   Per row, mu = mean_j x, r = 1 / sqrt (mean_j (x - mu)^2 + eps),
   y = g[j] (x - mu) r + b[j]; with xh = (x - mu) r and dxh = d_y g[j]:
   d_g[j] += sum_i d_y xh; d_b[j] += sum_i d_y;
   d_x += r (dxh - mean_j dxh - xh mean_j (dxh xh)).  Float and double,
   3 x 37 (a rest after blocks of 8), also with NULL shadows, checked
   against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm_f (int n, int m, const float *x, const float *g, const float *b,
             float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * m;
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += xr[j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
        v += (xr[j] - mean) * (xr[j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);
      for (int j = 0; j < m; j++)
        y[i * m + j] = (xr[j] - mean) * rstd * g[j] + b[j];
    }
}

__attribute__ ((differentiable))
void
layernorm_d (int n, int m, const double *x, const double *g,
             const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i * m + j];
      double mean = s / m;
      double v = 0;
      for (int j = 0; j < m; j++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      double rstd = 1 / sqrt (v / m + 1e-5);
      for (int j = 0; j < m; j++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * g[j] + b[j];
    }
}

int
main (void)
{
  int n = 3, m = 37;
  float *xf = tg_alloc_f (n * m), *gf = tg_alloc_f (m), *bf = tg_alloc_f (m);
  float *yf = tg_alloc_f (n * m);
  tg_fill_f (xf, n * m, 1, -2, 2);
  tg_fill_f (gf, m, 2, 0.5, 2);
  tg_fill_f (bf, m, 3, -1, 1);
  TG_GRADCHECK (layernorm_f, &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (layernorm_f, "g b", &n, &m, xf, gf, bf, yf);
  TG_GRADCHECK_NULL (layernorm_f, "x", &n, &m, xf, gf, bf, yf);

  double *x = tg_alloc (n * m), *g = tg_alloc (m), *b = tg_alloc (m);
  double *y = tg_alloc (n * m);
  tg_fill (x, n * m, 4, -2, 2);
  tg_fill (g, m, 5, 0.5, 2);
  tg_fill (b, m, 6, -1, 1);
  TG_GRADCHECK (layernorm_d, &n, &m, x, g, b, y);
  TG_GRADCHECK_NULL (layernorm_d, "x b", &n, &m, x, g, b, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lower: stage 0 statements \[0-9\]+ to \[0-9\]+: one nest of their own loops" } } */
/* { dg-final { scan-tensorgrad-dump-not "not vectorized" } } */

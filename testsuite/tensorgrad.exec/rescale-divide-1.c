/* { dg-do run } */
/* Divisions out of the sums (rescale, step 4): a layer norm's gradient
   sums d_v[i] += -(rstd (x - mean) g d_y / sqrt (var + eps)
   / (2 sqrt (var + eps)) / m) and d_s[i] += -(... / m) over the row's
   elements; the divisors are values at the row, so the sums are kept
   without them and their one read per row, d1[i] = d_v[i], divides:
   no division is left in a loop over a row's elements.  With
   xh = (x - mean) rstd,
     d_x[j] += rstd (g d_y - mean_k (g d_y) - xh mean_k (g d_y xh)),
     d_g[j] += sum_i d_y xh,  d_b[j] += sum_i d_y.
   A row's log-sum, y[i] = log t[i] with t[i] = sum_j x[i][j]^2, has
   d_t[i] = d_y[i] / t[i] at the row, read in the loop over the row's
   elements, d_x[i][j] += 2 x[i][j] d_t[i]: nothing is moved there (it
   would divide once per element instead of once per row).
   TG_GRADCHECK checks every component against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

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
logsum (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double t = 0;
      for (int j = 0; j < m; j++)
	t += x[i * m + j] * x[i * m + j];
      y[i] = log (t);
    }
}

int
main (void)
{
  int n = 3, m = 6;
  float *x = tg_alloc_f (n * m), *g = tg_alloc_f (m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  tg_fill_f (g, m, 2, 0.5, 1.5);
  tg_fill_f (b, m, 3, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, x, g, b, y);
  TG_GRADCHECK_NULL (layernorm, "gamma beta", &n, &m, x, g, b, y);

  double xd[18], yd[3];
  tg_fill (xd, n * m, 4, 0.5, 2);
  TG_GRADCHECK (logsum, &n, &m, xd, yd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "rescale: d_v's divisions moved to its reads" } } */
/* { dg-final { scan-tensorgrad-dump "rescale: d_s's divisions moved to its reads" } } */
/* { dg-final { scan-tensorgrad-backward-not "for j < m: \[^\n\]* / " } } */
/* { dg-final { scan-tensorgrad-dump-not "rescale: d_t" } } */

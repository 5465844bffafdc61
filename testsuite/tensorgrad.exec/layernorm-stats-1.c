/* { dg-do run } */
/* Statistics written to outputs are read back: a layer norm that keeps
   each row's mean and reciprocal deviation in outputs, as llm.c's
   layernorm_forward does.  The lifter lifts mean[i] = sum_j x / m apart
   from the sum the row's loop reads; dedupe makes it read that sum (and
   rstd the variance), and the gradient reads mean and rstd where it
   needs the row's statistics (reuse: s / m is mean, 1 / sqrt (v / m +
   eps) is rstd, and sqrt (v / m + eps) itself is 1 / rstd): no sum and
   no square root is computed again.  The divisions by 2 m and m of
   the statistics' adjoints are made once per row (rescale's divisions
   out of the sums, also with d_rstd's contribution at the row).  With xh = (x - mean) rstd,
     d_x[j] += rstd (g d_y - mean_k (g d_y) - xh mean_k (g d_y xh))
               + d_mean / m - rstd^3 d_rstd (x - mean) / m,
     d_g[j] += sum_i d_y xh,  d_b[j] += sum_i d_y.
   TG_GRADCHECK checks every component against central differences,
   also with some shadows NULL.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, const float *x, const float *g, const float *b,
	   float *y, float *mean, float *rstd)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * m;
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += xr[j];
      float mu = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
	{
	  float d = xr[j] - mu;
	  v += d * d;
	}
      v = v / m;
      float r = 1.0f / sqrtf (v + 1e-5f);
      float *yr = y + i * m;
      for (int j = 0; j < m; j++)
	{
	  float nrm = r * (xr[j] - mu);
	  yr[j] = nrm * g[j] + b[j];
	}
      mean[i] = mu;
      rstd[i] = r;
    }
}

int
main (void)
{
  int n = 3, m = 6;
  float *x = tg_alloc_f (n * m), *g = tg_alloc_f (m), *b = tg_alloc_f (m);
  float *y = tg_alloc_f (n * m), *mean = tg_alloc_f (n), *rstd = tg_alloc_f (n);
  tg_fill_f (x, n * m, 1, -2, 2);
  tg_fill_f (g, m, 2, 0.5, 1.5);
  tg_fill_f (b, m, 3, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, x, g, b, y, mean, rstd);
  TG_GRADCHECK_NULL (layernorm, "g rstd", &n, &m, x, g, b, y, mean, rstd);
  TG_GRADCHECK_NULL (layernorm, "mean b", &n, &m, x, g, b, y, mean, rstd);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "dedupe: a reduction computing s again reads it" } } */
/* { dg-final { scan-tensorgrad-dump "dedupe: a reduction computing v again reads it" } } */
/* { dg-final { scan-tensorgrad-dump "reuse: s\\\[i\\\] / \\(float\\) m is mean\\\[i\\\]" } } */
/* { dg-final { scan-tensorgrad-backward-not "sum \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "sqrt \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "for j < m: \[^\n\]* / " } } */

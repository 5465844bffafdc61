/* layernorm_stats.c -- layer normalization over each row as llm.c's
   layernorm_forward writes it: the row's mean and reciprocal standard
   deviation are outputs too (a training loop keeps them for the
   backward), float.  x[n][m] -> y[n][m], mean[n], rstd[n].
   Benchmark size: n = 256 rows, m = 1024 columns.
   Gradient (ABI): layernorm_stats_grad (n, m, x, gamma, beta, y, mean,
                   rstd, d_x, d_gamma, d_beta, d_y, d_mean, d_rstd).  */

#include <math.h>

__attribute__((differentiable))
void
layernorm_stats (int n, int m, const float *x, const float *gamma,
		 const float *beta, float *y, float *mean, float *rstd)
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
      float rs = 1.0f / sqrtf (v / m + 1e-5f);
      float *yr = y + i * m;
      for (int j = 0; j < m; j++)
	yr[j] = (xr[j] - mu) * rs * gamma[j] + beta[j];
      mean[i] = mu;
      rstd[i] = rs;
    }
}

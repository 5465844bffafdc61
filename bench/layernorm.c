/* layernorm.c -- layer normalization over each row, with a per-column scale
   gamma and shift beta, float.  x[n][m] -> y[n][m].
   Benchmark size: n = 256 rows, m = 1024 columns.
   Gradient (ABI): layernorm_grad (n, m, x, gamma, beta, y,
				   d_x, d_gamma, d_beta, d_y).  */

#include <math.h>

__attribute__((differentiable))
void
layernorm (int n, int m, const float *x, const float *gamma,
	   const float *beta, float *y)
{
#pragma omp parallel for
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

/* batchnorm.c -- batch normalization in training mode: each feature
   (column) is normalized with the mean and the biased variance over the
   batch (rows), then scaled by gamma and shifted by beta, float.
   Written feature by feature, as in Darknet-style C.
   x[n][m] -> y[n][m].
   Benchmark size: n = 256 (batch), m = 1024 (features).
   Gradient (ABI): batchnorm_grad (n, m, x, gamma, beta, y,
				   d_x, d_gamma, d_beta, d_y).  */

#include <math.h>

__attribute__((differentiable))
void
batchnorm (int n, int m, const float *x, const float *gamma,
	   const float *beta, float *y)
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
	y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

/* softmax.c -- row softmax, numerically stable (the row maximum is
   subtracted), float.  x[n][m] -> y[n][m].
   Benchmark size: n = 256 rows, m = 1024 columns.
   Gradient (ABI): softmax_grad (n, m, x, y, d_x, d_y).  */

#include <math.h>

__attribute__((differentiable))
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

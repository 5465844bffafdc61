/* softmax_ref.c -- hand-written backward of softmax.c, same signature as
   the generated softmax_grad.  It reuses the forward's output y (the ABI
   guarantees f_grad sees it):  d_x[i][j] += y[i][j] * (d_y[i][j] - s_i),
   s_i = sum_j d_y[i][j] * y[i][j]; no exponential is recomputed.  */

#include <stddef.h>

void
softmax_grad_ref (int n, int m, const float *restrict x, float *restrict y,
		  float *restrict d_x, float *restrict d_y)
{
  (void) x;
  if (!d_y || !d_x)
    return;
  for (int i = 0; i < n; i++)
    {
      const float *restrict yr = y + (size_t) i * m;
      const float *restrict gr = d_y + (size_t) i * m;
      float *restrict dr = d_x + (size_t) i * m;
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += gr[j] * yr[j];
      for (int j = 0; j < m; j++)
	dr[j] += yr[j] * (gr[j] - s);
    }
}

/* layernorm_ref.c -- hand-written backward of layernorm.c, same signature
   as the generated layernorm_grad.

   Per row: recompute mean and rstd (the ABI stores no statistics), then
   with xhat = (x - mean) * rstd and dxhat = d_y * gamma,
     d_gamma[j] += d_y * xhat,   d_beta[j] += d_y,
     d_x = rstd * (dxhat - (sum dxhat + xhat * sum dxhat*xhat) / m).
   The two row sums are hoisted into one pass; the update pass has no
   reduction, so it vectorizes.  */

#include <math.h>
#include <stddef.h>

void
layernorm_grad_ref (int n, int m, const float *restrict x,
		    const float *restrict gamma, const float *restrict beta,
		    float *restrict y, float *restrict d_x,
		    float *restrict d_gamma, float *restrict d_beta,
		    float *restrict d_y)
{
  (void) beta;
  (void) y;
  if (!d_y)
    return;
  for (int i = 0; i < n; i++)
    {
      const float *restrict xr = x + (size_t) i * m;
      const float *restrict gr = d_y + (size_t) i * m;
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += xr[j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
	v += (xr[j] - mean) * (xr[j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);

      if (d_gamma)
	for (int j = 0; j < m; j++)
	  d_gamma[j] += gr[j] * ((xr[j] - mean) * rstd);
      if (d_beta)
	for (int j = 0; j < m; j++)
	  d_beta[j] += gr[j];
      if (!d_x)
	continue;
      float sg = 0.0f, sgx = 0.0f;
      for (int j = 0; j < m; j++)
	{
	  float dxh = gr[j] * gamma[j];
	  sg += dxh;
	  sgx += dxh * ((xr[j] - mean) * rstd);
	}
      sg /= m;
      sgx /= m;
      float *restrict dr = d_x + (size_t) i * m;
      for (int j = 0; j < m; j++)
	{
	  float xh = (xr[j] - mean) * rstd;
	  dr[j] += rstd * (gr[j] * gamma[j] - sg - xh * sgx);
	}
    }
}

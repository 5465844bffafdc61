/* layernorm_stats_ref.c -- hand-written backward of layernorm_stats.c,
   same signature as the generated layernorm_stats_grad.

   As llm.c's layernorm_backward: the row's statistics are read from the
   forward's outputs mean and rstd, not recomputed; with xhat = (x -
   mean) * rstd and dxhat = d_y * gamma,
     d_gamma[j] += d_y * xhat,   d_beta[j] += d_y,
     d_x = rstd * (dxhat - (sum dxhat + xhat * sum dxhat*xhat) / m),
   plus what flows in through the statistics' own adjoints (outputs of
   the kernel): d_mean / m for each element, and, since rstd = (var +
   eps)^-1/2, -d_rstd * rstd^3 * (x - mean) / m.  The two row sums are
   one pass; the update pass has no reduction, so it vectorizes.  */

#include <stddef.h>

void
layernorm_stats_grad_ref (int n, int m, const float *restrict x,
			  const float *restrict gamma,
			  const float *restrict beta, float *restrict y,
			  float *restrict mean, float *restrict rstd,
			  float *restrict d_x, float *restrict d_gamma,
			  float *restrict d_beta, float *restrict d_y,
			  float *restrict d_mean, float *restrict d_rstd)
{
  (void) beta;
  (void) y;
  for (int i = 0; i < n; i++)
    {
      const float *restrict xr = x + (size_t) i * m;
      const float mu = mean[i], rs = rstd[i];
      float sg = 0.0f, sgx = 0.0f;
      if (d_y)
	{
	  const float *restrict gr = d_y + (size_t) i * m;
	  if (d_gamma)
	    for (int j = 0; j < m; j++)
	      d_gamma[j] += gr[j] * ((xr[j] - mu) * rs);
	  if (d_beta)
	    for (int j = 0; j < m; j++)
	      d_beta[j] += gr[j];
	  for (int j = 0; j < m; j++)
	    {
	      float dxh = gr[j] * gamma[j];
	      sg += dxh;
	      sgx += dxh * ((xr[j] - mu) * rs);
	    }
	  sg /= m;
	  sgx /= m;
	}
      if (!d_x)
	continue;
      float dm = d_mean ? d_mean[i] / m : 0.0f;
      float dr = d_rstd ? -d_rstd[i] * rs * rs * rs / m : 0.0f;
      float *restrict dxr = d_x + (size_t) i * m;
      const float *restrict gr = d_y ? d_y + (size_t) i * m : NULL;
      if (gr)
	for (int j = 0; j < m; j++)
	  {
	    float xh = (xr[j] - mu) * rs;
	    dxr[j] += rs * (gr[j] * gamma[j] - sg - xh * sgx) + dm
		      + dr * (xr[j] - mu);
	  }
      else
	for (int j = 0; j < m; j++)
	  dxr[j] += dm + dr * (xr[j] - mu);
    }
}

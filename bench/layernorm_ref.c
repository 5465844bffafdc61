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

/* Row I's part: its statistics, its contributions to D_GAMMA and D_BETA
   (each may be NULL), and its row of D_X.  */
static inline void
row_grad (int i, int m, const float *restrict x, const float *restrict gamma,
	  float *restrict d_x, float *restrict d_gamma,
	  float *restrict d_beta, const float *restrict d_y)
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
    return;
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
#ifdef _OPENMP
  /* Rows on threads; the gain's and shift's sums an array reduction.  */
  if (d_gamma && d_beta)
    {
#pragma omp parallel for reduction(+ : d_gamma[:m], d_beta[:m])
      for (int i = 0; i < n; i++)
	row_grad (i, m, x, gamma, d_x, d_gamma, d_beta, d_y);
      return;
    }
#endif
  for (int i = 0; i < n; i++)
    row_grad (i, m, x, gamma, d_x, d_gamma, d_beta, d_y);
}

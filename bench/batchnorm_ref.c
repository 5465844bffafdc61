/* batchnorm_ref.c -- hand-written backward of batchnorm.c, same signature
   as the generated batchnorm_grad.

   The forward walks feature by feature (a strided column per feature);
   the expert backward walks the batch row by row with per-feature
   scratch vectors (mean, rstd, the two sums), so every pass is a
   unit-stride loop over features without a reduction, which vectorizes.
   With xhat = (x - mean) * rstd, per feature j over the batch:
     d_beta += sum d_y,  d_gamma += sum d_y * xhat,
     d_x = gamma * rstd * (d_y - (sum d_y + xhat * sum d_y*xhat) / n).  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void
batchnorm_grad_ref (int n, int m, const float *restrict x,
		    const float *restrict gamma, const float *restrict beta,
		    float *restrict y, float *restrict d_x,
		    float *restrict d_gamma, float *restrict d_beta,
		    float *restrict d_y)
{
  (void) beta;
  (void) y;
  if (!d_y)
    return;
  float *scratch = malloc (4 * (size_t) m * sizeof *scratch);
  if (!scratch)
    {
      fprintf (stderr, "batchnorm_grad_ref: out of memory\n");
      abort ();
    }
  float *restrict mean = scratch, *restrict rstd = scratch + m;
  float *restrict sg = scratch + 2 * (size_t) m;
  float *restrict sgx = scratch + 3 * (size_t) m;

  for (int j = 0; j < m; j++)
    mean[j] = rstd[j] = sg[j] = sgx[j] = 0.0f;
  /* Same summation order per feature as the forward (i increasing).  */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      mean[j] += x[(size_t) i * m + j];
  for (int j = 0; j < m; j++)
    mean[j] /= n;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float d = x[(size_t) i * m + j] - mean[j];
	rstd[j] += d * d;
      }
  for (int j = 0; j < m; j++)
    rstd[j] = 1.0f / sqrtf (rstd[j] / n + 1e-5f);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float g = d_y[(size_t) i * m + j];
	sg[j] += g;
	sgx[j] += g * ((x[(size_t) i * m + j] - mean[j]) * rstd[j]);
      }
  if (d_beta)
    for (int j = 0; j < m; j++)
      d_beta[j] += sg[j];
  if (d_gamma)
    for (int j = 0; j < m; j++)
      d_gamma[j] += sgx[j];
  if (d_x)
    {
      for (int j = 0; j < m; j++)
	{
	  sg[j] /= n;
	  sgx[j] /= n;
	}
      for (int i = 0; i < n; i++)
	for (int j = 0; j < m; j++)
	  {
	    size_t q = (size_t) i * m + j;
	    float xh = (x[q] - mean[j]) * rstd[j];
	    d_x[q] += gamma[j] * rstd[j] * (d_y[q] - sg[j] - xh * sgx[j]);
	  }
    }
  free (scratch);
}

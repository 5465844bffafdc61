/* mlp_ref.c -- hand-written backward of mlp.c, same signature as the
   generated mlp_grad.

   The ABI keeps no activations, so the expert backward recomputes the
   forward into scratch (in the forward's own summation order, as axpys
   over rows that vectorize), reusing tanh's output for its derivative
   (1 - h*h) and the softmax for the cross-entropy adjoint
   dz = (softmax (z) - onehot (label)) * d_return / n; then both dense
   layers go backward as in ref_util.h.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "ref_util.h"

void
mlp_grad_ref (int n, int d, int h, int c, const float *restrict x,
	      const float *restrict w1, const float *restrict b1,
	      const float *restrict w2, const float *restrict b2,
	      const int *restrict label, float *restrict d_x,
	      float *restrict d_w1, float *restrict d_b1,
	      float *restrict d_w2, float *restrict d_b2, double d_return)
{
  float *hid = malloc ((size_t) n * h * sizeof *hid);
  float *z = malloc ((size_t) n * c * sizeof *z);
  if (!hid || !z)
    {
      fprintf (stderr, "mlp_grad_ref: out of memory\n");
      abort ();
    }

  /* Forward, layer 1: hid = tanh (b1 + x.w1), row by row.  */
  for (int i = 0; i < n; i++)
    {
      float *restrict hr = hid + (size_t) i * h;
      for (int j = 0; j < h; j++)
	hr[j] = b1[j];
      for (int p = 0; p < d; p++)
	{
	  float a = x[(size_t) i * d + p];
	  const float *restrict wr = w1 + (size_t) p * h;
	  for (int j = 0; j < h; j++)
	    hr[j] += a * wr[j];
	}
      for (int j = 0; j < h; j++)
	hr[j] = tanhf (hr[j]);
    }
  /* Layer 2: z = b2 + hid.w2.  */
  for (int i = 0; i < n; i++)
    {
      float *restrict zr = z + (size_t) i * c;
      for (int j = 0; j < c; j++)
	zr[j] = b2[j];
      for (int p = 0; p < h; p++)
	{
	  float a = hid[(size_t) i * h + p];
	  const float *restrict wr = w2 + (size_t) p * c;
	  for (int j = 0; j < c; j++)
	    zr[j] += a * wr[j];
	}
    }
  /* Cross-entropy: z becomes its adjoint dz in place.  */
  float scale = (float) (d_return / n);
  for (int i = 0; i < n; i++)
    {
      float *restrict zr = z + (size_t) i * c;
      float mx = zr[0];
      for (int j = 1; j < c; j++)
	mx = fmaxf (mx, zr[j]);
      float s = 0.0f;
      for (int j = 0; j < c; j++)
	{
	  zr[j] = expf (zr[j] - mx);
	  s += zr[j];
	}
      float r = scale / s;
      for (int j = 0; j < c; j++)
	zr[j] *= r;
      zr[label[i]] -= scale;
    }
  /* Layer 2 backward; the adjoint of the pre-activation overwrites hid
     once its row has been used: dpre = (dz . w2^T) * (1 - hid^2).  */
  if (d_b2)
    ref_dense_db (n, c, z, d_b2);
  if (d_w2)
    ref_dense_dw (n, h, c, hid, z, d_w2);
  for (int i = 0; i < n; i++)
    {
      float *restrict hr = hid + (size_t) i * h;
      const float *restrict gr = z + (size_t) i * c;
      for (int p = 0; p < h; p++)
	{
	  const float *restrict wr = w2 + (size_t) p * c;
	  float s = 0.0f;
	  for (int j = 0; j < c; j++)
	    s += gr[j] * wr[j];
	  hr[p] = s * (1.0f - hr[p] * hr[p]);
	}
    }
  /* Layer 1 backward.  */
  if (d_b1)
    ref_dense_db (n, h, hid, d_b1);
  if (d_w1)
    ref_dense_dw (n, d, h, x, hid, d_w1);
  if (d_x && ref_dense_dx (n, d, h, w1, hid, d_x))
    {
      fprintf (stderr, "mlp_grad_ref: out of memory\n");
      abort ();
    }
  free (z);
  free (hid);
}

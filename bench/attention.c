/* attention.c -- causal multi-head self-attention as GPT-2-style C code
   writes it (llm.c's attention_forward), float.  qkv[B][T][3C] holds the
   query, key and value of every position packed (C each, NH heads of
   hs = C / NH); for each sample b, position t and head h the scores of t
   against the positions u <= t, scaled by 1 / sqrt (hs), go to
   preatt[B][NH][T][T], their softmax (row maximum subtracted) to
   att[B][NH][T][T] (the entries u > t zeroed), and the weighted sum of
   the values to out[B][T][C].  preatt and att are the caches a training
   loop keeps, outputs like out.  att is written twice: the exponentials,
   then, over the whole row, the normalized probabilities; its shadow is
   the adjoint of the final value.
   Benchmark size: B = 4, T = 64, C = 768, NH = 12 (hs = 64).
   Gradient (ABI): attention_grad (B, T, C, NH, qkv, preatt, att, out,
				   d_qkv, d_preatt, d_att, d_out).  */

#include <math.h>

__attribute__((differentiable))
void
attention (int B, int T, int C, int NH, const float *qkv, float *preatt,
	   float *att, float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
	{
	  const float *q = qkv + (b * T + t) * 3 * C + h * hs;
	  float *srow = preatt + ((b * NH + h) * T + t) * T;
	  float *prow = att + ((b * NH + h) * T + t) * T;
	  float mx = -1e30f;
	  for (int u = 0; u <= t; u++)
	    {
	      const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
	      float s = 0.0f;
	      for (int i = 0; i < hs; i++)
		s += q[i] * k[i];
	      s *= scale;
	      srow[u] = s;
	      if (s > mx)
		mx = s;
	    }
	  float z = 0.0f;
	  for (int u = 0; u <= t; u++)
	    {
	      float e = expf (srow[u] - mx);
	      z += e;
	      prow[u] = e;
	    }
	  for (int u = 0; u < T; u++)
	    prow[u] = u <= t ? prow[u] / z : 0.0f;
	  float *o = out + (b * T + t) * C + h * hs;
	  for (int i = 0; i < hs; i++)
	    o[i] = 0.0f;
	  for (int u = 0; u <= t; u++)
	    {
	      const float *v = qkv + (b * T + u) * 3 * C + 2 * C + h * hs;
	      for (int i = 0; i < hs; i++)
		o[i] += prow[u] * v[i];
	    }
	}
}

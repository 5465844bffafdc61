/* attention_ref.c -- hand-written backward of attention.c, same signature
   as the generated attention_grad; llm.c's attention_backward, one pass
   per (b, t, h) row, reusing the forward's att (the ABI guarantees
   f_grad sees it).

   With p = att's row (its final values), g the total adjoint of p: the
   caller's d_att plus the path through out,
     g[u] = d_att[u] + sum_i d_out[i] v_u[i]               (u <= t),
     d_v_u[i] += p[u] d_out[i],
   the softmax backward over u <= t plus the caller's adjoint of the
   stored scores (preatt holds s, the scaled dot product),
     d_s[u] = p[u] (g[u] - sum_{u' <= t} p[u'] g[u']) + d_preatt[u],
   and the dot product backward (scale = 1 / sqrt (hs)),
     d_q[i] += scale sum_u d_s[u] k_u[i],   d_k_u[i] += scale d_s[u] q[i].
   Entries u > t of att are the constant 0 and get no adjoint; the row
   maximum subtracted in the forward cancels and has none either.  Every
   update over i is a unit-stride axpy that GCC vectorizes; the only
   reductions are the dot products d_out . v_u and p . g.  d_preatt,
   d_att and d_out may be NULL (zero adjoints).  */

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void
attention_grad_ref (int B, int T, int C, int NH, const float *restrict qkv,
		    float *restrict preatt, float *restrict att,
		    float *restrict out, float *restrict d_qkv,
		    float *restrict d_preatt, float *restrict d_att,
		    float *restrict d_out)
{
  (void) preatt;
  (void) out;
  if (!d_qkv || (!d_preatt && !d_att && !d_out))
    return;
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
  size_t C3 = 3 * (size_t) C;
  /* Head by head: the heads of a sample write apart in d_qkv, so the
     (b, h) pairs run on threads (make bench-parallel), each with its g
     and ds; a head's positions t in order, as before.  */
#ifdef _OPENMP
#pragma omp parallel for collapse(2)
#endif
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++)
      {
	float *g = malloc (2 * (size_t) T * sizeof *g);
	if (!g)
	  {
	    fprintf (stderr, "attention_grad_ref: out of memory\n");
	    abort ();
	  }
	float *ds = g + T;
	for (int t = 0; t < T; t++)
	  {
	    size_t row = (((size_t) b * NH + h) * T + t) * T;
	    const float *restrict p = att + row;
	    const float *restrict q = qkv + ((size_t) b * T + t) * C3
				      + (size_t) h * hs;
	    float *restrict dq = d_qkv + ((size_t) b * T + t) * C3
				 + (size_t) h * hs;
	    const float *restrict dout
	      = d_out ? d_out + ((size_t) b * T + t) * C + (size_t) h * hs
		      : NULL;

	    /* g and d_v: through out = sum_u p[u] v_u.  */
	    for (int u = 0; u <= t; u++)
	      g[u] = d_att ? d_att[row + u] : 0.0f;
	    if (dout)
	      for (int u = 0; u <= t; u++)
		{
		  size_t vo = ((size_t) b * T + u) * C3 + 2 * (size_t) C
			      + (size_t) h * hs;
		  const float *restrict v = qkv + vo;
		  float *restrict dv = d_qkv + vo;
		  float a = 0.0f, pu = p[u];
		  for (int i = 0; i < hs; i++)
		    {
		      a += dout[i] * v[i];
		      dv[i] += pu * dout[i];
		    }
		  g[u] += a;
		}

	    /* The softmax backward, and the scores' own adjoint.  */
	    float pg = 0.0f;
	    for (int u = 0; u <= t; u++)
	      pg += p[u] * g[u];
	    for (int u = 0; u <= t; u++)
	      ds[u] = p[u] * (g[u] - pg)
		      + (d_preatt ? d_preatt[row + u] : 0.0f);

	    /* s = scale * q . k_u.  */
	    for (int u = 0; u <= t; u++)
	      {
		size_t ko = ((size_t) b * T + u) * C3 + (size_t) C
			    + (size_t) h * hs;
		const float *restrict k = qkv + ko;
		float *restrict dk = d_qkv + ko;
		float w = scale * ds[u];
		for (int i = 0; i < hs; i++)
		  {
		    dq[i] += w * k[i];
		    dk[i] += w * q[i];
		  }
	      }
	  }
	free (g);
      }
}

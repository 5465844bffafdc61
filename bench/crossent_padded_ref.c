/* crossent_padded_ref.c -- hand-written backward of crossent_padded.c,
   same signature as the generated crossent_padded_grad; llm.c's fused
   crossentropy_softmax_backward, plus the adjoint the caller gives the
   probabilities (an output, its shadow is extra adjoint flowing in).

   It reuses the forward's probs (the ABI guarantees f_grad sees them):
   with p = probs' row, dl = d_losses[n], dp = d_probs' row, over the real
   columns j < V,
     d_logits[j] += (p[j] - (j == target)) dl + p[j] (dp[j] - sum_k p[k] dp[k]).
   The loss term is the fused softmax-cross-entropy adjoint (the 1 / p
   of d(-log p) cancels with the Jacobian), so no exponential or
   logarithm is recomputed.  The pad columns are never read by the
   forward and get nothing; the pad probabilities are constants.  The
   update loop is a unit-stride loop without reduction, so it vectorizes;
   the one reduction per row is p . dp.  d_probs and d_losses may be
   NULL (zero adjoints).  */

#include <stddef.h>

void
crossent_padded_grad_ref (int N, int V, int Vp, const float *restrict logits,
			  const int *restrict target, float *restrict probs,
			  float *restrict losses, float *restrict d_logits,
			  float *restrict d_probs, float *restrict d_losses)
{
  (void) logits;
  (void) losses;
  if (!d_logits || (!d_probs && !d_losses))
    return;
  for (int n = 0; n < N; n++)
    {
      const float *restrict p = probs + (size_t) n * Vp;
      float *restrict dr = d_logits + (size_t) n * Vp;
      float dl = d_losses ? d_losses[n] : 0.0f;
      if (d_probs)
	{
	  const float *restrict dp = d_probs + (size_t) n * Vp;
	  float s = 0.0f;
	  for (int j = 0; j < V; j++)
	    s += p[j] * dp[j];
	  /* p (dp - s) + p dl, one multiply per element.  */
	  float c = dl - s;
	  for (int j = 0; j < V; j++)
	    dr[j] += p[j] * (dp[j] + c);
	}
      else
	for (int j = 0; j < V; j++)
	  dr[j] += p[j] * dl;
      dr[target[n]] -= dl;
    }
}

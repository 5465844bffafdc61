/* crossent_padded.c -- softmax with cross-entropy over a padded
   vocabulary, float, as GPT-2-style C code writes it (llm.c's
   softmax_forward, then crossentropy_forward): rows of Vp logits of which
   the first V are real tokens (Vp rounds V up for alignment).  For each
   row n: the maximum, the exponentials (stored in probs) and their sum
   over j < V, the probabilities probs[n][j] = e / sum for j < V, and a
   separate loop zeroing the pad probs[n][V..Vp-1]; then, in a nest of
   its own, the losses losses[n] = -log (probs[n][target[n]]).  probs
   (the cache a training loop keeps) and losses are outputs; the pad
   logits are never read.  probs is written twice (the exponentials, then
   the quotients): its shadow is the adjoint of the final value.

   The loss is a second nest, as in llm.c (read at the end of the row's
   own nest, after the zeroing loop, it is accepted too).

   logits[N][Vp], target[N] in [0, V), probs[N][Vp], losses[N].
   Benchmark size: N = 32 rows, V = 50257, Vp = 50304 (GPT-2's).
   Gradient (ABI): crossent_padded_grad (N, V, Vp, logits, target, probs,
					 losses, d_logits, d_probs,
					 d_losses).  */

#include <math.h>

__attribute__((differentiable))
void
crossent_padded (int N, int V, int Vp, const float *logits,
		 const int *target, float *probs, float *losses)
{
  for (int n = 0; n < N; n++)
    {
      const float *lr = logits + n * Vp;
      float *pr = probs + n * Vp;
      float mx = -10000.0f;
      for (int j = 0; j < V; j++)
	if (lr[j] > mx)
	  mx = lr[j];
      float sum = 0.0f;
      for (int j = 0; j < V; j++)
	{
	  pr[j] = expf (lr[j] - mx);
	  sum += pr[j];
	}
      for (int j = 0; j < V; j++)
	pr[j] = pr[j] / sum;
      for (int j = V; j < Vp; j++)
	pr[j] = 0.0f;
    }
  for (int n = 0; n < N; n++)
    losses[n] = -logf (probs[n * Vp + target[n]]);
}

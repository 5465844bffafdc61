/* { dg-do run } */
/* Two kernels in the style of llm.c's CPU forward passes, as a user
   copies them: (1) the softmax over padded rows, indexed by two outer
   loops (b, t) into rows of Vp of which V are real, the padding zeroed
   by a loop of its own; (2) causal attention whose score loop compares
   a score with the running maximum before it stores the score (if (v >
   m) m = v; then preatt[u] = v), the exponentials and their sum written
   to the probability row, then normalized in place, the padding of the
   row beyond t zeroed.  Gradients as in softmax-padded-1.c and
   attention-1.c: with y a row's softmax,
     d_logit[j] = y[j] (d_p[j] - sum_{j' < V} y[j'] d_p[j']) for j < V;
   for attention, d_s[u] = y[u] (g[u] - sum_u' y[u'] g[u']) + d_preatt[u],
   g[u] = d_att[u] + sum_i d_out[i] v_u[i], and the q/k/v adjoints from
   d_s scaled.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax_forward (float *probs, const float *logits, int B, int T, int V,
                 int Vp)
{
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      {
        const float *logits_bt = logits + b * T * Vp + t * Vp;
        float *probs_bt = probs + b * T * Vp + t * Vp;
        float maxval = -10000.0f;
        for (int i = 0; i < V; i++)
          if (logits_bt[i] > maxval)
            maxval = logits_bt[i];
        float sum = 0.0f;
        for (int i = 0; i < V; i++)
          {
            probs_bt[i] = expf (logits_bt[i] - maxval);
            sum += probs_bt[i];
          }
        for (int i = 0; i < V; i++)
          probs_bt[i] /= sum;
        for (int i = V; i < Vp; i++)
          probs_bt[i] = 0.0f;
      }
}

__attribute__ ((differentiable))
void
attention_forward (float *out, float *preatt, float *att, const float *inp,
                   int B, int T, int C, int NH)
{
  int C3 = C * 3;
  int hs = C / NH;
  float scale = 1.0 / sqrtf (hs);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *query_t = inp + b * T * C3 + t * C3 + h * hs;
          float *preatt_bth = preatt + b * NH * T * T + h * T * T + t * T;
          float *att_bth = att + b * NH * T * T + h * T * T + t * T;
          float maxval = -10000.0f;
          for (int t2 = 0; t2 <= t; t2++)
            {
              const float *key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
              float val = 0.0f;
              for (int i = 0; i < hs; i++)
                val += query_t[i] * key_t2[i];
              val *= scale;
              if (val > maxval)
                maxval = val;
              preatt_bth[t2] = val;
            }
          float expsum = 0.0f;
          for (int t2 = 0; t2 <= t; t2++)
            {
              float expv = expf (preatt_bth[t2] - maxval);
              expsum += expv;
              att_bth[t2] = expv;
            }
          float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;
          for (int t2 = 0; t2 < T; t2++)
            {
              if (t2 <= t)
                att_bth[t2] *= expsum_inv;
              else
                att_bth[t2] = 0.0f;
            }
          float *out_bth = out + b * T * C + t * C + h * hs;
          for (int i = 0; i < hs; i++)
            out_bth[i] = 0.0f;
          for (int t2 = 0; t2 <= t; t2++)
            {
              const float *value_t2
                  = inp + b * T * C3 + t2 * C3 + h * hs + C * 2;
              float att_btht2 = att_bth[t2];
              for (int i = 0; i < hs; i++)
                out_bth[i] += att_btht2 * value_t2[i];
            }
        }
}

int
main (void)
{
  int B = 2, T = 3, V = 5, Vp = 8;
  float *logits = tg_alloc_f (B * T * Vp), *probs = tg_alloc_f (B * T * Vp);
  tg_fill_f (logits, B * T * Vp, 1, -2, 2);
  TG_GRADCHECK (softmax_forward, probs, logits, &B, &T, &V, &Vp);

  int Ta = 4, C = 6, NH = 2;
  float *inp = tg_alloc_f (B * Ta * 3 * C), *out = tg_alloc_f (B * Ta * C);
  float *preatt = tg_alloc_f (B * NH * Ta * Ta);
  float *att = tg_alloc_f (B * NH * Ta * Ta);
  tg_fill_f (inp, B * Ta * 3 * C, 2, -1, 1);
  TG_GRADCHECK (attention_forward, out, preatt, att, inp, &B, &Ta, &C, &NH);
  TG_GRADCHECK_NULL (attention_forward, "preatt att", out, preatt, att, inp,
                     &B, &Ta, &C, &NH);
  return tg_exit ();
}

/* { dg-do run } */
/* A softmax over padded rows (llm.c's softmax_forward): rows Vp apart of
   which the first V entries are real, the pad zeroed by a loop of its
   own.  Its exponentials are read back by the normalizing loop of the
   same row, which is what the source computes only if no later row
   writes over them: the rows must not meet, Vp >= V, which the kernel
   does not state.  The gradient requires it: checked by the descriptor
   at Vp > V and Vp == V, in double and in float (with the pad written
   through a pointer into the row and the 1/sum taken once), and at
   V > Vp, where the gradient would be of another function, it reports
   the requirement on stderr and aborts instead (it used to return a
   wrong gradient).  Under that requirement the pad lies after the real
   entries, so the maximum cancels as in an unpadded softmax, and the
   zeroed pad leaves the real entries holding the quotients: the
   gradient reads the exponentials as probs times the sum instead of
   computing them again (double; the float kernel's 1/sum is not).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
smax_pad (int N, int V, int Vp, const double *logits, double *probs)
{
  for (int n = 0; n < N; n++)
    {
      const double *lr = logits + n * Vp;
      double *pr = probs + n * Vp;
      double mx = -1e300;
      for (int j = 0; j < V; j++)
        if (lr[j] > mx)
          mx = lr[j];
      double s = 0;
      for (int j = 0; j < V; j++)
        {
          pr[j] = exp (lr[j] - mx);
          s += pr[j];
        }
      for (int j = 0; j < V; j++)
        pr[j] /= s;
      for (int j = V; j < Vp; j++)
        pr[j] = 0;
    }
}

__attribute__ ((differentiable))
void
smax_pad_f (int N, int V, int Vp, const float *logits, float *probs)
{
  for (int n = 0; n < N; n++)
    {
      float mx = -1e30f;
      for (int j = 0; j < V; j++)
        mx = fmaxf (mx, logits[n * Vp + j]);
      float s = 0;
      for (int j = 0; j < V; j++)
        {
          probs[n * Vp + j] = expf (logits[n * Vp + j] - mx);
          s += probs[n * Vp + j];
        }
      float inv = 1.0f / s;
      for (int j = 0; j < V; j++)
        probs[n * Vp + j] *= inv;
      float *pad = probs + n * Vp + V;
      for (int j = 0; j < Vp - V; j++)
        pad[j] = 0;
    }
}

/* smax_pad_grad at V > Vp, in a child: it must abort with the
   requirement on stderr.  */
static void
refused_sizes (void)
{
  enum { N = 3, V = 5, Vp = 3, L = (N - 1) * Vp + V };
  double logits[L], probs[L], d_logits[L] = { 0 }, d_probs[L];
  tg_fill (logits, L, 1, -2, 2);
  tg_fill (d_probs, L, 2, -1, 1);
  smax_pad (N, V, Vp, logits, probs);
  smax_pad_grad (N, V, Vp, logits, probs, d_logits, d_probs);
}

static void
check_refused_sizes (void)
{
  char buf[1024];
  CHECK (tg_child_aborts (refused_sizes, buf, sizeof buf));
  CHECK (strstr (buf, "tensorgrad: smax_pad_grad: the sizes do not meet "
                      "what this gradient requires, Vp - V >= 0: each "
                      "iteration of the loop over 'n' writes elements of "
                      "'probs' that no other iteration writes\n")
         != NULL);
}

int
main (void)
{
  static const int sizes[][3] = { { 3, 5, 7 }, { 2, 4, 4 }, { 1, 6, 9 } };
  for (int c = 0; c < 3; c++)
    {
      int N = sizes[c][0], V = sizes[c][1], Vp = sizes[c][2];
      double logits[64], probs[64];
      float lf[64], pf[64];
      tg_fill (logits, N * Vp, 3 + c, -2, 2);
      for (int i = 0; i < N * Vp; i++)
        lf[i] = (float) logits[i];
      TG_GRADCHECK (smax_pad, &N, &V, &Vp, logits, probs);
      TG_GRADCHECK (smax_pad_f, &N, &V, &Vp, lf, pf);
    }
  check_refused_sizes ();
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "require: Vp - V >= 0: each iteration of the loop over 'n' writes elements of 'probs' that no other iteration writes" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "cancel: mx gets no adjoint: the results do not change when an element of it moves" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "reuse: probs.v1\\\[j \\+ n \\* Vp\\\] is probs\\\[j \\+ n \\* Vp\\\] \\* s\\\[n\\\]" 2 } } */

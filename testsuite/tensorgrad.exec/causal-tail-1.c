/* { dg-do run } */
/* A causal row written by two loops: the normalized entries u <= t, then
   the tail u > t zeroed by a loop of its own that starts at t + 1.  The
   two loops write disjoint parts of every row, which defines the row
   once (no overwrite).  Float as attention writes it, the rows of
   several heads ((b * NH + h) * T + t) * T and 1/z taken once; double
   with the row through a pointer and the tail loop counting from t + 1
   on that pointer; the tail zeroed first; and attention with its
   probabilities normalized in place over u <= t and the tail zeroed in
   a loop of its own, scores and probabilities outputs (also with their
   shadows NULL).  A tail that starts at t overwrites the last real entry,
   which stays refused (err/err-causal-tail-overlap-1.c).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
heads_causal (int B, int NH, int T, const float *s, float *p)
{
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++)
      for (int t = 0; t < T; t++)
        {
          const float *sr = s + ((b * NH + h) * T + t) * T;
          float *pr = p + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            mx = fmaxf (mx, sr[u]);
          float z = 0;
          for (int u = 0; u <= t; u++)
            {
              float e = expf (sr[u] - mx);
              pr[u] = e;
              z += e;
            }
          float iz = 1.0f / z;
          for (int u = 0; u <= t; u++)
            pr[u] *= iz;
          for (int u = t + 1; u < T; u++)
            pr[u] = 0.0f;
        }
}

__attribute__ ((differentiable))
void
causal_d (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      double mx = -1e300;
      for (int u = 0; u < t + 1; u++)
        if (s[t * T + u] > mx)
          mx = s[t * T + u];
      double z = 0;
      for (int u = 0; u < t + 1; u++)
        {
          p[t * T + u] = exp (s[t * T + u] - mx);
          z += p[t * T + u];
        }
      for (int u = 0; u < t + 1; u++)
        p[t * T + u] = p[t * T + u] / z;
      double *tail = p + t * T + t + 1;
      for (int u = 0; u < T - t - 1; u++)
        tail[u] = 0;
    }
}

/* The tail zeroed before the row is written: the loops still meet
   nowhere.  */
__attribute__ ((differentiable))
void
tail_first (int T, const double *s, double *p)
{
  for (int t = 0; t < T; t++)
    {
      for (int u = t + 1; u < T; u++)
        p[t * T + u] = 0;
      double z = 0;
      for (int u = 0; u <= t; u++)
        z += exp (s[t * T + u]);
      for (int u = 0; u <= t; u++)
        p[t * T + u] = exp (s[t * T + u]) / z;
    }
}

__attribute__ ((differentiable))
void
attention_tail (int B, int T, int C, int NH, const float *qkv, float *sc,
                float *p, float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *q = qkv + (b * T + t) * 3 * C + h * hs;
          float *srow = sc + ((b * NH + h) * T + t) * T;
          float *prow = p + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            {
              const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
              float s = 0;
              for (int i = 0; i < hs; i++)
                s += q[i] * k[i];
              s *= scale;
              srow[u] = s;
              mx = fmaxf (mx, s);
            }
          float z = 0;
          for (int u = 0; u <= t; u++)
            {
              prow[u] = expf (srow[u] - mx);
              z += prow[u];
            }
          for (int u = 0; u <= t; u++)
            prow[u] /= z;
          for (int u = t + 1; u < T; u++)
            {
              prow[u] = 0.0f;
              srow[u] = 0.0f;
            }
          float *o = out + (b * T + t) * C + h * hs;
          for (int i = 0; i < hs; i++)
            o[i] = 0;
          for (int u = 0; u <= t; u++)
            for (int i = 0; i < hs; i++)
              o[i] += prow[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
        }
}

int
main (void)
{
  int B = 2, NH = 3, T = 5;
  int n = B * NH * T * T;
  float *s = tg_alloc_f (n), *p = tg_alloc_f (n);
  tg_fill_f (s, n, 1, -2, 2);
  TG_GRADCHECK (heads_causal, &B, &NH, &T, s, p);
  for (int i = 0; i < n; i++)
    if ((i % T) > (i / T) % T)
      CHECK (p[i] == 0.0f);

  int T2 = 6;
  double *sd = tg_alloc (T2 * T2), *pd = tg_alloc (T2 * T2);
  tg_fill (sd, T2 * T2, 2, -2, 2);
  TG_GRADCHECK (causal_d, &T2, sd, pd);
  TG_GRADCHECK (tail_first, &T2, sd, pd);

  int C = 6, NH2 = 2, T3 = 4;
  float *qkv = tg_alloc_f (B * T3 * 3 * C);
  float *sc = tg_alloc_f (B * NH2 * T3 * T3), *pa = tg_alloc_f (B * NH2 * T3 * T3);
  float *out = tg_alloc_f (B * T3 * C);
  tg_fill_f (qkv, B * T3 * 3 * C, 3, -1, 1);
  TG_GRADCHECK (attention_tail, &B, &T3, &C, &NH2, qkv, sc, pa, out);
  TG_GRADCHECK_NULL (attention_tail, "sc p", &B, &T3, &C, &NH2, qkv, sc, pa,
                     out);
  return tg_exit ();
}

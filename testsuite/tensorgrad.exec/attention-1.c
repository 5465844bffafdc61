/* { dg-do run } */
/* Self-attention as a transformer's forward writes it in C: for each
   sample b, position t and head h, the scores of t against the positions
   u <= t (causal), their softmax, and the weighted sum of the values.
   q, k and v are rows of one packed qkv buffer (3 C per position, each
   head hs = C / NH wide), reached through pointer offsets.  The scores
   and the probabilities are outputs too, the caches a training loop keeps;
   the probability loop runs over the whole row, dividing the first t + 1
   and zeroing the rest.  With y the softmax of the row's scores s,
     d_s[u] = y[u] (d_p[u] + sum_i d_out[i] v_u[i]
                    - sum_{u' <= t} y[u'] (d_p[u'] + sum_i d_out[i] v_u'[i]))
              + d_sc[u],
     d_q[i] += scale sum_u d_s[u] k_u[i],  d_k_u[i] += scale d_s[u] q[i],
     d_v_u[i] += y[u] d_out[i].
   Variants: float with compare-and-assign for the maximum; double with
   fmax and the reciprocal 1 / z computed once, q, k and v in separate
   arrays; double without the causal mask (u < T), the scores in a local
   row rewritten for every t.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
attention (int B, int T, int C, int NH, const float *qkv, float *sc,
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
              if (s > mx)
                mx = s;
            }
          float z = 0;
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
            o[i] = 0;
          for (int u = 0; u <= t; u++)
            for (int i = 0; i < hs; i++)
              o[i] += prow[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
        }
}

__attribute__ ((differentiable))
void
attention_d (int T, int NH, int hs, const double *q, const double *k,
             const double *v, double *sc, double *p, double *out)
{
  double scale = 1.0 / sqrt (hs);
  int C = NH * hs;
  for (int t = 0; t < T; t++)
    for (int h = 0; h < NH; h++)
      {
        double mx = -1e300;
        for (int u = 0; u < t + 1; u++)
          {
            double s = 0;
            for (int i = 0; i < hs; i++)
              s += q[t * C + h * hs + i] * k[u * C + h * hs + i];
            sc[(h * T + t) * T + u] = s * scale;
            mx = fmax (mx, sc[(h * T + t) * T + u]);
          }
        double z = 0;
        for (int u = 0; u < t + 1; u++)
          {
            p[(h * T + t) * T + u] = exp (sc[(h * T + t) * T + u] - mx);
            z += p[(h * T + t) * T + u];
          }
        double rz = 1.0 / z;
        for (int u = 0; u < T; u++)
          p[(h * T + t) * T + u] = u <= t ? p[(h * T + t) * T + u] * rz : 0;
        for (int i = 0; i < hs; i++)
          {
            double a = 0;
            for (int u = 0; u <= t; u++)
              a += p[(h * T + t) * T + u] * v[u * C + h * hs + i];
            out[t * C + h * hs + i] = a;
          }
      }
}

__attribute__ ((differentiable))
void
attention_full (int T, int hs, const double *q, const double *k,
                const double *v, double *out)
{
  for (int t = 0; t < T; t++)
    {
      double w[T];
      double mx = -1e300;
      for (int u = 0; u < T; u++)
        {
          double s = 0;
          for (int i = 0; i < hs; i++)
            s += q[t * hs + i] * k[u * hs + i];
          w[u] = s;
          if (s > mx)
            mx = s;
        }
      double z = 0;
      for (int u = 0; u < T; u++)
        {
          w[u] = exp (w[u] - mx);
          z += w[u];
        }
      for (int i = 0; i < hs; i++)
        {
          double a = 0;
          for (int u = 0; u < T; u++)
            a += w[u] / z * v[u * hs + i];
          out[t * hs + i] = a;
        }
    }
}

int
main (void)
{
  int B = 2, T = 5, C = 6, NH = 2;
  float *qkv = tg_alloc_f (B * T * 3 * C);
  float *sc = tg_alloc_f (B * NH * T * T), *p = tg_alloc_f (B * NH * T * T);
  float *out = tg_alloc_f (B * T * C);
  tg_fill_f (qkv, B * T * 3 * C, 1, -1, 1);
  TG_GRADCHECK (attention, &B, &T, &C, &NH, qkv, sc, p, out);
  TG_GRADCHECK_NULL (attention, "sc p", &B, &T, &C, &NH, qkv, sc, p, out);

  int Td = 4, hs = 3;
  double *q = tg_alloc (Td * NH * hs), *k = tg_alloc (Td * NH * hs + 2);
  double *v = tg_alloc (Td * NH * hs);
  double *scd = tg_alloc (NH * Td * Td), *pd = tg_alloc (NH * Td * Td);
  double *od = tg_alloc (Td * NH * hs);
  tg_fill (q, Td * NH * hs, 2, -1, 1);
  tg_fill (k, Td * NH * hs + 2, 3, -1, 1);
  tg_fill (v, Td * NH * hs, 4, -1, 1);
  TG_GRADCHECK (attention_d, &Td, &NH, &hs, q, k + 2, v, scd, pd, od);
  TG_GRADCHECK_NULL (attention_d, "q v", &Td, &NH, &hs, q, k + 2, v, scd,
                     pd, od);

  int Tf = 3, hf = 2;
  double *qf = tg_alloc (Tf * hf), *kf = tg_alloc (Tf * hf);
  double *vf = tg_alloc (Tf * hf), *of = tg_alloc (Tf * hf);
  tg_fill (qf, Tf * hf, 5, -1, 1);
  tg_fill (kf, Tf * hf, 6, -1, 1);
  tg_fill (vf, Tf * hf, 7, -1, 1);
  TG_GRADCHECK (attention_full, &Tf, &hf, qf, kf, vf, of);
  return tg_exit ();
}


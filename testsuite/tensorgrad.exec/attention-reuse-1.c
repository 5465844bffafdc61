/* { dg-do run } */
/* The gradient of causal attention in the expert's shape, two rows of
   u <= t passes per row and head, reading the probabilities the forward
   stored: d_s[u] = y[u] (g[u] - sum_u' y[u'] g[u']) with g the adjoint
   of y, no exp, no maximum, no sum of the exponentials and no scores
   recomputed.  The kernels of attention-1.c: llm.c's form (the maximum
   by compare-and-assign, the probabilities normalized over the whole row
   with p[u] = u <= t ? p[u] / z : 0, float, scores and probabilities
   outputs, also with their shadows NULL) and the reciprocal 1 / z taken
   once (double).  What makes the shape:
     cancel    the maximum gets no adjoint (the select's arm is looked at
               over u <= t, where it is picked), and neither do the
               unscaled scores that only the maximum reads;
     reuse     e[u] / z is p[u] where u <= t, also as (1 / z) * e[u];
               e[u] and exp (s[u] - mx) are p[u] * z;
     bounds    the adjoint loops guarded by u <= t run to t + 1;
     rescale   the adjoints divided by z are kept times z, so that z is
               read no more.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
attention_llm (int B, int T, int C, int NH, const float *qkv, float *sc,
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
attention_rz (int T, int NH, int hs, const double *q, const double *k,
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

int
main (void)
{
  int B = 2, T = 5, C = 6, NH = 2;
  float *qkv = tg_alloc_f (B * T * 3 * C);
  float *sc = tg_alloc_f (B * NH * T * T), *p = tg_alloc_f (B * NH * T * T);
  float *out = tg_alloc_f (B * T * C);
  tg_fill_f (qkv, B * T * 3 * C, 1, -1, 1);
  TG_GRADCHECK (attention_llm, &B, &T, &C, &NH, qkv, sc, p, out);
  TG_GRADCHECK_NULL (attention_llm, "sc p", &B, &T, &C, &NH, qkv, sc, p, out);

  int Td = 4, hs = 3;
  double *q = tg_alloc (Td * NH * hs), *k = tg_alloc (Td * NH * hs + 2);
  double *v = tg_alloc (Td * NH * hs);
  double *scd = tg_alloc (NH * Td * Td), *pd = tg_alloc (NH * Td * Td);
  double *od = tg_alloc (Td * NH * hs);
  tg_fill (q, Td * NH * hs, 2, -1, 1);
  tg_fill (k, Td * NH * hs + 2, 3, -1, 1);
  tg_fill (v, Td * NH * hs, 4, -1, 1);
  TG_GRADCHECK (attention_rz, &Td, &NH, &hs, q, k + 2, v, scd, pd, od);
  TG_GRADCHECK_NULL (attention_rz, "q v", &Td, &NH, &hs, q, k + 2, v, scd,
                     pd, od);

  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "cancel: mx gets no adjoint" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "bounds: the loop over u runs to 1 \\+ t, where its statements run" 2 } } */
/* { dg-final { scan-tensorgrad-dump-times "rescale: d_z holds z times its adjoint" 2 } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "max \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "\\bz\\\[" } } */

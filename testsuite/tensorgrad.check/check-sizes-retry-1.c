/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* The check's first sample sizes (B=3, T=2, C=4, NH=5) give a head width
   C / NH of 0 and a scale 1 / sqrtf (0): the results are not finite, so
   the check tries every size 3 once, where they are.  Causal attention
   over packed q, k, v.  */

#include <math.h>

__attribute__ ((differentiable))
void
attention (int B, int T, int C, int NH, const float *qkv, float *p, /* { dg-message "gradient of .attention. checked at B=3, T=3, C=3, NH=3: worst relative error \[0-9.e+-\]+ in .d_qkv." } */
           float *out)
{
  int hs = C / NH;
  float scale = 1.0f / sqrtf (hs);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int h = 0; h < NH; h++)
        {
          const float *q = qkv + (b * T + t) * 3 * C + h * hs;
          float *prow = p + ((b * NH + h) * T + t) * T;
          float mx = -1e30f;
          for (int u = 0; u <= t; u++)
            {
              const float *k = qkv + (b * T + u) * 3 * C + C + h * hs;
              float s = 0;
              for (int i = 0; i < hs; i++)
                s += q[i] * k[i];
              prow[u] = s * scale;
              mx = fmaxf (mx, prow[u]);
            }
          float z = 0;
          for (int u = 0; u <= t; u++)
            {
              prow[u] = expf (prow[u] - mx);
              z += prow[u];
            }
          for (int u = 0; u <= t; u++)
            prow[u] /= z;
          float *o = out + (b * T + t) * C + h * hs;
          for (int i = 0; i < hs; i++)
            {
              float a = 0;
              for (int u = 0; u <= t; u++)
                a += prow[u] * qkv[(b * T + u) * 3 * C + 2 * C + h * hs + i];
              o[i] = a;
            }
        }
}

/* { dg-do run } */
/* A causal weighted sum, as attention's output is (float and double):
     out[t][i] = sum_{u <= t} p[t][u] v[u][i],
   so d_p[t][u] += sum_i d_out[t][i] v[u][i] and
   d_v[u][i] += sum_{t >= u} p[t][u] d_out[t][i].  The sum over u is
   triangular (u < t + 1): schedule.c puts i innermost in d_p's
   statement, a dot product along rows of v and d_out, though u's
   bound depends on t, instead of the forward's u innermost, a stride of
   a row of v.  Sizes 1, 5 x 3 and 6 x 19 (lanes and a rest); checked
   against central differences, also with NULL shadows.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include "tg-test.h"

__attribute__ ((differentiable))
void
causal (int n, int m, const float *p, const float *v, float *out)
{
  for (int t = 0; t < n; t++)
    for (int i = 0; i < m; i++)
      {
        float acc = 0.0f;
        for (int u = 0; u <= t; u++)
          acc += p[t * n + u] * v[u * m + i];
        out[t * m + i] = acc;
      }
}

__attribute__ ((differentiable))
void
causal_d (int n, int m, const double *p, const double *v, double *out)
{
  for (int t = 0; t < n; t++)
    for (int i = 0; i < m; i++)
      {
        double acc = 0.0;
        for (int u = 0; u <= t; u++)
          acc += p[t * n + u] * v[u * m + i];
        out[t * m + i] = acc;
      }
}

static void
check (int n, int m)
{
  float *p = tg_alloc_f (n * n), *v = tg_alloc_f (n * m);
  float *out = tg_alloc_f (n * m);
  double *pd = tg_alloc (n * n), *vd = tg_alloc (n * m);
  double *outd = tg_alloc (n * m);
  tg_fill_f (p, n * n, 1, -1, 1);
  tg_fill_f (v, n * m, 2, -1, 1);
  tg_fill (pd, n * n, 3, -1, 1);
  tg_fill (vd, n * m, 4, -1, 1);
  TG_GRADCHECK (causal, &n, &m, p, v, out);
  TG_GRADCHECK_NULL (causal, "p", &n, &m, p, v, out);
  TG_GRADCHECK_NULL (causal, "v", &n, &m, p, v, out);
  TG_GRADCHECK (causal_d, &n, &m, pd, vd, outd);
  TG_GRADCHECK_NULL (causal_d, "v", &n, &m, pd, vd, outd);
}

int
main (void)
{
  check (1, 1);
  check (5, 3);
  check (6, 19);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-after schedule "for \\(fused\\) t < n, u < 1 \\+ t, i < m:" } } */
/* { dg-final { scan-tensorgrad-backward "for \\(fused\\) t < n, u < 1 \\+ t, i < m:" } } */

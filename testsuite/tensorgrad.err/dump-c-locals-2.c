/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=dump-c-locals-2.gen.c -fdump-tree-gimple" } */
/* dump-c and the GIMPLE declare the same locals for statements that run
   as one nest of their own loops (lib/back/lower.c step 5): a layer
   norm's gradient, whose rows pass split its fused nest over a row,
   computes the values the statements of each row loop share once in the
   fast nest and per statement in the slow one.  (A softmax's was the
   example until merge.c made its row one update after the sum.)  */

#include <math.h>

__attribute__ ((differentiable))
void
layernorm (int n, int m, const float *x, const float *gamma,
           const float *beta, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += x[i * m + j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
        v += (x[i * m + j] - mean) * (x[i * m + j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);
      for (int j = 0; j < m; j++)
        y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+ statements \[0-9\]+ to \[0-9\]+: one nest of their own loops" } } */
/* { dg-final { scan-tensorgrad-locals dump-c-locals-2.gen.c layernorm_grad } } */

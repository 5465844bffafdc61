/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=dump-c-locals-2.gen.c -fdump-tree-gimple" } */
/* dump-c and the GIMPLE declare the same locals for statements that run
   as one nest of their own loops (lib/back/lower.c step 5): a softmax's
   gradient, whose rows pass split its fused nest over a row, computes
   the values the statements of each row loop share once in the fast
   nest and per statement in the slow one.  */

#include <math.h>

__attribute__ ((differentiable))
void
softmax (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += expf (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (x[i * m + j] - mx) / s;
    }
}

/* { dg-final { scan-tensorgrad-dump "lower: stage \[0-9\]+ statements \[0-9\]+ to \[0-9\]+: one nest of their own loops" } } */
/* { dg-final { scan-tensorgrad-locals dump-c-locals-2.gen.c softmax_grad } } */

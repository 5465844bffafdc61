/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-O3 -mavx2 -fplugin-arg-tensorgrad-dump" } */
/* lib/passes/lanes.c step 6: where GCC vectorizes loops with a rest
   itself (-O3) and the vectors hold 8 floats or more (AVX here;
   target-clones' versions too), a sum keeps 32 partial sums, four
   vectors of them, not 8: one vector of 8 made the row's statistics of
   a layer norm's gradient a chain of dependent vector additions, its
   loop bound by their latency (bench/layernorm.c's gradient took 0.134
   ms in lanes of 8, 0.116 in 32, one thread, AVX-512 CPU).  At -O3
   without AVX, lanes-o3-1.c: 8.  rowdot as there: the row's dot product
   computed again, one reduction in lanes; layernorm's sums and its
   gradient's.  */

#include <math.h>

__attribute__ ((differentiable))
void
rowdot (int n, int m, const float *x, const float *w, float *r)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * w[j];
      r[i] = s * s;
    }
}

__attribute__ ((differentiable))
void
layernorm (int n, int m, const float *x, const float *gamma, float *y)
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
	y[i * m + j] = (x[i * m + j] - mean) * rstd * gamma[j];
    }
}

/* { dg-final { scan-tensorgrad-dump "lanes: 1 loop\\(s\\) run in lanes of 32, 1 reduction\\(s\\) sum in lanes" } } */
/* { dg-final { scan-tensorgrad-dump "lanes: \[0-9\]+ loop\\(s\\) run in lanes of 32, 2 reduction\\(s\\) sum in lanes" } } */
/* { dg-final { scan-tensorgrad-dump-not "lanes of 8" } } */

/* { dg-do compile } */
/* { dg-options "-O3 -march=x86-64-v3 -fopenmp -fplugin-arg-tensorgrad-vector-forward" } */
/* -fplugin-arg-tensorgrad-vector-forward vectorizes the kernels' own
   loops: softmax's sum of expf calls libmvec's 8-float expf, its row
   maximum (fmaxf, no call left: forward_minmax) takes vmaxps, as does a
   row maximum written as a branch (llm.c's if (x > mx) mx = x), and the
   dot products of an OpenMP kernel (the scores of causal attention and
   their running maximum, as llm.c writes them) sum in vector lanes in the function GCC outlines
   from its region, which copies the kernel's options.  Without the
   option GCC calls the scalar expf (vecmath.exp's vector-math concerns
   the gradients' calls only) and adds the products in order (vector
   multiplies, then one scalar add after another), and this test fails
   (checked).  */

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

__attribute__ ((differentiable))
void
rowmax_if (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = -10000.0f;
      for (int j = 0; j < m; j++)
        if (x[i * m + j] > mx)
          mx = x[i * m + j];
      y[i] = mx;
    }
}

__attribute__ ((differentiable))
void
scores (int T, int C, const float *q, const float *k, float *att, float *m)
{
  float scale = 1.0f / sqrtf (C);
#pragma omp parallel for
  for (int t = 0; t < T; t++)
    {
      float mx = -1e30f;
      for (int u = 0; u <= t; u++)
        {
          float s = 0.0f;
          for (int i = 0; i < C; i++)
            s += q[t * C + i] * k[u * C + i];
          s *= scale;
          att[t * T + u] = s;
          if (s > mx)
            mx = s;
        }
      m[t] = mx;
    }
}

/* { dg-final { tg-asm-function softmax {call\s+_ZGVdN8v_expf} "calls libmvec's expf" } } */
/* { dg-final { tg-asm-function softmax {vmaxps\s[^\n]*%ymm} "takes the maximum in vector lanes" } } */
/* { dg-final { tg-asm-function rowmax_if {vmaxps\s[^\n]*%ymm} "takes the maximum in vector lanes" } } */
/* { dg-final { tg-asm-function scores._omp_fn.0 {v(fmadd[0-9]+ps|addps)\s[^\n]*%ymm} "sums in vector lanes" } } */

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* Optional inputs under the compile-time check: the check takes every
   array the kernel tests against NULL as given (its test holds), sizes it
   by the accesses behind the test, and checks its shadow with the
   others.  A dense layer with an optional bias, a layer norm with
   optional scale and shift in double and float.  */

#include <math.h>
#include <stddef.h>

__attribute__ ((differentiable))
void
dense (int n, int m, int k, const double *x, const double *w, /* { dg-message "gradient of .dense. checked at n=3, m=2, k=4: worst relative error \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_w., \[0-9.e+-\]+ in .d_b." } */
       const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = b != NULL ? b[j] : 0;
	for (int l = 0; l < k; l++)
	  s += x[i * k + l] * w[j * k + l];
	y[i * m + j] = tanh (s);
      }
}

__attribute__ ((differentiable))
void
layernorm (int N, int D, const double *x, const double *g, const double *b, /* { dg-message "gradient of .layernorm. checked at N=3, D=2: worst relative error \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_g., \[0-9.e+-\]+ in .d_b." } */
	   double *y)
{
  for (int n = 0; n < N; n++)
    {
      double m = 0;
      for (int i = 0; i < D; i++)
	m += x[n * D + i];
      m /= D;
      double v = 0;
      for (int i = 0; i < D; i++)
	v += (x[n * D + i] - m) * (x[n * D + i] - m);
      double r = 1 / sqrt (v / D + 1e-5);
      for (int i = 0; i < D; i++)
	y[n * D + i] = (x[n * D + i] - m) * r * (g ? g[i] : 1) + (b ? b[i] : 0);
    }
}

__attribute__ ((differentiable))
void
layernorm_f (int N, int D, const float *x, const float *g, const float *b, /* { dg-message "gradient of .layernorm_f. checked at N=3, D=2: worst relative error \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_g., \[0-9.e+-\]+ in .d_b." } */
	     float *y)
{
  for (int n = 0; n < N; n++)
    {
      float m = 0;
      for (int i = 0; i < D; i++)
	m += x[n * D + i];
      m /= D;
      float v = 0;
      for (int i = 0; i < D; i++)
	v += (x[n * D + i] - m) * (x[n * D + i] - m);
      float r = 1 / sqrtf (v / D + 1e-5f);
      for (int i = 0; i < D; i++)
	{
	  float s = (x[n * D + i] - m) * r;
	  if (g)
	    s *= g[i];
	  if (b)
	    s += b[i];
	  y[n * D + i] = s;
	}
    }
}

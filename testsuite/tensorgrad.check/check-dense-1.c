/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* A dense layer with tanh, y = tanh (x W^T + b): every input's shadow is
   listed with its worst relative error, then the sizes the check chose
   for n, m, k (distinct, in parameter order).  */

#include <math.h>

__attribute__ ((differentiable))
void
dense_tanh (int n, int m, int k, const double *x, const double *w, /* { dg-message "gradient of .dense_tanh. checked at n=3, m=2, k=4: worst relative error \[0-9.e+-\]+ in .d_x., \[0-9.e+-\]+ in .d_w., \[0-9.e+-\]+ in .d_b." } */
	    const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double s = b[j];
	for (int l = 0; l < k; l++)
	  s += x[i * k + l] * w[j * k + l];
	y[i * m + j] = tanh (s);
      }
}

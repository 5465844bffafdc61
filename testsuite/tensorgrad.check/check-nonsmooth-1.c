/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* relu, fabs and a max-reduction are checked at inputs away from their
   kinks (every input is at least 1/8 from 0; ties have probability 0).  */

#include <math.h>

__attribute__ ((differentiable))
void
kinks (int n, int m, const double *x, double *y) /* { dg-message "gradient of .kinks. checked at n=3, m=2: worst relative error \[0-9.e+-\]+ in .d_x." } */
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 0; j < m; j++)
	mx = fmax (mx, fabs (x[i * m + j]) + (x[i * m + j] > 0 ? x[i * m + j] : 0));
      y[i] = mx;
    }
}

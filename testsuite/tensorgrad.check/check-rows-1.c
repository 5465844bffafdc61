/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* The interpreter runs the statements that lib/back/lower.c puts in one
   nest of their own loops (te_lower_run) as one nest too: a softmax's
   gradient, whose rows pass split its fused nest over a row, is checked
   against finite differences.  */

#include <math.h>

__attribute__ ((differentiable))
void
softmax (int n, int m, const double *x, double *y) /* { dg-message "gradient of .softmax. checked at n=3, m=2: worst relative error \[0-9.e+-\]+ in .d_x." } */
{
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmax (mx, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        s += exp (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = exp (x[i * m + j] - mx) / s;
    }
}

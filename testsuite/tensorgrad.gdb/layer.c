/* The kernel gdb.exp steps through: two loop nests, each writing an
   output, whose gradient nothing in this file calls.  The lines gdb.exp
   stops at are marked LINE-Y and LINE-Z.  */
#include <math.h>

__attribute__ ((differentiable))
void
layer (int n, int m, const double *x, const double *w, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = tanh (x[i * m + j] * w[j]);   /* LINE-Y */
  for (int k = 0; k < m; k++)
    z[k] = w[k] * w[k];                          /* LINE-Z */
}

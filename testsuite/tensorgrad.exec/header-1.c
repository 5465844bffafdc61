/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-header=header-1.gen.h -I." } */
/* { dg-additional-sources "header-1-aux.c" } */
/* -fplugin-arg-tensorgrad-header writes the prototypes of this file's
   gradients; header-1-aux.c, another translation unit, includes it and
   calls them (a VLA kernel's among them).  The static kernel's gradient
   is not in the header.  */

#include <math.h>

__attribute__ ((differentiable))
void
scale_exp (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = exp (a * x[i]);
}

__attribute__ ((differentiable))
void
rows (int n, int m, const double x[n][m], double y[n])
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += x[i][j] * x[i][j];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
static void
hidden (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

void
use_hidden (int n, const double *x, double *y)
{
  hidden (n, x, y);
}

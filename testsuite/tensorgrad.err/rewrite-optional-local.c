/* { dg-do compile } */
/* How to rewrite (README): a computed pointer tested against NULL.  A
   layer with an optional table of per-row gains, tested through the
   pointer to the row.  Refused at the test.  The rewrite tests the
   parameter itself (tensorgrad.exec/rewrite-optional-local.c).  */

#include <stddef.h>

__attribute__ ((differentiable))
void
gain_rows (int n, int m, const double *x, const double *gain, double *y)
{
  for (int i = 0; i < n; i++)
    {
      const double *g = gain ? gain + i * m : NULL;
      for (int j = 0; j < m; j++)
        y[i * m + j] = (g ? g[j] : 1) * x[i * m + j]; /* { dg-error "only a pointer parameter of the kernel can be tested against NULL" } */
      /* { dg-message "test the parameter itself, as in 'bias != NULL \\? bias\\\[o\\\] : 0'" "" { target *-*-* } .-1 } */
    }
}

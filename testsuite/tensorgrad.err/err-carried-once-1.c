/* { dg-do compile } */
/* Attention for one query computed online (flash-style): the running
   maximum m rescales a row accumulator in a loop inside the loop that
   carries m.  Two statements read m; the refusal is reported once, at
   the first.  */

#include <math.h>

__attribute__ ((differentiable))
void
flash_row (int n, int d, const double *s, const double *v, double *out)
{
  double acc[d];
  double m = -1e30, l = 0;
  for (int i = 0; i < d; i++)
    acc[i] = 0;
  for (int u = 0; u < n; u++)
    {
      double mn = s[u] > m ? s[u] : m;
      double corr = exp (m - mn), p = exp (s[u] - mn); /* { dg-error "loop-carried scalar 'm' \\(a reduction or recurrence\\) is not supported yet" } */
      l = l * corr + p;
      for (int i = 0; i < d; i++)
        acc[i] = acc[i] * corr + p * v[u * d + i];
      m = mn;
    }
  for (int i = 0; i < d; i++)
    out[i] = acc[i] / l;
}
/* { dg-message "the gradient would need its value in every iteration" "" { target *-*-* } 20 } */

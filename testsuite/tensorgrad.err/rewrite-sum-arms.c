/* { dg-do compile } */
/* How to rewrite (README): a sum added up in the second arm of an
   if/else that rewrites the row.  Masked attention weights: each row of
   scores copied into a scratch row, the masked entries cleared and the
   others exponentiated in place, their sum added up in the else arm.
   Refused at the use of the sum.  The rewrite, the sum in a loop of its
   own, is tensorgrad.exec/rewrite-sum-arms.c.  */

#include <math.h>

__attribute__ ((differentiable))
void
masked_z (int T, const double *q, const int *keep, double *out)
{
  for (int t = 0; t < T; t++)
    {
      double p[T];
      for (int u = 0; u < T; u++)
        p[u] = q[t * T + u];
      double z = 0;
      for (int u = 0; u < T; u++)
        if (!keep[u])
          p[u] = 0;
        else
          {
            p[u] = exp (p[u]);
            z += p[u];
          }
      out[t] = z; /* { dg-error "the sum stored here adds up 'p' where it is rewritten in the arms of an if/else, and it cannot be told whether before or after; not supported yet" } */
      /* { dg-message "add up 'p' in a loop of its own after the one that rewrites it" "" { target *-*-* } .-1 } */
    }
}

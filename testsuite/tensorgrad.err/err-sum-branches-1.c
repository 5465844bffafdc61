/* { dg-do compile } */
/* A masked row rewritten in place in the arms of an if/else, the sum of
   the row added up in one arm right after its store.  The lifter orders
   the stores of the two arms one after the other, so it cannot tell
   whether the sum reads the row before or after the rewrite (it once
   took it for before: a wrong gradient).  Refused; with the sum's arm
   first, or the sum in a loop of its own, it is accepted
   (tensorgrad.exec/masked-row-1.c).  */

#include <math.h>

__attribute__ ((differentiable))
void
masked_z (int T, const double *q, const int *keep, double *out)
{
  for (int t = 0; t < T; t++)
    {
      double p[8];
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

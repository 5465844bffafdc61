/* { dg-do compile } */
/* A causal row's tail zeroed from u = t, one entry too early: it
   overwrites the row's last real entry, which the two loops then both
   write (exec/causal-tail-1.c zeroes from t + 1, which is accepted):
   a range of a row rewritten by a loop of its own, which gets no
   version (one element per row would).
   Rows of several heads, so the loops over the rows are three.  */

#include <math.h>

__attribute__ ((differentiable))
void
tail_overlap (int NH, int T, const float *s, float *p)
{
  for (int h = 0; h < NH; h++)
    for (int t = 0; t < T; t++)
      {
        float z = 0;
        for (int u = 0; u <= t; u++)
          z += expf (s[(h * T + t) * T + u]);
        for (int u = 0; u <= t; u++)
          p[(h * T + t) * T + u] = expf (s[(h * T + t) * T + u]) / z;
        for (int u = t; u < T; u++)
          p[(h * T + t) * T + u] = 0.0f; /* { dg-error ".p. is written here and by an earlier loop of the same nest, in elements that may meet; not supported yet" } */
        /* { dg-message "a later store gets a version where it rewrites single elements of what the earlier loop wrote, or a run of them at its innermost loop's step, all among those it wrote; store each element once, the test inside" "" { target *-*-* } .-1 } */
      }
}

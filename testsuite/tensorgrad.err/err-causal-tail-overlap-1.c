/* { dg-do compile } */
/* A causal row's tail zeroed from u = t, one entry too early: it
   overwrites the row's last real entry, which the two loops then both
   write (exec/causal-tail-1.c zeroes from t + 1, which is accepted).
   The triangular rows are no dense range, so the error says the nests
   may write the same elements, which here they do.
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
          p[(h * T + t) * T + u] = 0.0f; /* { dg-error ".p. is written by more than one loop nest, which may write the same elements; not supported yet" } */
        /* { dg-message "the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
      }
}

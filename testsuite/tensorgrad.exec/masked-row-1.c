/* { dg-do run } */
/* A masked row rewritten in place in the arms of an if/else: the kept
   entries exponentiated and summed in the same arm, the others zeroed;
   then the row normalized by its sum (an attention row with a key
   mask).  With e_u = exp (q[t][u]) for kept u,
     out[t] = sum_kept e_u,  y[t][u] = e_u / out[t] (0 where masked);
   d_q[t][u] = e_u (d_out[t] + (d_y[t][u] - sum_u' y[t][u'] d_y[t][u'])
                               / out[t]) for kept u, 0 elsewhere.
   Also with the sum in a loop of its own after the rewrite.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
masked (int T, const double *q, const int *keep, double *out, double *y)
{
  for (int t = 0; t < T; t++)
    {
      double p[8];
      for (int u = 0; u < T; u++)
        p[u] = q[t * T + u];
      double z = 0;
      for (int u = 0; u < T; u++)
        if (keep[u])
          {
            p[u] = exp (p[u]);
            z += p[u];
          }
        else
          p[u] = 0;
      out[t] = z;
      for (int u = 0; u < T; u++)
        y[t * T + u] = p[u] / z;
    }
}

__attribute__ ((differentiable))
void
masked2 (int T, const double *q, const int *keep, double *out)
{
  for (int t = 0; t < T; t++)
    {
      double p[8];
      for (int u = 0; u < T; u++)
        p[u] = q[t * T + u];
      for (int u = 0; u < T; u++)
        if (!keep[u])
          p[u] = 0;
        else
          p[u] = exp (p[u]);
      double z = 0;
      for (int u = 0; u < T; u++)
        z += p[u];
      out[t] = z;
    }
}

int
main (void)
{
  int T = 5, keep[5] = { 1, 0, 1, 1, 0 };
  double *q = tg_alloc (T * T), *o = tg_alloc (T), *y = tg_alloc (T * T);
  tg_fill (q, T * T, 1, -1, 1);
  TG_GRADCHECK (masked, &T, q, keep, o, y);
  TG_GRADCHECK (masked2, &T, q, keep, o);
  return tg_exit ();
}

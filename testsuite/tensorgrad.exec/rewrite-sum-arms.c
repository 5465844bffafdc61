/* { dg-do run } */
/* How to rewrite (README): a sum added up in the second arm of an
   if/else that rewrites the row.  The rewrite of
   tensorgrad.err/rewrite-sum-arms.c: the arms only rewrite the row, and
   a loop of its own adds it up (the masked entries are 0).  Checked: out
   equals the original's (compiled here as plain C), and the gradient
   through the descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define masked_z masked_z_orig
#include "tensorgrad.err/rewrite-sum-arms.c"
#undef masked_z
#undef differentiable

__attribute__ ((differentiable))
void
masked_z (int T, const double *q, const int *keep, double *out)
{
  for (int t = 0; t < T; t++)
    {
      double p[T];
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
  int T = 5;
  int keep[5] = { 1, 0, 1, 1, 0 };
  double *q = tg_alloc (T * T), *out = tg_alloc (T), *out0 = tg_alloc (T);
  tg_fill (q, T * T, 1, -2, 2);
  masked_z_orig (T, q, keep, out0);
  masked_z (T, q, keep, out);
  for (int t = 0; t < T; t++)
    CHECK_NEAR_AT (out[t], out0[t], 1e-15, 0, t);
  TG_GRADCHECK (masked_z, &T, q, keep, out);
  return tg_exit ();
}

/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A loop whose body is skipped past a bound on its counter (if (u > t)
   continue;) runs to the bound (lib/passes/bounds.c): the causal row is
   triangular as if the loop header said u <= t.  Run test:
   continue-bounds-1.c.  */

__attribute__ ((differentiable))
void
causal (int T, int d, const double *q, const double *k, double *s)
{
  for (int t = 0; t < T; t++)
    for (int u = 0; u < T; u++)
      {
        if (u > t)
          continue;
        double a = 0;
        for (int i = 0; i < d; i++)
          a += q[t * d + i] * k[u * d + i];
        s[t * T + u] = a;
      }
}

/* { dg-final { scan-tensorgrad-dump "bounds: the loop over u runs to 1 \\+ t, where its statements run" } } */
/* { dg-final { scan-tensorgrad-after bounds "stage 0: for t < T, u < 1 \\+ t:\n    s\\\[" } } */

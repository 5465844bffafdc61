/* { dg-do compile } */
/* { dg-options "-O3 -fplugin-arg-tensorgrad-dump-c=lanes-rolled-1.gen.c" } */
/* At -O3 (te_program.vect_rest) the loop over the 8 lanes of a sum is
   not to be unrolled: GCC's cunrolli peeled it before the vectorizer
   ran, which then left the 8 partial sums scalar (a layer norm's
   gradient took 1.9 times as long).  emit.cc annotates the loop as
   #pragma GCC unroll 1 does, and dump-c prints the pragma: here before
   the loop of the row's dot product computed again in lanes (the axpys
   over the row are plain loops at -O3, lanes-o3-1.c).  */

__attribute__ ((differentiable))
void
rowdot (int n, int m, const float *x, const float *w, float *r)
{
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += x[i * m + j] * w[j];
      r[i] = s * s;
    }
}

/* { dg-final { scan-tensorgrad-file lanes-rolled-1.gen.c "#pragma GCC unroll 1\n *for \\(long l = 0; l < 8; l\\+\\+\\)\n" } } */

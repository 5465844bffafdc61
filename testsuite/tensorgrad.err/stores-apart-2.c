/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The adjoint of a weight shared by the four stores of a loop unrolled
   by hand is four additions to d_w[0] in each iteration, the loads
   x[i + 3] .. x[i] backwards.  GCC 12.2 vectorizes such a chain into
   wrong code (-O2 gave 1.24 for 0.96); the lowering kept the nest
   scalar for it.  Now gather.c adds the four terms in one statement:
   no chain, and the nest is vectorized.  stores-apart-1.c runs it.  */

__attribute__ ((differentiable))
void
u4 (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i += 4)
    {
      y[i] = w[0] * x[i];
      y[i + 1] = w[0] * x[i + 1];
      y[i + 2] = w[0] * x[i + 2];
      y[i + 3] = w[0] * x[i + 3];
    }
}

/* { dg-final { scan-tensorgrad-dump-times "gather: stage 0 adds statement \[0-9\]+'s terms of d_w in statement \[0-9\]+, at the same element" 3 } } */
/* { dg-final { scan-tensorgrad-dump-not "not vectorized" } } */

/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-m32 -fplugin-arg-tensorgrad-target-clones" } */
/* -fplugin-arg-tensorgrad-target-clones makes versions for AVX-512F and
   AVX2, which the plugin makes for x86_64 (LP64) only: with -m32 the
   option is an error (once, when the options are final), not one of
   GCC's about an attribute the user never wrote.  */

__attribute__ ((differentiable))
void scale (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0f * x[i] * x[i];
}

__attribute__ ((differentiable))
void shift (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0f;
}

/* { dg-error "option 'target-clones' makes versions for AVX-512F and AVX2, which only x86_64 \\(LP64\\) targets have" "" { target *-*-* } 0 } */

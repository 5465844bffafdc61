/* { dg-do compile { target x86_64-*-* } } */
/* { dg-options "-m32 -fplugin-arg-tensorgrad-vector-math" } */
/* -fplugin-arg-tensorgrad-vector-math makes the gradients call libmvec,
   which glibc has on x86_64 (LP64) only: with -m32 the option is an
   error (once, when the options are final), not a link failure or
   scalar calls without a word.  */

float sinf (float);

__attribute__ ((differentiable))
void vsin (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sinf (x[i]);
}

__attribute__ ((differentiable))
void vcos (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = __builtin_cosf (x[i]);
}

/* { dg-error "option 'vector-math' needs glibc's libmvec, which only x86_64 \\(LP64\\) targets have" "" { target *-*-* } 0 } */

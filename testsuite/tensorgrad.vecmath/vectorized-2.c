/* { dg-do compile } */
/* { dg-options "-O2 -fopt-info-vec-optimized" } */
/* -fplugin-arg-tensorgrad-vector-math (vecmath.exp adds it) at -O2,
   no -march: GCC 12's -O2 vectorizes no loop that needs an epilogue
   (the very-cheap cost model) and its SLP vectorizer calls no vector
   clone, so the plugin asks for the vectorization of a gradient's loop
   that calls libmvec's functions (as #pragma GCC vector does); the
   forwards' loops stay scalar.  Gradients:
     vcos:   d_x += -d_y * sin (x)            (double)
     logit:  d_x += d_y * w / x, d_w += d_y * log (x)   (float; its
             loop for when d_x is NULL is vectorized too: the remark at
             the kernel's end)  */

#include <math.h>

__attribute__ ((differentiable))
void vcos (int n, const double *x, double *y) /* { dg-message "optimized: loop vectorized" } */
{
  for (int i = 0; i < n; i++)
    y[i] = cos (x[i]);
}

__attribute__ ((differentiable))
void logit (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = w[i] * logf (x[i]); /* { dg-message "optimized: loop vectorized" } */
} /* { dg-message "optimized: loop vectorized" } */

/* { dg-final { tg-vector-calls "sin logf" } } */

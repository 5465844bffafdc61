/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-tensorgrad-dump-c=vm-dump-c-1.gen.c" } */
/* With -fplugin-arg-tensorgrad-vector-math, the C of
   -fplugin-arg-tensorgrad-dump-c declares the math functions as the
   gradients call them (simd notinbranch, const), so that the file,
   compiled without the plugin and without -ffast-math, vectorizes at
   -O3 with libmvec's forms as the injected gradients do:
     vsin:      d_x += d_y * cosf (x)
     softplus:  d_x += d_y * exp (x) / (1 + exp (x))  */

#include <math.h>

__attribute__ ((differentiable))
void vsin (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = sinf (x[i]);
}

__attribute__ ((differentiable))
void softplus (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = log1p (exp (x[i]));
}

/* { dg-final { tg-dump-c-vector-calls "vm-dump-c-1.gen.c" "cosf exp" } } */

/* { dg-do compile } */
/* { dg-options "-O3 -march=native -fopt-info-vec-optimized" } */
/* -fplugin-arg-tensorgrad-vector-math (vecmath.exp adds it): at -O3
   -march=native the gradients' loops that call a math function are
   vectorized, calling libmvec's vector forms, without -ffast-math.
   Without the option no loop of this file is (the forwards' neither:
   they call the scalar sinf, exp, log1p, expf, tanhf).  Gradients:
     vsin:      d_x += d_y * cos (x)
     softplus:  d_x += d_y * exp (x) / (1 + exp (x))
     sigtanh:   y = tanh (c * s), s = 1 / (1 + exp (-x)) (the issue's
                tanh of a sigmoid, through a temporary):
                g = d_y * (1 - y*y), d_c += g * s,
                d_x += g * c * s * (1 - s), s computed again with expf.
   The remarks carry the kernel's location (the loop the gradient's
   loop stands for, or the kernel's end).  */

#include <math.h>

__attribute__ ((differentiable))
void vsin (int n, const float *x, float *y) /* { dg-message "optimized: loop vectorized" } */
{
  for (int i = 0; i < n; i++)
    y[i] = sinf (x[i]);
}

__attribute__ ((differentiable))
void softplus (int n, const double *x, double *y) /* { dg-message "optimized: loop vectorized" } */
{
  for (int i = 0; i < n; i++)
    y[i] = log1p (exp (x[i]));
}

__attribute__ ((differentiable))
void sigtanh (int n, float c, const float *x, float *y)
{
  float s[n];
  for (int i = 0; i < n; i++)
    s[i] = 1.0f / (1.0f + expf (-x[i]));
  for (int i = 0; i < n; i++)
    y[i] = tanhf (c * s[i]); /* { dg-message "optimized: loop vectorized" } */
} /* { dg-message "optimized: loop vectorized" } */

/* { dg-final { tg-vector-calls "cosf exp expf" } } */

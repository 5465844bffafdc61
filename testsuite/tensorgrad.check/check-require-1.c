/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-sizes=given:N=2,V=4,Vp=3" } */
/* A gradient that requires something of the sizes (the rows of a padded
   softmax, V entries Vp apart, must not meet: Vp - V >= 0) is checked at
   sizes that meet it: the default sizes (N=3, Vp=2, V=4 in parameter
   order) miss it, so every size is 3.  Sizes given with check-sizes=
   that miss it are not checked, and the note says why.  */

#include <math.h>

#define SOFTMAX_PAD(NAME, ...)                                               \
  __attribute__ ((differentiable)) void NAME (__VA_ARGS__, const double *x,   \
                                              double *p)                     \
  {                                                                          \
    for (int n = 0; n < N; n++)                                              \
      {                                                                      \
        double s = 0;                                                        \
        for (int j = 0; j < V; j++)                                          \
          {                                                                  \
            p[n * Vp + j] = exp (x[n * Vp + j]);                             \
            s += p[n * Vp + j];                                              \
          }                                                                  \
        for (int j = 0; j < V; j++)                                          \
          p[n * Vp + j] /= s;                                                \
      }                                                                      \
  }

SOFTMAX_PAD (dflt, int N, int Vp, int V) /* { dg-message "gradient of .dflt. checked at N=3, Vp=3, V=3: worst relative error" } */
SOFTMAX_PAD (given, int N, int V, int Vp) /* { dg-message "gradient of .given. not checked: the sizes do not meet what the gradient requires, Vp - V >= 0: each iteration of the loop over 'n' writes elements of 'p' that no other iteration writes" } */

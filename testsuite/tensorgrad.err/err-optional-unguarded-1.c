/* { dg-do compile } */
/* A pointer the kernel tests against NULL and also reads where the test
   may not hold: the gradient could not tell when it may read it.  */

#include <stddef.h>

__attribute__ ((differentiable))
void
dense (int N, int O, const double *x, const double *bias, double *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      y[n * O + o] = x[n * O + o] * (bias != NULL ? bias[o] : 1);
  for (int o = 0; o < O; o++)
    y[o] += bias[o]; /* { dg-error "'bias' is tested against NULL but read where the test may not hold" } */
  /* { dg-message "read 'bias' only behind its test" "" { target *-*-* } .-1 } */
}

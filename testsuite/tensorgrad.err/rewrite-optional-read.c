/* { dg-do compile } */
/* How to rewrite (README): an optional input read where its test may
   not hold.  A dense layer with an optional bias, tested where it is
   added but read again, untested, by the activation's offset.  Refused
   at the untested read.  The rewrite, every read behind the test, is
   tensorgrad.exec/rewrite-optional-read.c.  */

#include <math.h>
#include <stddef.h>

__attribute__ ((differentiable))
void
dense (int N, int I, int O, const double *x, const double *W,
       const double *bias, double *y)
{
  for (int n = 0; n < N; n++)
    for (int o = 0; o < O; o++)
      {
        double s = bias != NULL ? bias[o] : 0;
        for (int i = 0; i < I; i++)
          s += x[n * I + i] * W[i * O + o];
        y[n * O + o] = tanh (s - 0.5 * bias[o]); /* { dg-error "'bias' is tested against NULL but read where the test may not hold" } */
        /* { dg-message "read 'bias' only behind its test \\('bias \\? bias\\\[i\\\] : 0', 'if \\(bias\\) ...'\\), or do not test it" "" { target *-*-* } .-1 } */
      }
}

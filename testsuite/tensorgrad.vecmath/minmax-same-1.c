/* { dg-do run } */
/* fmin and fmax of one operand twice give their adjoint to it whole
   (lib/ad/deriv.c): the test of which operand they pick, x != x || x <=
   x, is always true, and GCC 12.2 at -O3 with AVX-512VL (-march=native
   on this project's machine, one of vecmath.exp's option sets)
   vectorized a gradient that tested it and its negation under a branch
   of the kernel wrongly: elements of d_x3 got 0 (fuzz seed 1210612,
   kernel 43, this test's first kernel as the fuzzer wrote it; the C of
   dump-c compiled without the plugin did the same).  Gradients against
   central differences, inputs on both sides of the branch's threshold:
   a double sum over a VLA, a float ReLU-like row written with fmaxf (v,
   v) beside fminf of two operands.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
kern (int n1, int n2, const double *x3)
{
  double t4[n1 * n2];
  for (int i = 0; i < n1; i++)
    for (int j = 0; j < n2; j++)
      {
        if (x3[i * n2 + j] > 0.013)
          t4[i * n2 + j] = x3[i * n2 + j];
        else
          t4[i * n2 + j] = fmin (x3[i * n2 + j], x3[i * n2 + j]);
      }
  double s5 = 0.0;
  for (int i = 0; i < n1; i++)
    for (int j = 0; j < n2; j++)
      s5 += t4[i * n2 + j] * 0.5;
  return s5;
}

__attribute__ ((differentiable))
void
rows (int n, const float *x, const float *c, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float v = x[i] * c[i];
      y[i] = x[i] > 0.1f ? fmaxf (v, v) : fminf (v, x[i]);
    }
}

int
main (void)
{
  int n1 = 3, n2 = 7;
  double *x3 = tg_alloc (n1 * n2);
  tg_fill (x3, n1 * n2, 43, -1, 1);
  TG_GRADCHECK (kern, &n1, &n2, x3);

  int n = 37;
  float *x = tg_alloc_f (n), *c = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 5, -1, 1);
  tg_fill_f (c, n, 6, 0.5, 1.5);
  TG_GRADCHECK (rows, &n, x, c, y);
  return tg_exit ();
}

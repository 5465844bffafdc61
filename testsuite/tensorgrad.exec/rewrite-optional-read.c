/* { dg-do run } */
/* How to rewrite (README): an optional input read where its test may
   not hold.  The rewrite of tensorgrad.err/rewrite-optional-read.c: the
   second read is behind the test as well.  Checked: y equals the
   original's (compiled here as plain C) with a bias, and without one
   it is the layer without the terms; the gradient through the
   descriptor, with the bias and with NULL for it.  */

#include "tg-test.h"

#define differentiable unused
#define dense dense_orig
#include "tensorgrad.err/rewrite-optional-read.c"
#undef dense
#undef differentiable

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
        y[n * O + o] = tanh (s - (bias != NULL ? 0.5 * bias[o] : 0));
      }
}

int
main (void)
{
  int N = 2, I = 3, O = 4;
  double *x = tg_alloc (N * I), *W = tg_alloc (I * O), *b = tg_alloc (O);
  double *y = tg_alloc (N * O), *y0 = tg_alloc (N * O);
  double *zero = tg_alloc (O);
  tg_fill (x, N * I, 1, -1, 1);
  tg_fill (W, I * O, 2, -1, 1);
  tg_fill (b, O, 3, -1, 1);
  dense_orig (N, I, O, x, W, b, y0);
  dense (N, I, O, x, W, b, y);
  CHECK_SAME (y, y0, N * O * sizeof *y);
  dense_orig (N, I, O, x, W, zero, y0);
  dense (N, I, O, x, W, NULL, y);
  CHECK_SAME (y, y0, N * O * sizeof *y);
  TG_GRADCHECK (dense, &N, &I, &O, x, W, b, y);
  TG_GRADCHECK (dense, &N, &I, &O, x, W, NULL, y);
  return tg_exit ();
}

/* { dg-do run } */
/* powf in float with both operands variable over a 2-D flat-indexed nest
   with constant bounds (4 x 3): y[i*3+j] = powf (x[i*3+j], e[j]), base x
   in [0.5, 2], exponent e in [-1.5, 2.5] broadcast along i.
   d_x[i*3+j] += d_y e[j] x^(e[j]-1); d_e[j] += sum_i d_y y log x.
   TG_GRADCHECK checks every d_x and d_e against central differences (in
   float precision), accumulation into pre-filled shadows, and that x, e, y,
   d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
powf_bcast (const float *x, const float *e, float *y)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      y[i * 3 + j] = powf (x[i * 3 + j], e[j]);
}

#define N 12

int
main (void)
{
  float *x = tg_alloc_f (N), *e = tg_alloc_f (3), *y = tg_alloc_f (N);
  tg_fill_f (x, N, 1, 0.5, 2.0);
  tg_fill_f (e, 3, 2, -1.5, 2.5);
  TG_GRADCHECK (powf_bcast, x, e, y);
  return tg_exit ();
}

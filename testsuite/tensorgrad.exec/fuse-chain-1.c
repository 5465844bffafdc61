/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Fusion: y = tanh (sigmoid (a*x + b) * c) written as four nests through
   three temporaries (two VLAs and a fixed-size array) has a gradient of
   one loop nest with no temporary array; the dump shows each fusion.
   With s = sigmoid (a x + b) and e = d_y (1 - y^2) c s (1 - s):
   d_x += a e; *d_a += sum e x; *d_b += sum e;
   *d_c += sum d_y (1 - y^2) s.  TG_GRADCHECK checks every gradient against
   central differences, accumulation into the shadows, and that x, y and d_y
   are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
chain (int n, double a, double b, double c, const double *x, double *y)
{
  double t1[n], t2[n], t3[64];
  for (int i = 0; i < n; i++)
    t1[i] = a * x[i] + b;
  for (int i = 0; i < n; i++)
    t2[i] = 1.0 / (1.0 + exp (-t1[i]));
  for (int i = 0; i < n; i++)
    t3[i] = t2[i] * c;
  for (int i = 0; i < n; i++)
    y[i] = tanh (t3[i]);
}

int
main (void)
{
  int n = 9;
  double a = 0.7, b = -0.2, c = 1.3, x[9], y[9] = { 0 };
  tg_fill (x, n, 21, -1, 1);
  TG_GRADCHECK (chain, &n, &a, &b, &c, x, y);
  return tg_exit ();
}
/* { dg-final { scan-tensorgrad-dump "fuse: t1 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-dump "fuse: t2 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-dump "fuse: t3 into its 1 reader" } } */
/* { dg-final { scan-tensorgrad-after fuse "stage 0:" } } */
/* { dg-final { scan-tensorgrad-after-not fuse "stage 1:" } } */
/* { dg-final { scan-tensorgrad-backward-not "stage 1:" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary" } } */

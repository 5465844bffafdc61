/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Const global scalars with an initializer are constants: every read
   folds to the value, which is then no tensor at all (even at -O0,
   where GCC itself still loads it).
   scale:  y[i] = GAIN x[i] + BIAS_W x[i]^2, GAIN and BIAS_W const
           doubles: d_x[i] += (GAIN + 2 BIAS_W x[i]) d_y[i].
   fscale: float, a function's static const float and a const global
           long as the index term: y[i] = half * x[i + STRIDE]^3:
           d_x[i + STRIDE] += 3 half x[i + STRIDE]^2 d_y[i].  */

#include "tg-test.h"

const double GAIN = 2.5;
static const double BIAS_W = -0.75;
const long STRIDE = 2;

__attribute__ ((differentiable))
void
scale (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = GAIN * x[i] + BIAS_W * x[i] * x[i];
}

__attribute__ ((differentiable))
void
fscale (int n, const float *x, float *y)
{
  static const float half = 0.5f;
  for (int i = 0; i < n; i++)
    y[i] = half * x[i + STRIDE] * x[i + STRIDE] * x[i + STRIDE];
}

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (scale, &n, x, y);
  /* The values: d_x[0] = GAIN + 2 BIAS_W x[0] for d_y = e_0.  */
  double dx[6] = { 0 }, dy[6] = { 1 };
  scale_grad (n, x, y, dx, dy);
  CHECK_NEAR (dx[0], 2.5 - 1.5 * x[0], 1e-15, 0);

  float *xf = tg_alloc_f (n + 2), *yf = tg_alloc_f (n);
  tg_fill_f (xf, n + 2, 2, -1, 1);
  TG_GRADCHECK (fscale, &n, xf, yf);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "y\\\[i\\\] = x\\\[i\\\] \\* 2.5 \\+ x\\\[i\\\] \\* \\(x\\\[i\\\] \\* -0.75\\);" } } */
/* { dg-final { scan-tensorgrad-dump "y\\\[i\\\] = x\\\[i \\+ 2\\\] \\* \\(x\\\[i \\+ 2\\\] \\* \\(x\\\[i \\+ 2\\\] \\* 0.5f\\)\\);" } } */
/* { dg-final { scan-tensorgrad-dump-not "tensor (GAIN|BIAS_W|STRIDE|half):" } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=recip-deriv-1.gen.c" } */
/* The derivative of a reciprocal 1/u is -(1/u)(1/u), the quotient the
   forward computes, not -(1/u)/u, a second division (lib/ad/deriv.c):
   silu, y = x sigmoid (x) in float with the sigmoid in a local, as ML
   code writes it; cauchy, a double loss summing 1 / (1 + d^2) over
   scaled differences through a scalar g, with an optional centre
   array (NULL d_c).  The gradients' only divisions are the forward's
   (by 1 + ..., and the scaling by g); checked against central
   differences, also with NULL shadows, at sizes with a rest after
   blocks of 8.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
silu (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float s = 1.0f / (1.0f + expf (-x[i]));
      y[i] = x[i] * s;
    }
}

__attribute__ ((differentiable))
double
cauchy (int n, const double *x, const double *c, double g)
{
  double e = 0.0;
  for (int i = 0; i < n; i++)
    {
      double d = (x[i] - c[i]) / g;
      e += 1.0 / (1.0 + d * d);
    }
  return e;
}

int
main (void)
{
  int n = 13;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -4, 4);
  TG_GRADCHECK (silu, &n, x, y);
  int one = 1;
  TG_GRADCHECK (silu, &one, x, y);

  int m = 21;
  double *xd = tg_alloc (m), *cd = tg_alloc (m), g = 0.7;
  tg_fill (xd, m, 2, -2, 2);
  tg_fill (cd, m, 3, -1, 1);
  TG_GRADCHECK (cauchy, &m, xd, cd, &g);
  TG_GRADCHECK_NULL (cauchy, "c", &m, xd, cd, &g);
  TG_GRADCHECK_NULL (cauchy, "x g", &m, xd, cd, &g);
  return tg_exit ();
}

/* The only divisions: 1.0f / (1.0f + ...), (...) / g; none by a
   variable that holds 1 + ....  */
/* { dg-final { scan-tensorgrad-file recip-deriv-1.gen.c "1\\.0f / \\(1\\.0f \\+ s\[0-9\]+\\)" } } */
/* { dg-final { scan-tensorgrad-file-not recip-deriv-1.gen.c "/ s\[0-9_\]+\[;)\]" } } */

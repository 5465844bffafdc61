/* { dg-do run } */
/* Reductions whose update differs between the arms of an if/else: a
   Huber loss, s += a^2/2 below d and d (a - d/2) above, in double; a
   three-way piecewise sum in float with an else-if; a product whose
   factor depends on the sign.  c ? s op t1 : s op t2 is s op (c ? t1 : t2):
   d_a[i] += d_ret * (a[i] <= d ? a[i] : d), d_d += d_ret * sum over the
   upper arm of (a[i] - d).  The fills keep every |a[i] - d| and |a[i]|
   away from the kinks, so central differences stay on one arm.  */

#include "tg-test.h"

__attribute__ ((differentiable))
double
huber (int n, double d, const double *a)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] <= d)
      s += 0.5 * a[i] * a[i];
    else
      s += d * (a[i] - 0.5 * d);
  return s;
}

__attribute__ ((differentiable))
void
piecewise (int n, const float *x, float *out)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      if (x[i] < -0.5f)
        s += -x[i];
      else if (x[i] < 0.5f)
        s += x[i] * x[i];
      else
        s += 2.0f * x[i] - 0.75f;
    }
  out[0] = s;
}

__attribute__ ((differentiable))
double
signed_product (int n, const double *x)
{
  double p = 1;
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 0)
        p *= 1 + x[i];
      else
        p *= 1 - 0.5 * x[i];
    }
  return p;
}

int
main (void)
{
  int n = 9;
  double d = 0.7;
  double *a = tg_alloc (n);
  tg_fill_away (a, n, 1, -2, 2, d, 0.05);
  TG_GRADCHECK (huber, &n, &d, a);

  float *x = tg_alloc_f (n), *out = tg_alloc_f (1);
  for (int i = 0; i < n; i++)
    x[i] = -1.4f + 0.33f * i; /* none within 0.05 of -0.5 or 0.5 */
  TG_GRADCHECK (piecewise, &n, x, out);

  double *y = tg_alloc (n);
  tg_fill_away (y, n, 3, -0.9, 0.9, 0.0, 0.05);
  TG_GRADCHECK (signed_product, &n, y);
  return tg_exit ();
}

/* { dg-do run } */
/* An optional input tested together with a flag, (w && use_w) ? ... :
   ..., in either order: at -O2 the test reaches the plugin wrapped in a
   comparison with a boolean constant, whose facts the check of optional
   reads now sees through (it was refused at -O2 and -O3 only).  */

#include "tg-test.h"

__attribute__ ((differentiable))
double
wsum (int n, int use_w, const double *w, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (w && use_w) ? w[i] * x[i] * x[i] : x[i] * x[i];
  return s;
}

__attribute__ ((differentiable))
void
scale (int n, int on, const float *g, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = (on > 0 && g != NULL) ? g[i] * x[i] : x[i];
}

int
main (void)
{
  int n = 4, u1 = 1, u0 = 0;
  double w[4], x[4];
  tg_fill (w, 4, 4, -1, 1);
  tg_fill (x, 4, 5, -1, 1);
  TG_GRADCHECK (wsum, &n, &u1, w, x);
  TG_GRADCHECK (wsum, &n, &u0, w, x);
  TG_GRADCHECK (wsum, &n, &u1, NULL, x);
  float g[4], xf[4], y[4];
  tg_fill_f (g, 4, 6, -1, 1);
  tg_fill_f (xf, 4, 7, -1, 1);
  TG_GRADCHECK (scale, &n, &u1, g, xf, y);
  TG_GRADCHECK (scale, &n, &u1, NULL, xf, y);
  return tg_exit ();
}

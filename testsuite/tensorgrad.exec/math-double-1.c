/* { dg-do run } */
/* The double math library, one output per function, in one 1-D loop:
   exp log sqrt log1p of x in [0.5, 2] and tanh sin cos erf expm1 of u in
   [-1.5, 1.5].  d_x and d_u each sum the partials of several outputs:
   d_x += d_ye e^x + d_yl / x + d_yq / (2 sqrt x) + d_yp / (1 + x);
   d_u += d_yt (1 - tanh^2 u) + d_ys cos u - d_yc sin u
	  + d_yr 2 / sqrt (pi) e^(-u^2) + d_ym e^u.
   TG_GRADCHECK checks every d_x[i] and d_u[i] against central
   differences of L = sum_k sum_i c_k[i] y_k[i], accumulation into d_x
   and d_u, and that x, u, every y_k and every d_y_k are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mathd (int n, const double *x, const double *u, double *ye, double *yl,
       double *yq, double *yp, double *yt, double *ys, double *yc,
       double *yr, double *ym)
{
  for (int i = 0; i < n; i++)
    {
      ye[i] = exp (x[i]);
      yl[i] = log (x[i]);
      yq[i] = sqrt (x[i]);
      yp[i] = log1p (x[i]);
      yt[i] = tanh (u[i]);
      ys[i] = sin (u[i]);
      yc[i] = cos (u[i]);
      yr[i] = erf (u[i]);
      ym[i] = expm1 (u[i]);
    }
}

#define K 9

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *u = tg_alloc (n), *y[K];
  tg_fill (x, n, 1, 0.5, 2.0);
  tg_fill (u, n, 2, -1.5, 1.5);
  for (int j = 0; j < K; j++)
    y[j] = tg_alloc (n);
  TG_GRADCHECK (mathd, &n, x, u, y[0], y[1], y[2], y[3], y[4], y[5], y[6],
		y[7], y[8]);
  return tg_exit ();
}

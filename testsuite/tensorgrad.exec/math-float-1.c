/* { dg-do run } */
/* The float math library, one output per function, in one 1-D loop:
   expf logf sqrtf log1pf of x in [0.5, 2] and tanhf sinf cosf erff expm1f
   of u in [-1.5, 1.5]; the gradient computes in float.  The partials are
   those of math-double-1.c.  TG_GRADCHECK checks every d_x[i] and d_u[i]
   against central differences (in float precision), accumulation into
   d_x and d_u, and that x, u, every y_k and every d_y_k are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mathf_kernel (int n, const float *x, const float *u, float *ye, float *yl,
	      float *yq, float *yp, float *yt, float *ys, float *yc,
	      float *yr, float *ym)
{
  for (int i = 0; i < n; i++)
    {
      ye[i] = expf (x[i]);
      yl[i] = logf (x[i]);
      yq[i] = sqrtf (x[i]);
      yp[i] = log1pf (x[i]);
      yt[i] = tanhf (u[i]);
      ys[i] = sinf (u[i]);
      yc[i] = cosf (u[i]);
      yr[i] = erff (u[i]);
      ym[i] = expm1f (u[i]);
    }
}

#define K 9

int
main (void)
{
  int n = 5;
  float *x = tg_alloc_f (n), *u = tg_alloc_f (n), *y[K];
  tg_fill_f (x, n, 1, 0.5, 2.0);
  tg_fill_f (u, n, 2, -1.5, 1.5);
  for (int j = 0; j < K; j++)
    y[j] = tg_alloc_f (n);
  TG_GRADCHECK (mathf_kernel, &n, x, u, y[0], y[1], y[2], y[3], y[4], y[5], y[6],
		y[7], y[8]);
  return tg_exit ();
}

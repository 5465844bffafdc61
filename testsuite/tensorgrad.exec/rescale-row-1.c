/* { dg-do run } */
/* Read, don't recompute, after an in-place update: a softmax that
   stores the exponentials in y and divides them there, y[j] /= s.  The
   adjoint of the stored exponentials (y's earlier version, y.v1) is
   d_y[j] / s, divided by s at the row, not at its own element: rescale
   keeps it times s[i] at element (i, j) (each iteration of the row's
   loops writes its own element), the factor s of y.v1 = y * s cancels,
   and the gradient is the plain softmax's,
     d_x[j] += y[j] (d_y[j] - sum_k y[k] d_y[k]),
   no exp, no maximum, no whole-tensor temporary.  TG_GRADCHECK checks
   every component against central differences, also with d_x NULL.
   rescale-row-2.c has the cases that must not be rescaled.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
inplace (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
	mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	{
	  y[i * m + j] = expf (x[i * m + j] - mx);
	  s += y[i * m + j];
	}
      for (int j = 0; j < m; j++)
	y[i * m + j] /= s;
    }
}

int
main (void)
{
  int n = 3, m = 7;
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  TG_GRADCHECK (inplace, &n, &m, x, y);
  TG_GRADCHECK_NULL (inplace, "x", &n, &m, x, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "rescale: d_y.v1 holds s times its adjoint" 1 } } */
/* { dg-final { scan-tensorgrad-backward-not "exp \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "max \\(" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*\\*" } } */

/* { dg-do run } */
/* Cancellation: a maximum that enters the results only through
   differences x - m that a normalization takes out again gets no
   adjoint (the results do not change when m moves), so the gradient
   computes neither d_m nor the argmax.  softmax: y = exp (x - m) / s,
   d_x[j] += y[j] (d_y[j] - sum_k y[k] d_y[k]).  lse: m + log sum exp
   (x - m), d_x[j] += d_r exp (x[j] - lse).  logsm: y = x - m - log s,
   d_x[j] += d_y[j] - softmax[j] sum_k d_y[k].  The maxima the results
   see other than through such differences keep their adjoint, which the
   gradient checks would find wrong without it: an unnormalized
   exp (x - keep1), a softmax that also stores x - keep2, and
   exp (x - keep3) / s scaled by keep3.  */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float mx = x[i * m];
      for (int j = 1; j < m; j++)
        mx = fmaxf (mx, x[i * m + j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
        s += expf (x[i * m + j] - mx);
      for (int j = 0; j < m; j++)
        y[i * m + j] = expf (x[i * m + j] - mx) / s;
    }
}

__attribute__ ((differentiable))
double
lse (int n, const double *x)
{
  double lm = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > lm)
      lm = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp (x[i] - lm);
  return lm + log (s);
}

__attribute__ ((differentiable))
void
logsm (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double ls = -1e300;
      for (int j = 0; j < m; j++)
        ls = fmax (ls, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        s += exp (x[i * m + j] - ls);
      double l = log (s);
      for (int j = 0; j < m; j++)
        y[i * m + j] = x[i * m + j] - ls - l;
    }
}

__attribute__ ((differentiable))
void
unnormalized (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double keep1 = x[i * m];
      for (int j = 1; j < m; j++)
        keep1 = fmax (keep1, x[i * m + j]);
      for (int j = 0; j < m; j++)
        y[i * m + j] = exp (x[i * m + j] - keep1);
    }
}

__attribute__ ((differentiable))
void
stored (int n, int m, const double *x, double *y, double *mo)
{
  for (int i = 0; i < n; i++)
    {
      double keep2 = x[i * m];
      for (int j = 1; j < m; j++)
        keep2 = fmax (keep2, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        s += exp (x[i * m + j] - keep2);
      for (int j = 0; j < m; j++)
        {
          y[i * m + j] = exp (x[i * m + j] - keep2) / s;
          mo[i * m + j] = x[i * m + j] - keep2;
        }
    }
}

__attribute__ ((differentiable))
void
scaled (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double keep3 = x[i * m];
      for (int j = 1; j < m; j++)
        keep3 = fmax (keep3, x[i * m + j]);
      double s = 0;
      for (int j = 0; j < m; j++)
        s += exp (x[i * m + j] - keep3);
      for (int j = 0; j < m; j++)
        y[i * m + j] = exp (x[i * m + j] - keep3) / s * keep3;
    }
}

int
main (void)
{
  int n = 3, m = 7;
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * m, 1, -2, 2);
  TG_GRADCHECK (softmax, &n, &m, x, y);

  double *dx = tg_alloc (n * m), *dy = tg_alloc (n * m), *mo = tg_alloc (n * m);
  tg_fill (dx, n * m, 2, -2, 2);
  TG_GRADCHECK (lse, &m, dx);
  TG_GRADCHECK (logsm, &n, &m, dx, dy);
  TG_GRADCHECK (unnormalized, &n, &m, dx, dy);
  TG_GRADCHECK (stored, &n, &m, dx, dy, mo);
  TG_GRADCHECK (scaled, &n, &m, dx, dy);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "cancel: mx gets no adjoint: the results do not change when an element of it moves" } } */
/* { dg-final { scan-tensorgrad-dump "cancel: max \\(i < n \\+ -1; x\\\[0\\\]; x\\\[1 \\+ i\\\]\\) gets no adjoint: the results do not change when it moves" } } */
/* { dg-final { scan-tensorgrad-dump "cancel: ls gets no adjoint" } } */
/* { dg-final { scan-tensorgrad-dump-not "cancel: keep" } } */
/* { dg-final { scan-tensorgrad-dump-times "cancel: " 3 } } */

/* { dg-do run } */
/* The plugin defines layer_gradcheck, the description of the kernel that
   libtensorgrad's tg_gradcheck needs: checking the generated gradient is
   one call.  A second kernel is checked through a descriptor this file
   does not declare beforehand (the plugin's own type).  The checker must
   pass on both, and report the parameters with the right roles.  */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tensorgrad.h"
#include "tg-test.h"

__attribute__ ((differentiable))
double
layer (int n, int m, double a, const double *x, const double *w, double *y)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    {
      double acc = 0;
      for (int j = 0; j < m; j++)
        acc += x[j] * w[i * m + j];
      y[i] = tanh (a * acc);
      l += y[i] * y[i];
    }
  return l;
}

__attribute__ ((differentiable))
void
axpy (int n, float a, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

TG_DECLARE_GRADCHECK (layer);
TG_DECLARE_GRADCHECK (axpy);

int
main (void)
{
  int n = 3, m = 4;
  double a = 0.7, x[4], w[12], y[3];
  tg_fill (x, 4, 61, -1, 1);
  tg_fill (w, 12, 62, -1, 1);
  tg_report r;
  int bad = tg_gradcheck (&layer_gradcheck, TG_ARGS (&n, &m, &a, x, w, y),
                          NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (bad == 0);
  CHECK (layer_gradcheck.nparams == 6);
  CHECK (strcmp (layer_gradcheck.params[4].name, "w") == 0);
  CHECK (layer_gradcheck.params[4].role == TG_IN);
  CHECK (layer_gradcheck.params[5].role == TG_OUT);
  CHECK (layer_gradcheck.ret == TG_DOUBLE);
  tg_report_free (&r);

  int k = 5;
  float fa = 1.5f, fx[5], fy[5];
  for (int i = 0; i < 5; i++)
    fx[i] = 0.25f * i - 0.5f, fy[i] = 0.5f - 0.125f * i;
  bad = tg_gradcheck (&axpy_gradcheck, TG_ARGS (&k, &fa, fx, fy), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (bad == 0);
  CHECK (axpy_gradcheck.params[3].role == TG_INOUT);
  CHECK (axpy_gradcheck.params[1].kind == TG_FLOAT);
  tg_report_free (&r);
  return tg_exit ();
}

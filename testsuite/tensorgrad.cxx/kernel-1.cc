/* { dg-do run } */
/* { dg-additional-sources "kernel-1-aux.cc" } */
/* A kernel in a C++ file gets a gradient with C++ linkage, its name
   mangled as g++ mangles a declaration of the documented signature:
   kernel-1-aux.cc, another translation unit, declares the gradients
   itself and calls them, so this links only when the names agree.  Here
   one gradient is declared before its kernel, one after; both are
   called, and the descriptor (a variable of the global namespace, whose
   name C++ does not mangle) checks them.

   layer:  y[i] = tanh (w * x[i] + b)
           d_x[i] += d_y[i] * w * (1 - y[i]^2)
           d_w += sum d_y[i] * x[i] * (1 - y[i]^2), d_b += sum d_y[i] (1 - y[i]^2)
   energy: return sum x[i]^2 / 2, d_x[i] += d_return * x[i].  */

#include <cmath>
#include "tg-test.h"

void layer_grad (int n, double w, double b, const double *x, double *y,
                 double *d_w, double *d_b, double *d_x, double *d_y);

__attribute__ ((differentiable))
void
layer (int n, double w, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::tanh (w * x[i] + b);
}

__attribute__ ((differentiable))
float
energy (int n, const float *x)
{
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] / 2;
  return s;
}

void energy_grad (int n, const float *x, float *d_x, float d_return);

/* kernel-1-aux.cc.  */
void call_layer_grad (int n, double w, double b, const double *x, double *y,
                      double *d_w, double *d_b, double *d_x, double *d_y);
void call_energy_grad (int n, const float *x, float *d_x, float d_return);

int
main ()
{
  enum { N = 6 };
  double x[N], y[N], dx[N] = { 0 }, dy[N], w = 0.7, b = -0.2;
  tg_fill (x, N, 1, -2, 2);
  tg_fill (dy, N, 2, -1, 1);
  layer (N, w, b, x, y);
  double dw = 0, db = 0, want_w = 0, want_b = 0;
  call_layer_grad (N, w, b, x, y, &dw, &db, dx, dy);
  for (int i = 0; i < N; i++)
    {
      double t = 1 - y[i] * y[i];
      CHECK_NEAR_AT (dx[i], dy[i] * w * t, 1e-13, 1e-14, i);
      want_w += dy[i] * x[i] * t;
      want_b += dy[i] * t;
    }
  CHECK_NEAR (dw, want_w, 1e-13, 1e-14);
  CHECK_NEAR (db, want_b, 1e-13, 1e-14);
  /* The same gradient through the declaration of this file.  */
  double dx2[N] = { 0 }, dw2 = 0, db2 = 0;
  layer_grad (N, w, b, x, y, &dw2, &db2, dx2, dy);
  CHECK_SAME (dx2, dx, sizeof dx);

  float xf[N], dxf[N] = { 0 };
  tg_fill_f (xf, N, 3, -1, 1);
  call_energy_grad (N, xf, dxf, 2.0f);
  for (int i = 0; i < N; i++)
    CHECK_NEAR_AT (dxf[i], 2.0f * xf[i], 1e-6, 1e-7, i);
  float dxf2[N] = { 0 };
  energy_grad (N, xf, dxf2, 2.0f);
  CHECK_SAME (dxf2, dxf, sizeof dxf);

  int n = N;
  TG_GRADCHECK (layer, &n, &w, &b, x, y);
  TG_GRADCHECK (energy, &n, xf);
  return tg_exit ();
}

/* { dg-do run } */
/* std::max, std::min and std::clamp of <algorithm> in kernels, as C++
   code writes them: they return a reference to an argument, and the
   plugin reads each call as the conditional the standard defines
   (plugin/cxx.cc, step 4).  Each gradient against central differences,
   float and double, the arguments elements, temporaries, constants and
   int counters.

   relu:     y[i] = max (x[i], 0)                          (double)
   hardtanh: y[i] = clamp (a * x[i], -1, 1)                (float, a scalar)
   sat:      y[i] = min (x[i], max (w[i], 0.25f)) * w[i]   (float)
   shift:    y[i] = x[min (i + 1, n - 1)] * x[max (i - 1, 0)] (double,
             edges clamped: min and max of int counters)
   relu_ns:  y[i] = ::std::max<double> (x[i], 0.0) + b     (explicit
             template argument, qualified from the global namespace)
   softmax:  rows of a softmax whose maximum is a running
             mx = std::max (mx, x[j]) (float, a local passed by
             reference, a reduction)
   edge:     y[i] = x[clampi (i - 1, n)] * x[clampi (i + 1, n)], with a
             constexpr helper returning an int expression
             (plugin/int-calls.cc)  */

#include <algorithm>
#include <cmath>
#include "tg-test.h"

__attribute__ ((differentiable)) void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::max (x[i], 0.0);
}

__attribute__ ((differentiable)) void
hardtanh (int n, float a, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::clamp (a * x[i], -1.0f, 1.0f);
}

__attribute__ ((differentiable)) void
sat (int n, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float lim = std::max (w[i], 0.25f);
      y[i] = std::min (x[i], lim) * w[i];
    }
}

__attribute__ ((differentiable)) void
shift (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[std::min (i + 1, n - 1)] * x[std::max (i - 1, 0)];
}

__attribute__ ((differentiable)) void
relu_ns (int n, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = ::std::max<double> (x[i], 0.0) + b;
}

__attribute__ ((differentiable)) void
softmax (int rows, int n, const float *x, float *y)
{
  for (int r = 0; r < rows; r++)
    {
      const float *xr = x + r * n;
      float *yr = y + r * n;
      float mx = -1e30f;
      for (int j = 0; j < n; j++)
        mx = std::max (mx, xr[j]);
      float s = 0.0f;
      for (int j = 0; j < n; j++)
        {
          yr[j] = std::exp (xr[j] - mx);
          s += yr[j];
        }
      for (int j = 0; j < n; j++)
        yr[j] /= s;
    }
}

constexpr int
clampi (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

__attribute__ ((differentiable)) void
edge (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[clampi (i - 1, n)] * x[clampi (i + 1, n)];
}

int
main ()
{
  int n = 23;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  float *xf = tg_alloc_f (n), *wf = tg_alloc_f (n), *yf = tg_alloc_f (n);
  /* Away from the kinks, which central differences cannot straddle.  */
  for (int i = 0; i < n; i++)
    {
      x[i] = (i % 2 ? 1 : -1) * (0.1 + 0.05 * i);
      xf[i] = (float) ((i % 3 ? 1 : -1) * (0.05 + 0.07 * i));
      wf[i] = (float) (i % 4 ? 0.3 + 0.04 * i : 0.1);
    }
  float a = 0.8f;
  double b = 0.5;
  TG_GRADCHECK (relu, &n, x, y);
  TG_GRADCHECK (hardtanh, &n, &a, xf, yf);
  TG_GRADCHECK (sat, &n, xf, wf, yf);
  TG_GRADCHECK (shift, &n, x, y);
  TG_GRADCHECK (edge, &n, x, y);
  TG_GRADCHECK (relu_ns, &n, &b, x, y);
  int rows = 3, cols = 7;
  float *sx = tg_alloc_f (rows * cols), *sy = tg_alloc_f (rows * cols);
  tg_fill_f (sx, rows * cols, 11, -2, 2);
  TG_GRADCHECK (softmax, &rows, &cols, sx, sy);
  free (sx), free (sy);
  free (x), free (y), free (xf), free (wf), free (yf);
  return tg_exit ();
}

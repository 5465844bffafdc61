/* { dg-do run } */
/* The C++ a kernel may use, each checked by its descriptor: the
   [[gnu::differentiable]] spelling, noexcept, <cmath>'s overloads in
   std:: for float and double (std::exp, std::tanh, std::fmax, std::sqrt),
   static_cast, auto and constexpr locals, a reference to an element,
   nullptr tests of an optional input, a constexpr helper function and a
   static inline one, an std::size_t counter, calls of other kernels of
   the file, and a gradient written by hand.

   gelu_ish: y[i] = x[i] * sigm (1.702 x[i]), sigm (a) = 1 / (1 + exp (-a))
   norm:     y[i] = x[i] / sqrt (sum_j x[j]^2 + eps)
   clamp0:   y[i] = fmax (x[i], 0) + (b ? b[i] : 0)
   twice:    y[i] = 2 x[i], its gradient written by hand
   chain:    twice (clamp0 (x))  */

#include <cmath>
#include <cstddef>
#include "tg-test.h"

constexpr double
sigm (double a)
{
  return 1 / (1 + std::exp (-a));
}

static inline float
sq (float v)
{
  return v * v;
}

[[gnu::differentiable]] void
gelu_ish (int n, const double *x, double *y) noexcept
{
  for (int i = 0; i < n; i++)
    {
      constexpr double k = 1.702;
      auto v = x[i];
      y[i] = v * sigm (k * v);
    }
}

__attribute__ ((differentiable))
void
norm (std::size_t n, const float *x, float *y)
{
  float s = 1e-3f;
  for (std::size_t j = 0; j < n; j++)
    s += sq (x[j]);
  const float r = 1 / std::sqrt (s);
  for (std::size_t i = 0; i < n; i++)
    {
      float &out = y[i];
      out = static_cast<float> (x[i] * r);
    }
}

__attribute__ ((differentiable))
void
clamp0 (int n, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::fmax (x[i], 0.0) + (b != nullptr ? b[i] : 0.0)
           + std::tanh (0.0 * x[i]);
}

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

void
twice_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) x;
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += 2 * d_y[i];
}

__attribute__ ((differentiable))
void
chain (int n, const double *x, const double *b, double *t, double *y)
{
  clamp0 (n, x, b, t);
  twice (n, t, y);
}

int
main ()
{
  enum { N = 6 };
  int n = N;
  double x[N], y[N], b[N], t[N];
  float xf[N], yf[N];
  tg_fill_away (x, N, 1, -2, 2, 0, 0.05);
  tg_fill (b, N, 2, -1, 1);
  tg_fill_f (xf, N, 3, -1, 1);
  TG_GRADCHECK (gelu_ish, &n, x, y);
  std::size_t nz = N;
  TG_GRADCHECK (norm, &nz, xf, yf);
  TG_GRADCHECK (clamp0, &n, x, b, y);
  TG_GRADCHECK_NULL (clamp0, "b", &n, x, b, y);

  /* chain calls a kernel whose gradient is hand-written: no descriptor
     (README); its gradient by the formula: d_x[i] += 2 (d_y[i] + d_t[i])
     where x[i] > 0, d_b[i] += 2 d_y[i] + d_t[i].  */
  void chain_grad (int n, const double *x, const double *b, double *t,
                   double *y, double *d_x, double *d_b, double *d_t,
                   double *d_y);
  double dx[N] = { 0 }, db[N] = { 0 }, dt[N], dy[N];
  tg_fill (dt, N, 4, -1, 1);
  tg_fill (dy, N, 5, -1, 1);
  chain (N, x, b, t, y);
  chain_grad (N, x, b, t, y, dx, db, dt, dy);
  for (int i = 0; i < N; i++)
    {
      CHECK_NEAR_AT (dx[i], x[i] > 0 ? 2 * dy[i] + dt[i] : 0, 1e-14, 1e-14,
                     i);
      CHECK_NEAR_AT (db[i], 2 * dy[i] + dt[i], 1e-14, 1e-14, i);
    }
  return tg_exit ();
}

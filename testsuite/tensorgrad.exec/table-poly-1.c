/* { dg-do run } */
/* Constant tables of coefficients, read as constants with no adjoint of
   their own (the gradient's signature has none: only d_x, d_y).
   poly:    y[i] = sum_k c[k] x[i*4+k], c a file-scope static const
            double[4]:  d_x[i*4+k] += c[k] d_y[i].
   wpoly:   float, a function's static const float w[5] read at a
            counter expression, w[(i + k) % 5], and a const global scalar
            gain:  y[i] = gain * sum_k w[(i+k) % 5] x[i+k]^2,
            d_x[i+k] += 2 gain w[(i+k) % 5] x[i+k] d_y[i].
   horner:  a table of powers read in a recurrence, p = p x + c[k]
            (Horner's rule, coefficients from the table, k counting
            down): d_x[i] += p'(x[i]) d_y[i].
   fir:     double, a table with an element the initializer leaves out
            (zero) and one given twice as a designated initializer, at a
            tap index: y[j] = sum_t h[t] x[j + 4 - t], so d_x[j + 4 - t] += h[t]
            d_y[j].
   ranged:  a table with a GNU range initializer, [1 ... 3] = 2.0, then
            5.0: y[i] = r[i % 6] x[i], d_x[i] += r[i % 6] d_y[i].  */

#include "tg-test.h"

static const double c[4] = { 1.0, 0.5, 0.25, 0.125 };
const float gain = 1.5f;

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = 0; k < 4; k++)
        s += c[k] * x[i * 4 + k];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
wpoly (int n, const float *x, float *y)
{
  static const float w[5] = { 0.5f, -1.25f, 2.0f, 0.75f, -0.375f };
  for (int i = 0; i < n; i++)
    {
      float s = 0;
      for (int k = 0; k < 3; k++)
        s += w[(i + k) % 5] * x[i + k] * x[i + k];
      y[i] = gain * s;
    }
}

static const double pw[6] = { 0.1, -0.7, 0.3, 1.1, -0.2, 0.05 };

__attribute__ ((differentiable))
void
horner (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double p = pw[5];
      for (int k = 4; k >= 0; k--)
        p = p * x[i] + pw[k];
      y[i] = p;
    }
}

static const double h[5] = { [0] = 0.25, [1] = -0.5, [3] = 2.0, [1] = 0.75 };

__attribute__ ((differentiable))
void
fir (int n, const double *x, double *y)
{
  for (int j = 0; j < n; j++)
    {
      double s = 0;
      for (int t = 0; t < 5; t++)
        s += h[t] * x[j + 4 - t];
      y[j] = s;
    }
}

static const double r[6] = { [1 ... 3] = 2.0, 5.0 };

__attribute__ ((differentiable))
void
ranged (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = r[i % 6] * x[i];
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (4 * n), *y = tg_alloc (n);
  tg_fill (x, 4 * n, 1, -2, 2);
  TG_GRADCHECK (poly, &n, x, y);

  float *xf = tg_alloc_f (n + 2), *yf = tg_alloc_f (n);
  tg_fill_f (xf, n + 2, 2, -1.5, 1.5);
  TG_GRADCHECK (wpoly, &n, xf, yf);

  double *xh = tg_alloc (n), *yh = tg_alloc (n);
  tg_fill (xh, n, 3, -1.2, 1.2);
  TG_GRADCHECK (horner, &n, xh, yh);

  /* The values themselves: h is { 0.25, 0.75, 0, 2, 0 }, and d_y = e_1
     gives d_x[5 - t] = h[t].  */
  int m = 4;
  double *xr = tg_alloc (m + 4), *yr = tg_alloc (m);
  tg_fill (xr, m + 4, 4, -1, 1);
  TG_GRADCHECK (fir, &m, xr, yr);
  double dx[8] = { 0 }, dy[4] = { 0, 1, 0, 0 };
  fir_grad (m, xr, yr, dx, dy);
  CHECK_NEAR (dx[1], 0.0, 0, 0);
  CHECK_NEAR (dx[2], 2.0, 0, 0);
  CHECK_NEAR (dx[3], 0.0, 0, 0);
  CHECK_NEAR (dx[4], 0.75, 0, 0);
  CHECK_NEAR (dx[5], 0.25, 0, 0);

  int nr = 7;
  double xg[7], yg[7], dxg[7] = { 0 }, dyg[7] = { 1, 1, 1, 1, 1, 1, 1 };
  static const double want[7] = { 0, 2, 2, 2, 5, 0, 0 };
  tg_fill (xg, nr, 5, -1, 1);
  TG_GRADCHECK (ranged, &nr, xg, yg);
  ranged_grad (nr, xg, yg, dxg, dyg);
  for (int i = 0; i < nr; i++)
    CHECK_NEAR_AT (dxg[i], want[i], 0, 0, i);
  return tg_exit ();
}

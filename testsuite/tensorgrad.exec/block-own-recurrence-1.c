/* { dg-do run } */
/* A scratch row seeded and then recurred within each step of an outer
   loop, the step a block (its first loop reads all of the state):
   sseed:  float, g = tanh (W h), c[0] = g[0], c[j] = c[j-1] / 2 + g[j],
           h = c, T steps, out = h:  backwards over the steps and, in
           each, over j from the last element down,
           d_c[j-1] += d_c[j] / 2, d_g[j] += d_c[j], then
           d_a = d_g (1 - g^2), d_W += d_a h^T, d_h = W^T d_a;
   suffix: double, the seed at the row's end and the recurrence counting
           down, c[n-1] = g[n-1], c[j] = a c[j+1] + g[j], with an
           optional bias (b ? b[j] : 0) and the state's row a pointer
           into U: d_c[j+1] += a d_c[j], d_a += c[j+1] d_c[j];
   grow:   double, a scalar the outer loop carries, updated from itself
           in an inner loop, s += x[j][i] s, y[j] = s: d_s = d_s (1 +
           x[j][i]), d_x[j][i] = d_s s_before, the inner loop backwards;
   rsuf:   double, no block: a suffix recurrence in every row of a
           matrix over a row of its own, y[r] = c through a pointer;
   chain:  float, a nonlinear recurrence seeded by a dot product,
           c[0] = w . h, c[j] = tanh (c[j-1] + h[j]):
           d_c[j-1] += d_c[j] (1 - c[j]^2), d_h[j] += the same.
   Sizes T = 4, 1 and n = 5, 1, 2.  */

#include <math.h>
#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sseed (int T, int n, const float *W, const float *x, float *out)
{
  float h[n], c[n], g[n];
  for (int j = 0; j < n; j++)
    h[j] = x[j];
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < n; j++)
        {
          float a = 0;
          for (int k = 0; k < n; k++)
            a += W[j * n + k] * h[k];
          g[j] = tanhf (a);
        }
      c[0] = g[0];
      for (int j = 1; j < n; j++)
        c[j] = c[j - 1] * 0.5f + g[j];
      for (int j = 0; j < n; j++)
        h[j] = c[j];
    }
  for (int j = 0; j < n; j++)
    out[j] = h[j];
}

__attribute__ ((differentiable))
void
suffix (int T, int n, double a, const double *U, const double *h0,
        const double *b, double *hT)
{
  double h[n], c[n], g[n];
  for (int j = 0; j < n; j++)
    h[j] = h0[j];
  for (int t = 0; t < T; t++)
    {
      for (int j = 0; j < n; j++)
        {
          const double *u = U + j * n;
          double s = b ? b[j] : 0;
          for (int k = 0; k < n; k++)
            s += u[k] * h[k];
          g[j] = sin (s);
        }
      c[n - 1] = g[n - 1];
      for (int j = n - 2; j >= 0; j--)
        c[j] = a * c[j + 1] + g[j];
      for (int j = 0; j < n; j++)
        h[j] = c[j];
    }
  for (int j = 0; j < n; j++)
    hT[j] = h[j];
}

__attribute__ ((differentiable))
void
grow (int m, int n, const double *x, double *y)
{
  double s = 1;
  for (int j = 0; j < m; j++)
    {
      for (int i = 0; i < n; i++)
        s += x[j * n + i] * s;
      y[j] = s;
    }
}

__attribute__ ((differentiable))
void
rsuf (int R, int n, double a, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      double g[n], c[n];
      const double *xr = x + r * n;
      double *yr = y + r * n;
      for (int j = 0; j < n; j++)
        g[j] = sin (xr[j]);
      c[n - 1] = g[n - 1];
      for (int j = n - 2; j >= 0; j--)
        c[j] = a * c[j + 1] + g[j];
      for (int j = 0; j < n; j++)
        yr[j] = c[j];
    }
}

__attribute__ ((differentiable))
void
chain (int T, int n, const float *x, const float *w, float *y)
{
  float h[n], c[n];
  for (int j = 0; j < n; j++)
    h[j] = x[j];
  for (int t = 0; t < T; t++)
    {
      float m = 0;
      for (int j = 0; j < n; j++)
        m += w[j] * h[j];
      c[0] = m;
      for (int j = 1; j < n; j++)
        c[j] = tanhf (c[j - 1] + h[j]);
      for (int j = 0; j < n; j++)
        h[j] = c[j];
    }
  for (int j = 0; j < n; j++)
    y[j] = h[j];
}

int
main (void)
{
  static const int Ts[] = { 4, 1, 3 }, ns[] = { 5, 1, 2 };
  for (int q = 0; q < 3; q++)
    {
      int T = Ts[q], n = ns[q];
      double a = 0.6;
      float *W = tg_alloc_f (n * n), *xf = tg_alloc_f (n);
      float *out = tg_alloc_f (n);
      tg_fill_f (W, n * n, 1 + q, -0.8, 0.8);
      tg_fill_f (xf, n, 11 + q, -1, 1);
      TG_GRADCHECK (sseed, &T, &n, W, xf, out);
      TG_GRADCHECK (chain, &T, &n, xf, W, out);

      double *U = tg_alloc (n * n), *h0 = tg_alloc (n), *b = tg_alloc (n);
      double *hT = tg_alloc (n);
      tg_fill (U, n * n, 21 + q, -0.8, 0.8);
      tg_fill (h0, n, 31 + q, -1, 1);
      tg_fill (b, n, 41 + q, -0.5, 0.5);
      TG_GRADCHECK (suffix, &T, &n, &a, U, h0, b, hT);
      TG_GRADCHECK_NULL (suffix, "b", &T, &n, &a, U, h0, b, hT);

      double *x = tg_alloc (T * n), *y = tg_alloc (T * n);
      tg_fill (x, T * n, 51 + q, -0.3, 0.3);
      TG_GRADCHECK (grow, &T, &n, x, y);
      TG_GRADCHECK (rsuf, &T, &n, &a, x, y);
      free (W), free (xf), free (out), free (U), free (h0), free (b),
        free (hT), free (x), free (y);
    }
  return tg_exit ();
}

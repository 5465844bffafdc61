/* { dg-do run } */
/* Helper functions of the file that are not marked differentiable, as
   people write them: a static inline sigmoid in an LSTM-like cell, a
   leaky ReLU that returns early, a helper calling another one defined
   after the kernel, a float helper with an integer parameter, a helper
   whose loop is a product of its parameter.  Each is lifted for the
   kernels that call it and its value substituted where it is called; it
   gets no gradient of its own (a test below defines the names
   sigm_grad and lrelu_grad for something else).

   TG_GRADCHECK checks every shadow against central differences, also
   with shadows passed as NULL.  */

#include <math.h>
#include "tg-test.h"

static inline double
sigm (double a)
{
  return 1.0 / (1.0 + exp (-a));
}

static double
lrelu (double a)
{
  if (a > 0)
    return a;
  return 0.01 * a;
}

static double twice_tanh (double a);

static double
mixed (double a)
{
  return twice_tanh (a) + lrelu (a - 0.25);
}

static inline float
scale_by (float a, int k)
{
  return a * (float) k + 0.5f * a * a;
}

static double
ipow (double a, int n)
{
  double r = 1;
  for (int i = 0; i < n; i++)
    r *= a;
  return r;
}

/* The names a gradient of the helpers would take: not made.  */
int sigm_grad = 7;
double lrelu_grad (double a) { return a; }

/* One step of a gated cell: g holds four gates per unit.  */
__attribute__ ((differentiable))
void
cell (int H, const double *g, const double *c0, double *c, double *h)
{
  for (int j = 0; j < H; j++)
    {
      double i = sigm (g[j]), f = sigm (g[H + j]);
      double u = tanh (g[2 * H + j]), o = sigm (g[3 * H + j]);
      c[j] = f * c0[j] + i * u;
      h[j] = o * tanh (c[j]);
    }
}

__attribute__ ((differentiable))
double
act_sum (int n, const double *x, const double *w)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * mixed (x[i]) + lrelu (x[i] * w[i]);
  return s;
}

__attribute__ ((differentiable))
void
scale_rows (int n, int m, const float *x, float *y)
{
  for (int r = 0; r < n; r++)
    for (int k = 0; k < m; k++)
      y[r * m + k] = scale_by (x[r * m + k], r + 1);
}

__attribute__ ((differentiable))
void
cubes (int n, const double *x, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = ipow (x[i] + b[i], 3) - sigm (b[i]);
}

static double
twice_tanh (double a)
{
  return 2 * tanh (a);
}

int
main (void)
{
  int H = 5, n = 7, m = 3;
  double *g = tg_alloc (4 * H), *c0 = tg_alloc (H), *c = tg_alloc (H);
  double *h = tg_alloc (H);
  tg_fill (g, 4 * H, 1, -2, 2);
  tg_fill (c0, H, 2, -1, 1);
  TG_GRADCHECK (cell, &H, g, c0, c, h);
  TG_GRADCHECK_NULL (cell, "c0", &H, g, c0, c, h);

  double *x = tg_alloc (n), *w = tg_alloc (n);
  /* Both arms of lrelu, away from its kink: x - 0.25 and x w have the
     sign of x.  */
  tg_fill (x, n, 3, 0.5, 1.5);
  for (int i = 0; i < n; i += 2)
    x[i] = -x[i];
  tg_fill (w, n, 4, 0.3, 1.5);
  TG_GRADCHECK (act_sum, &n, x, w);
  TG_GRADCHECK_NULL (act_sum, "w", &n, x, w);

  float *xf = tg_alloc_f (n * m), *yf = tg_alloc_f (n * m);
  tg_fill_f (xf, n * m, 5, -1, 1);
  TG_GRADCHECK (scale_rows, &n, &m, xf, yf);

  double *b = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (b, n, 6, -1, 1);
  TG_GRADCHECK (cubes, &n, x, b, y);
  TG_GRADCHECK_NULL (cubes, "x", &n, x, b, y);
  CHECK (sigm_grad == 7 && lrelu_grad (2) == 2);
  return tg_exit ();
}

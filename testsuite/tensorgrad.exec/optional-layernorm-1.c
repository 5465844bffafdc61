/* { dg-do run } */
/* A layer norm whose scale g and shift b may each be NULL:
     m = mean_i x[n][i], r = 1 / sqrt (var + eps),
     y[n][i] = (x[n][i] - m) r (g ? g[i] : 1) + (b ? b[i] : 0).
   With G = g ? g[i] : 1 and xh = (x - m) r:
     d_b[i] += sum_n d_y (b given), d_g[i] += sum_n d_y xh (g given),
     d_x[n][i] += r (G d_y - mean_j (G d_y) - xh mean_j (G d_y xh)).
   Checked in double and float with both, either and neither given, and
   with NULL shadows.  */

#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int N, int D, const double *x, const double *g, const double *b,
           double *y)
{
  for (int n = 0; n < N; n++)
    {
      double m = 0;
      for (int i = 0; i < D; i++)
        m += x[n * D + i];
      m /= D;
      double v = 0;
      for (int i = 0; i < D; i++)
        v += (x[n * D + i] - m) * (x[n * D + i] - m);
      double r = 1 / sqrt (v / D + 1e-5);
      for (int i = 0; i < D; i++)
        y[n * D + i] = (x[n * D + i] - m) * r * (g ? g[i] : 1)
                       + (b ? b[i] : 0);
    }
}

__attribute__ ((differentiable))
void
layernorm_f (int N, int D, const float *x, const float *g, const float *b,
             float *y)
{
  for (int n = 0; n < N; n++)
    {
      float m = 0;
      for (int i = 0; i < D; i++)
        m += x[n * D + i];
      m /= D;
      float v = 0;
      for (int i = 0; i < D; i++)
        v += (x[n * D + i] - m) * (x[n * D + i] - m);
      float r = 1 / sqrtf (v / D + 1e-5f);
      for (int i = 0; i < D; i++)
        y[n * D + i] = (x[n * D + i] - m) * r * (g != NULL ? g[i] : 1.0f)
                       + (b != NULL ? b[i] : 0.0f);
    }
}

int
main (void)
{
  int N = 3, D = 6;
  double *x = tg_alloc (N * D), *g = tg_alloc (D), *b = tg_alloc (D);
  double *y = tg_alloc (N * D);
  tg_fill (x, N * D, 1, -1, 1);
  tg_fill (g, D, 2, 0.5, 1.5);
  tg_fill (b, D, 3, -1, 1);
  TG_GRADCHECK (layernorm, &N, &D, x, g, b, y);
  TG_GRADCHECK (layernorm, &N, &D, x, NULL, b, y);
  TG_GRADCHECK (layernorm, &N, &D, x, g, NULL, y);
  TG_GRADCHECK (layernorm, &N, &D, x, NULL, NULL, y);
  TG_GRADCHECK_NULL (layernorm, "g b", &N, &D, x, g, b, y);
  TG_GRADCHECK_NULL (layernorm, "x", &N, &D, x, g, NULL, y);

  float *xf = tg_alloc_f (N * D), *gf = tg_alloc_f (D), *bf = tg_alloc_f (D);
  float *yf = tg_alloc_f (N * D);
  tg_fill_f (xf, N * D, 4, -1, 1);
  tg_fill_f (gf, D, 5, 0.5, 1.5);
  tg_fill_f (bf, D, 6, -1, 1);
  TG_GRADCHECK (layernorm_f, &N, &D, xf, gf, bf, yf);
  TG_GRADCHECK (layernorm_f, &N, &D, xf, NULL, bf, yf);
  TG_GRADCHECK (layernorm_f, &N, &D, xf, gf, NULL, yf);
  TG_GRADCHECK (layernorm_f, &N, &D, xf, NULL, NULL, yf);
  TG_GRADCHECK_NULL (layernorm_f, "b", &N, &D, xf, gf, NULL, yf);
  return tg_exit ();
}

/* { dg-do run } */
/* 3x3 stencils whose weights are 2-D constant tables, read as constants
   (no adjoint; flattened, k[a][b] is element 3a + b).
   blur:    float, the table a function's static const float k[3][3]:
            y[i][j] = sum_ab k[a][b] x[i+a][j+b] over an (h+2) x (w+2)
            image: d_x[i+a][j+b] += k[a][b] d_y[i][j].
   sobel:   double, a file-scope table, the stencil's result squared
            (an edge energy): y[i][j] = (sum_ab s[a][b] x[i+a][j+b])^2,
            d_x[i+a][j+b] += 2 g[i][j] s[a][b] d_y[i][j], g the sum.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
blur (int h, int w, const float *x, float *y)
{
  static const float k[3][3] = { { 0.0625f, 0.125f, 0.0625f },
                                 { 0.125f, 0.25f, 0.125f },
                                 { 0.0625f, 0.125f, -0.5f } };
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      {
        float s = 0;
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++)
            s += k[a][b] * x[(i + a) * (w + 2) + j + b];
        y[i * w + j] = s;
      }
}

static const double sob[3][3] = { { -1, 0, 1 }, { -2, 0, 2 }, { -1, 0.5, 1 } };

__attribute__ ((differentiable))
void
sobel (int h, int w, const double *x, double *y)
{
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      {
        double g = 0;
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++)
            g += sob[a][b] * x[(i + a) * (w + 2) + j + b];
        y[i * w + j] = g * g;
      }
}

int
main (void)
{
  int h = 4, w = 3;
  float *x = tg_alloc_f ((h + 2) * (w + 2)), *y = tg_alloc_f (h * w);
  tg_fill_f (x, (h + 2) * (w + 2), 1, -1, 1);
  TG_GRADCHECK (blur, &h, &w, x, y);

  /* d_y at one output: d_x is the stencil itself, placed there.  */
  float dx[30] = { 0 }, dy[12] = { 0 };
  dy[1 * w + 1] = 1;
  blur_grad (h, w, x, y, dx, dy);
  CHECK_NEAR (dx[1 * 5 + 1], 0.0625, 0, 0);
  CHECK_NEAR (dx[2 * 5 + 2], 0.25, 0, 0);
  CHECK_NEAR (dx[3 * 5 + 3], -0.5, 0, 0);
  CHECK_NEAR (dx[0], 0.0, 0, 0);

  int hs = 3, ws = 5;
  double *xs = tg_alloc ((hs + 2) * (ws + 2)), *ys = tg_alloc (hs * ws);
  tg_fill (xs, (hs + 2) * (ws + 2), 2, -2, 2);
  TG_GRADCHECK (sobel, &hs, &ws, xs, ys);
  return tg_exit ();
}

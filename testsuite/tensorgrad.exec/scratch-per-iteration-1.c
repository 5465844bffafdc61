/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Scratch rewritten in every iteration of an outer loop: a small local
   array that each iteration writes, then reads in later inner loops.
   The gradient needs the values of every iteration, so the array gets
   one copy per iteration, rows as long as what an iteration writes (H of
   the 16 declared; the dump says how many elements).
   mlp:   per sample b, h[j] = tanh (W1[j] . x[b]) into double h[16], then
          y[b] = w2 . h:  d_w2[j] += sum_b d_y[b] h_b[j],
          d_W1[j][i] += sum_b d_y[b] w2[j] (1 - h_b[j]^2) x[b][i];
   norm:  float, per row a VLA e[m] = exp (x[r][j]), its sum, then the
          row divided by it (a softmax through scratch), with the input
          shadow also left NULL.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mlp (int B, int D, int H, const double *x, const double *W1,
     const double *w2, double *y)
{
  for (int b = 0; b < B; b++)
    {
      double h[16];
      for (int j = 0; j < H; j++)
        {
          double s = 0;
          for (int i = 0; i < D; i++)
            s += W1[j * D + i] * x[b * D + i];
          h[j] = tanh (s);
        }
      double o = 0;
      for (int j = 0; j < H; j++)
        o += w2[j] * h[j];
      y[b] = o;
    }
}

__attribute__ ((differentiable))
void
norm (int R, int m, const float *x, float *y)
{
  for (int r = 0; r < R; r++)
    {
      float e[m];
      for (int j = 0; j < m; j++)
        e[j] = expf (x[r * m + j]);
      float z = 0;
      for (int j = 0; j < m; j++)
        z += e[j];
      for (int j = 0; j < m; j++)
        y[r * m + j] = e[j] / z;
    }
}

int
main (void)
{
  int B = 3, D = 4, H = 5;
  double *x = tg_alloc (B * D), *W1 = tg_alloc (H * D), *w2 = tg_alloc (H);
  double *y = tg_alloc (B);
  tg_fill (x, B * D, 1, -1, 1);
  tg_fill (W1, H * D, 2, -1, 1);
  tg_fill (w2, H, 3, -1, 1);
  TG_GRADCHECK (mlp, &B, &D, &H, x, W1, w2, y);

  int R = 2, m = 6;
  float *xf = tg_alloc_f (R * m), *yf = tg_alloc_f (R * m);
  tg_fill_f (xf, R * m, 4, -1, 1);
  TG_GRADCHECK (norm, &R, &m, xf, yf);
  TG_GRADCHECK_NULL (norm, "x", &R, &m, xf, yf);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "expand: h, rewritten in every iteration of the loops around it, gets one copy per iteration: max \\(B, 0\\) \\* max \\(H, 0\\) elements" } } */
/* { dg-final { scan-tensorgrad-dump "expand: e, rewritten in every iteration of the loops around it, gets one copy per iteration: max \\(R, 0\\) \\* max \\(m, 0\\) elements" } } */

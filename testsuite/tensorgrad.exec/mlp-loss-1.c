/* { dg-do run } */
/* An MLP and its loss in one function, as a first training loop writes
   it: for each sample a hidden layer into a local h[H], the prediction a
   sum over h, and the squared error summed over the samples into one
   scalar.  The prediction's sum reads h, which every sample rewrites,
   inside the loss's sum over the samples: it is computed per sample.
     L = sum_n (sum_j v[j] tanh (sum_i W[j][i] X[n][i] + b[j]) - Y[n])^2 / N,
     d_v[j] += sum_n 2 r_n h_nj / N,  r_n the residual,
     d_W[j][i] += sum_n 2 r_n v[j] (1 - h_nj^2) X[n][i] / N.
   Float: a per-sample scratch of constant size and the mean absolute
   error's smooth cousin sqrt (r^2 + eps).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
mse (int N, int D, int H, const double *X, const double *Y, const double *W,
     const double *b, const double *v)
{
  double loss = 0;
  for (int n = 0; n < N; n++)
    {
      double h[H];
      for (int j = 0; j < H; j++)
        {
          double a = b[j];
          for (int i = 0; i < D; i++)
            a += W[j * D + i] * X[n * D + i];
          h[j] = tanh (a);
        }
      double yhat = 0;
      for (int j = 0; j < H; j++)
        yhat += v[j] * h[j];
      double r = yhat - Y[n];
      loss += r * r;
    }
  return loss / N;
}

__attribute__ ((differentiable))
float
smooth_l1 (int N, int D, const float *X, const float *Y, const float *W)
{
  float loss = 0.0f;
  for (int n = 0; n < N; n++)
    {
      float h[8];
      for (int j = 0; j < 8; j++)
        {
          float a = 0.0f;
          for (int i = 0; i < D; i++)
            a += W[j * D + i] * X[n * D + i];
          h[j] = a > 0.0f ? a : 0.1f * a;
        }
      float yhat = 0.0f;
      for (int j = 0; j < 8; j++)
        yhat += h[j];
      float r = yhat - Y[n];
      loss += sqrtf (r * r + 0.01f);
    }
  return loss;
}

int
main (void)
{
  int N = 5, D = 3, H = 4;
  double *X = tg_alloc (N * D), *Y = tg_alloc (N), *W = tg_alloc (H * D);
  double *b = tg_alloc (H), *v = tg_alloc (H);
  tg_fill (X, N * D, 1, -1, 1);
  tg_fill (Y, N, 2, -1, 1);
  tg_fill (W, H * D, 3, -1, 1);
  tg_fill (b, H, 4, -0.5, 0.5);
  tg_fill (v, H, 5, -1, 1);
  TG_GRADCHECK (mse, &N, &D, &H, X, Y, W, b, v);
  TG_GRADCHECK_NULL (mse, "X Y", &N, &D, &H, X, Y, W, b, v);
  float *Xf = tg_alloc_f (N * D), *Yf = tg_alloc_f (N);
  float *Wf = tg_alloc_f (8 * D);
  tg_fill_f (Xf, N * D, 6, -1, 1);
  tg_fill_f (Yf, N, 7, -1, 1);
  tg_fill_f (Wf, 8 * D, 8, -1, 1);
  TG_GRADCHECK (smooth_l1, &N, &D, Xf, Yf, Wf);
  return tg_exit ();
}

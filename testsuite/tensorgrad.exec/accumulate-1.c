/* { dg-do run } */
/* A sum the gradient computes again, whose term strides along the sum's
   loop (lib/passes/accumulate.c): an MLP's hidden layer in a local
   array, w1 laid out input by input (w1[p*h + j]), is added into its
   element input by input with j innermost, then tanh applied in place.
   mlp: float, the logits a second such sum (no function applied), the
   labels gathered; mlp_d: double, the hidden layer's sum over two loops
   (an input of A x B features), the bias through a row pointer;
   tri: a sum over p <= j, whose loop j cannot be innermost, stays as it
   is; short4: a hidden layer of a constant 4 units stays as it is.
   Sizes leave a rest after blocks of 8; checked against central
   differences, also with NULL shadows.  The pass accumulate-stages, before
   rows.c, makes the additions of these (its note names itself).  With
   no-tiled: the sums are matrix products, which the pass blas would
   otherwise take first (tiled-dense-1.c).  */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-no-tiled" } */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
mlp (int n, int d, int h, int c, const float *x, const float *w1,
     const float *b1, const float *w2, const int *label)
{
  float hid[n * h], z[n * c];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
        float acc = b1[j];
        for (int p = 0; p < d; p++)
          acc += x[i * d + p] * w1[p * h + j];
        hid[i * h + j] = tanhf (acc);
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
        float acc = 0;
        for (int p = 0; p < h; p++)
          acc += hid[i * h + p] * w2[p * c + j];
        z[i * c + j] = acc;
      }
  double loss = 0;
  for (int i = 0; i < n; i++)
    {
      float s = 0;
      for (int j = 0; j < c; j++)
        s += expf (z[i * c + j]);
      loss += logf (s) - z[i * c + label[i]];
    }
  return loss / n;
}

__attribute__ ((differentiable))
double
mlp_d (int n, int A, int B, int h, const double *x, const double *w,
       const double *bias, const double *v)
{
  double hid[n * h];
  for (int i = 0; i < n; i++)
    {
      const double *xi = x + i * A * B;
      for (int j = 0; j < h; j++)
        {
          double acc = bias[j];
          for (int a = 0; a < A; a++)
            for (int b = 0; b < B; b++)
              acc += xi[a * B + b] * w[(a * B + b) * h + j];
          hid[i * h + j] = acc > 0 ? acc * acc : 0.5 * acc;
        }
    }
  double loss = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      loss += v[j] * hid[i * h + j];
  return loss;
}

__attribute__ ((differentiable))
double
tri (int n, int h, const double *x, const double *w)
{
  double t[n * h];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
        double acc = 0;
        for (int p = 0; p <= j; p++)
          acc += x[i * h + p] * w[p * h + j];
        t[i * h + j] = tanh (acc);
      }
  double loss = 0;
  for (int i = 0; i < n * h; i++)
    loss += t[i] * t[i];
  return loss;
}

__attribute__ ((differentiable))
double
short4 (int n, int d, const double *x, const double *w)
{
  double t[n * 4];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      {
        double acc = 0;
        for (int p = 0; p < d; p++)
          acc += x[i * d + p] * w[p * 4 + j];
        t[i * 4 + j] = tanh (acc);
      }
  double loss = 0;
  for (int i = 0; i < n * 4; i++)
    loss += t[i] * t[i];
  return loss;
}

int
main (void)
{
  int n = 3, d = 7, h = 19, c = 5;
  float *x = tg_alloc_f (n * d), *w1 = tg_alloc_f (d * h);
  float *b1 = tg_alloc_f (h), *w2 = tg_alloc_f (h * c);
  int label[3] = { 4, 0, 2 };
  tg_fill_f (x, n * d, 1, -1, 1);
  tg_fill_f (w1, d * h, 2, -0.5, 0.5);
  tg_fill_f (b1, h, 3, -0.5, 0.5);
  tg_fill_f (w2, h * c, 4, -0.5, 0.5);
  TG_GRADCHECK (mlp, &n, &d, &h, &c, x, w1, b1, w2, label);
  TG_GRADCHECK_NULL (mlp, "x", &n, &d, &h, &c, x, w1, b1, w2, label);
  TG_GRADCHECK_NULL (mlp, "w1 b1", &n, &d, &h, &c, x, w1, b1, w2, label);
  int h3 = 3;
  TG_GRADCHECK (mlp, &n, &d, &h3, &c, x, w1, b1, w2, label);

  int A = 2, B = 3, hd = 11;
  double *xd = tg_alloc (n * A * B), *w = tg_alloc (A * B * hd);
  double *bias = tg_alloc (hd), *v = tg_alloc (hd);
  tg_fill (xd, n * A * B, 5, -1, 1);
  tg_fill (w, A * B * hd, 6, -1, 1);
  tg_fill (bias, hd, 7, 0.2, 1);
  tg_fill (v, hd, 8, -1, 1);
  TG_GRADCHECK (mlp_d, &n, &A, &B, &hd, xd, w, bias, v);
  TG_GRADCHECK_NULL (mlp_d, "w", &n, &A, &B, &hd, xd, w, bias, v);

  int th = 17;
  double *tx = tg_alloc (n * th), *tw = tg_alloc (th * th);
  tg_fill (tx, n * th, 9, -1, 1);
  tg_fill (tw, th * th, 10, -0.3, 0.3);
  TG_GRADCHECK (tri, &n, &th, tx, tw);
  double *sx = tg_alloc (n * d), *sw = tg_alloc (d * 4);
  tg_fill (sx, n * d, 11, -1, 1);
  tg_fill (sw, d * 4, 12, -1, 1);
  TG_GRADCHECK (short4, &n, &d, sx, sw);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "accumulate(-stages)?: the sum over p into hid, by additions with j innermost" } } */
/* { dg-final { scan-tensorgrad-dump "accumulate(-stages)?: the sum over p into z, by additions with j innermost" } } */
/* { dg-final { scan-tensorgrad-dump "accumulate(-stages)?: the sum over b into hid, by additions with j innermost" } } */
/* { dg-final { scan-tensorgrad-dump-not "accumulate(-stages)?: the sum over p into t," } } */
/* { dg-final { scan-tensorgrad-backward "for p < d, j < h: hid\\\[\[^\n\]*\\\] \\+= x\\\[" } } */

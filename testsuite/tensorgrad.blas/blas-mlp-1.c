/* { dg-do run } */
/* Two-layer perceptrons with -fplugin-arg-tensorgrad-blas, the hidden
   layer a local array.
   mlp2 (double): hid[i*h + j] = tanh (b1[j] + sum_p x[i*d + p] w1[p*h + j]),
   y[i*c + j] = b2[j] + sum_q hid[i*h + q] w2[q*c + j].  With
   dz = d_hid (1 - hid^2): d_w2 += hid^T d_y, d_hid = d_y w2^T,
   d_w1 += x^T dz, d_x += dz w1^T: four cblas_dgemm calls; and hid,
   which the gradient computes again, is b1 broadcast, then a call adding
   x w1, then tanh in place.
   mlp_loss (float): the same layers and the mean softmax cross-entropy
   against integer labels, returned in double (bench/mlp.c's kernel).
   Sizes with rests (n 9, d 13, h 7, c 3); every component against
   central differences, also with d_x and then d_w1 NULL.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mlp2 (int n, int d, int h, int c, const double *x, const double *w1,
      const double *b1, const double *w2, const double *b2, double *y)
{
  double hid[n * h];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double acc = b1[j];
	for (int p = 0; p < d; p++)
	  acc += x[i * d + p] * w1[p * h + j];
	hid[i * h + j] = tanh (acc);
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
	double acc = b2[j];
	for (int q = 0; q < h; q++)
	  acc += hid[i * h + q] * w2[q * c + j];
	y[i * c + j] = acc;
      }
}

__attribute__ ((differentiable))
double
mlp_loss (int n, int d, int h, int c, const float *x, const float *w1,
	  const float *b1, const float *w2, const float *b2, const int *label)
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
	float acc = b2[j];
	for (int p = 0; p < h; p++)
	  acc += hid[i * h + p] * w2[p * c + j];
	z[i * c + j] = acc;
      }
  double loss = 0.0;
  for (int i = 0; i < n; i++)
    {
      float mx = z[i * c];
      for (int j = 1; j < c; j++)
	mx = fmaxf (mx, z[i * c + j]);
      float s = 0.0f;
      for (int j = 0; j < c; j++)
	s += expf (z[i * c + j] - mx);
      loss += logf (s) + mx - z[i * c + label[i]];
    }
  return loss / n;
}

int
main (void)
{
  int n = 9, d = 13, h = 7, c = 3;
  double *x = tg_alloc (n * d), *w1 = tg_alloc (d * h), *b1 = tg_alloc (h);
  double *w2 = tg_alloc (h * c), *b2 = tg_alloc (c), *y = tg_alloc (n * c);
  tg_fill (x, n * d, 1, -1, 1);
  tg_fill (w1, d * h, 2, -0.5, 0.5);
  tg_fill (b1, h, 3, -0.5, 0.5);
  tg_fill (w2, h * c, 4, -1, 1);
  tg_fill (b2, c, 5, -1, 1);
  TG_GRADCHECK (mlp2, &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  TG_GRADCHECK_NULL (mlp2, "x", &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  TG_GRADCHECK_NULL (mlp2, "w1 w2", &n, &d, &h, &c, x, w1, b1, w2, b2, y);

  float *xf = tg_alloc_f (n * d), *w1f = tg_alloc_f (d * h);
  float *b1f = tg_alloc_f (h), *w2f = tg_alloc_f (h * c);
  float *b2f = tg_alloc_f (c);
  int label[9] = { 0, 2, 1, 1, 0, 2, 2, 0, 1 };
  tg_fill_f (xf, n * d, 6, -1, 1);
  tg_fill_f (w1f, d * h, 7, -0.5, 0.5);
  tg_fill_f (b1f, h, 8, -0.5, 0.5);
  tg_fill_f (w2f, h * c, 9, -1, 1);
  tg_fill_f (b2f, c, 10, -1, 1);
  TG_GRADCHECK (mlp_loss, &n, &d, &h, &c, xf, w1f, b1f, w2f, b2f, label);
  TG_GRADCHECK_NULL (mlp_loss, "x", &n, &d, &h, &c, xf, w1f, b1f, w2f, b2f,
		     label);
  TG_GRADCHECK_NULL (mlp_loss, "w1", &n, &d, &h, &c, xf, w1f, b1f, w2f, b2f,
		     label);
  return tg_exit ();
}

/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w2 = hid\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(h, c, n\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_hid = \[a-z0-9_\]+ \\* w2\\^T as cblas_dgemm \\(n, h, c\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w1 = x\\^T \\* \[a-z0-9_\]+ as cblas_dgemm \\(d, h, n\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_x = \[a-z0-9_\]+ \\* w1\\^T as cblas_dgemm \\(n, d, h\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: d_w1 = x\\^T \\* \[a-z0-9_\]+ as cblas_sgemm \\(d, h, n\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: hid = x \\* w1 as cblas_dgemm \\(n, h, d\\), computed again\n" } } */
/* { dg-final { scan-tensorgrad-dump "\n  blas: z = hid \\* w2 as cblas_sgemm \\(n, c, h\\), computed again\n" } } */
/* { dg-final { tg-blas-calls cblas_sgemm } } */
/* { dg-final { tg-blas-calls cblas_dgemm } } */

/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward: products into the kernel's own
   local arrays, with an activation around the sum (plugin/forward.cc,
   te_gemm_forward: the helper gets each local array's address).

   mlp2:  hid[i*h + j] = tanh (b1[j] + sum_p x[i*d + p] w1[p*h + j]), a
          variable-length local (float); then
          y[i*c + j] = b2[j] + sum_p hid[i*h + p] w2[p*c + j]: a product
          reading the local.  Two calls of cblas_sgemm (the first is
          loops when d = 0: hid = tanh (b1)).
   soft:  t[i][j] = sum_p x[i*K + p] w[j*K + p], a fixed-size local
          (double, w stored output by output: t = x * w^T), then in a
          later loop y[i*M + j] = log1p (exp (t[i][j])).  One call of
          cblas_dgemm.

   Each forward against a copy of its loops compiled without the plugin,
   within what another summation order allows (4 (k + 1) eps sum |terms|,
   carried through the second layer by |w2|; tanh and softplus do not
   enlarge it); the CBLAS calls counted (the link wraps cblas_sgemm and
   cblas_dgemm).  Odd sizes, sizes of one, d = 0.  The gradients against
   central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm" } */

#include "tg-test.h"
#include <float.h>

#include "blas-calls.h"

__attribute__ ((differentiable)) void
mlp2 (int n, int d, int h, int c, const float *x, const float *w1,
      const float *b1, const float *w2, const float *b2, float *y)
{
  float hid[n * h];
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
	y[i * c + j] = acc;
      }
}

/* mlp2's loops, which also leave the hidden layer in HID.  */
static void
mlp2_loops (int n, int d, int h, int c, const float *x, const float *w1,
	    const float *b1, const float *w2, const float *b2, float *y,
	    float *hid)
{
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
	y[i * c + j] = acc;
      }
}

#define R 9
#define K 13
#define M 5

__attribute__ ((differentiable)) void
soft (const double *x, const double *w, double *y)
{
  double t[R][M];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++)
      {
	double s = 0.0;
	for (int p = 0; p < K; p++)
	  s += x[i * K + p] * w[j * K + p];
	t[i][j] = s;
      }
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++)
      y[i * M + j] = log1p (exp (t[i][j]));
}

static void
soft_loops (const double *x, const double *w, double *y)
{
  double t[R][M];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++)
      {
	double s = 0.0;
	for (int p = 0; p < K; p++)
	  s += x[i * K + p] * w[j * K + p];
	t[i][j] = s;
      }
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++)
      y[i * M + j] = log1p (exp (t[i][j]));
}

static void
run_mlp2 (int n, int d, int h, int c, unsigned seed)
{
  float *x = tg_alloc_f (n * d + 1), *w1 = tg_alloc_f (d * h + 1);
  float *b1 = tg_alloc_f (h), *w2 = tg_alloc_f (h * c), *b2 = tg_alloc_f (c);
  float *y = tg_alloc_f (n * c), *ref = tg_alloc_f (n * c);
  float *hid = tg_alloc_f (n * h);
  double *hbound = tg_alloc (n * h);
  tg_fill_f (x, n * d + 1, seed, -1, 1);
  tg_fill_f (w1, d * h + 1, seed + 1, -1, 1);
  tg_fill_f (b1, h, seed + 2, -1, 1);
  tg_fill_f (w2, h * c, seed + 3, -1, 1);
  tg_fill_f (b2, c, seed + 4, -1, 1);
  int before = sgemm_calls;
  mlp2 (n, d, h, c, x, w1, b1, w2, b2, y);
  mlp2_loops (n, d, h, c, x, w1, b1, w2, b2, ref, hid);
  CHECK (sgemm_calls == before + (d > 0) + (h > 0));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double b = fabs (b1[j]);
	for (int p = 0; p < d; p++)
	  b += fabs ((double) x[i * d + p] * w1[p * h + j]);
	hbound[i * h + j] = 4.0 * (d + 1) * FLT_EPSILON * b;
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
	double b = fabs (b2[j]), carried = 0;
	for (int p = 0; p < h; p++)
	  {
	    b += fabs ((double) hid[i * h + p] * w2[p * c + j]);
	    carried += fabs (w2[p * c + j]) * hbound[i * h + p];
	  }
	double bound = 4.0 * (h + 1) * FLT_EPSILON * b + 1.01 * carried;
	CHECK_NEAR_AT (y[i * c + j], ref[i * c + j], 0, bound, i * c + j);
      }
  TG_GRADCHECK (mlp2, &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  TG_GRADCHECK_NULL (mlp2, "x", &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  free (x), free (w1), free (b1), free (w2), free (b2), free (y);
  free (ref), free (hid), free (hbound);
}

static void
run_soft (unsigned seed)
{
  double *x = tg_alloc (R * K), *w = tg_alloc (M * K);
  double *y = tg_alloc (R * M), *ref = tg_alloc (R * M);
  tg_fill (x, R * K, seed, -1, 1);
  tg_fill (w, M * K, seed + 1, -1, 1);
  int before = dgemm_calls;
  soft (x, w, y);
  soft_loops (x, w, ref);
  CHECK (dgemm_calls == before + 1);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++)
      {
	double b = 0;
	for (int p = 0; p < K; p++)
	  b += fabs (x[i * K + p] * w[j * K + p]);
	CHECK_NEAR_AT (y[i * M + j], ref[i * M + j], 0,
		       4.0 * (K + 1) * DBL_EPSILON * b, i * M + j);
      }
  TG_GRADCHECK (soft, x, w, y);
  free (x), free (w), free (y), free (ref);
}

int
main (void)
{
  run_mlp2 (7, 33, 5, 3, 1);
  run_mlp2 (1, 1, 1, 1, 10);
  run_mlp2 (4, 0, 3, 2, 20);
  run_mlp2 (3, 5, 31, 1, 30);
  run_soft (40);
  run_soft (50);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 40\\): hid = x \\* w1 as cblas_sgemm \\(n, h, d\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 48\\): y = hid \\* w2 as cblas_sgemm \\(n, c, h\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 90\\): t = x \\* w\\^T as cblas_dgemm \\(9, 5, 13\\)\n" } } */

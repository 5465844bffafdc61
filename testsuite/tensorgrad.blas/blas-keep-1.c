/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-keep-products -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm -Wl,--wrap=tg_keep_product" } */
/* -fplugin-arg-tensorgrad-keep-products: the products a kernel computes
   into its local arrays (a hidden layer, as an MLP writes it) are kept
   by the forward and taken by the gradient instead of computed again,
   only where every operand is unchanged.  tg_keep_product is wrapped to
   count the takes; the CBLAS calls are counted too.

   mlp (float): hid = tanh (x w1 + b1) and z = hid w2 + b2 locals, a
   double loss.  The gradient after its forward takes both (two takes,
   two sgemm calls fewer); after a forward of other inputs, or with w1
   changed in place, or on another thread, it takes none and gives the
   gradient of the point it is called at.  With d_x NULL it still takes.
   dense (float) writes its product to an output, y: not kept (the
   gradient reads y as the forward left it).

   proj (double): a product with its first factor stored transposed
   (x[p * n + i]) into a local whose rows are longer than the product's
   (u[i][h + 2], ldc h + 2), a loss of its squares: taken too.  */

#include <math.h>
#include <threads.h>
#include "tg-test.h"
#include "keep-takes.h"
#include "blas-calls.h"


__attribute__ ((differentiable))
double
mlp (int n, int d, int h, int c, const float *x, const float *w1,
     const float *b1, const float *w2, const float *b2)
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
  double loss = 0;
  for (int e = 0; e < n * c; e++)
    loss += (double) z[e] * z[e];
  return loss;
}

__attribute__ ((differentiable))
void
dense (int n, int d, int h, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	float acc = 0;
	for (int p = 0; p < d; p++)
	  acc += x[i * d + p] * w[p * h + j];
	y[i * h + j] = tanhf (acc);
      }
}

__attribute__ ((differentiable))
double
proj (int n, int d, int h, const double *x, const double *w)
{
  double u[n][h + 2];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double acc = 0;
	for (int p = 0; p < d; p++)
	  acc += x[p * n + i] * w[p * h + j];
	u[i][j] = acc;
      }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      s += log (1 + u[i][j] * u[i][j]);
  return s;
}

enum { N = 23, D = 17, H = 19, C = 5 };
static float *x, *w1, *b1, *w2, *b2;

/* The gradient of mlp at the arrays' values, into fresh shadows G[5]
   (d_x, d_w1, d_b1, d_w2, d_b2), checking the number of takes; returns
   the number of sgemm calls.  */
static int
grad (float *g[5], int want_takes)
{
  static const int len[5] = { N * D, D * H, H, H * C, C };
  for (int k = 0; k < 5; k++)
    g[k] = tg_alloc_f (len[k]);
  keep_takes = sgemm_calls = 0;
  mlp_grad (N, D, H, C, x, w1, b1, w2, b2, g[0], g[1], g[2], g[3], g[4],
	    1.0);
  CHECK (keep_takes == want_takes);
  return sgemm_calls;
}

static void
same (float *g[5], float *h[5])
{
  static const int len[5] = { N * D, D * H, H, H * C, C };
  for (int k = 0; k < 5; k++)
    {
      for (int i = 0; i < len[k]; i++)
	CHECK_NEAR_AT (g[k][i], h[k][i], 1e-5, 1e-6, i);
      free (g[k]);
      free (h[k]);
    }
}

static int
grad_thread (void *arg)
{
  float **g = arg;
  static const int len[5] = { N * D, D * H, H, H * C, C };
  for (int k = 0; k < 5; k++)
    g[k] = tg_alloc_f (len[k]);
  mlp_grad (N, D, H, C, x, w1, b1, w2, b2, g[0], g[1], g[2], g[3], g[4],
	    1.0);
  return keep_takes; /* this thread's */
}

int
main (void)
{
  x = tg_alloc_f (N * D), w1 = tg_alloc_f (D * H), b1 = tg_alloc_f (H);
  w2 = tg_alloc_f (H * C), b2 = tg_alloc_f (C);
  tg_fill_f (x, N * D, 1, -1, 1);
  tg_fill_f (w1, D * H, 2, -0.3, 0.3);
  tg_fill_f (b1, H, 3, -0.5, 0.5);
  tg_fill_f (w2, H * C, 4, -0.4, 0.4);
  tg_fill_f (b2, C, 5, -0.5, 0.5);

  /* After its forward: hid and z taken, two products fewer.  */
  float *g0[5], *g1[5];
  sgemm_calls = 0;
  mlp (N, D, H, C, x, w1, b1, w2, b2);
  CHECK (sgemm_calls == 2);
  int fewer = grad (g0, 2);

  /* A forward of other inputs in between: computed again, the same
     gradient.  */
  float *x2 = tg_dup_f (x, N * D);
  x2[0] += 0.5f;
  mlp (N, D, H, C, x2, w1, b1, w2, b2);
  CHECK (grad (g1, 0) == fewer + 2);
  same (g0, g1);

  /* w1 changed in place after the forward (outside the ABI's contract,
     but no stale gradient): the gradient at the new w1.  */
  mlp (N, D, H, C, x, w1, b1, w2, b2);
  w1[D * H - 1] += 0.25f;
  grad (g1, 0);
  mlp (N, D, H, C, x, w1, b1, w2, b2);
  grad (g0, 2);
  same (g0, g1);

  /* On another thread: its own (empty) keep.  */
  mlp (N, D, H, C, x, w1, b1, w2, b2);
  thrd_t t;
  CHECK (thrd_create (&t, grad_thread, g1) == thrd_success);
  int took = -1;
  CHECK (thrd_join (t, &took) == thrd_success);
  CHECK (took == 0);
  grad (g0, 2);
  same (g0, g1);

  /* d_x NULL: its product skipped, hid still taken.  */
  float *d[5];
  for (int k = 0; k < 5; k++)
    d[k] = tg_alloc_f (k == 0 ? 1 : k == 1 ? D * H : k == 2 ? H
			: k == 3 ? H * C : C);
  keep_takes = 0;
  mlp_grad (N, D, H, C, x, w1, b1, w2, b2, NULL, d[1], d[2], d[3], d[4],
	    1.0);
  CHECK (keep_takes == 2);
  for (int k = 0; k < 5; k++)
    free (d[k]);

  /* dense: the product into its output is not kept.  */
  float *dy = tg_alloc_f (N * H), *dw = tg_alloc_f (D * H);
  float *d_dy = tg_alloc_f (N * H);
  tg_fill_f (d_dy, N * H, 8, -1, 1);
  keep_takes = 0;
  dense (N, D, H, x, w1, dy);
  dense_grad (N, D, H, x, w1, dy, NULL, dw, d_dy);
  CHECK (keep_takes == 0);

  /* Against central differences (the checker runs the forward before
     each gradient it checks).  */
  int n = N, dd = D, h = H, c = C;
  TG_GRADCHECK (mlp, &n, &dd, &h, &c, x, w1, b1, w2, b2);
  TG_GRADCHECK (dense, &n, &dd, &h, x, w1, dy);

  /* proj: transposed factor, rows longer than the product's.  */
  double *px = tg_alloc (D * N), *pw = tg_alloc (D * H);
  double *pdx = tg_alloc (D * N), *pdw = tg_alloc (D * H);
  tg_fill (px, D * N, 6, -1, 1);
  tg_fill (pw, D * H, 7, -0.5, 0.5);
  proj (N, D, H, px, pw);
  keep_takes = dgemm_calls = 0;
  proj_grad (N, D, H, px, pw, pdx, pdw, 1.0);
  CHECK (keep_takes == 1);
  TG_GRADCHECK (proj, &n, &dd, &h, px, pw);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nkeep-products: mlp/hid: hid = x \\* w1 as cblas_sgemm \\(n, h, d\\) taken from the kernel's where its operands are unchanged\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nkeep-products: mlp/z: z = hid \\* w2 as cblas_sgemm \\(n, c, h\\) kept for the gradient\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nkeep-products: proj/u: u = x\\^T \\* w as cblas_dgemm \\(n, h, d\\) kept for the gradient\n" } } */
/* { dg-final { scan-tensorgrad-dump-not "keep-products: dense/" } } */

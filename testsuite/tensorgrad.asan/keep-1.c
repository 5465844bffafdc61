/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-keep-products -fplugin-arg-tensorgrad-dump -Wl,--wrap=tg_keep_product" } */
/* keep-products with tiled-forward (no library) under AddressSanitizer
   (asan.exp): the kept copies of a hidden layer's product, with an
   operand whose rows are longer than what the product reads (x's, a
   column block of a wider array) and a destination whose rows are
   longer than the product's, are made, compared and copied back within
   their arrays; threads that ran the kernel keep their own products
   (that they go when the threads end tensorgrad.rt's keep-1.c checks;
   the main thread's stay reachable); each gradient after its forward
   takes the product (tg_keep_product wrapped, its takes counted per
   thread).  The gradients against central differences.  */

#include <math.h>
#include <threads.h>
#include "tg-test.h"
#include "keep-takes.h"

__attribute__ ((differentiable))
double
layer (int n, int d, int ldx, int h, const double *x, const double *w,
       const double *b)
{
  double hid[n][h + 3];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double acc = b[j];
	for (int p = 0; p < d; p++)
	  acc += x[i * ldx + p] * w[p * h + j];
	hid[i][j] = tanh (acc);
      }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      s += hid[i][j] * hid[i][j] * (1 + j % 3);
  return s;
}


enum { N = 40, D = 33, LDX = 37, H = 36 };
static double *x, *w, *b;

static int
step (void *arg)
{
  double *d_w = arg;
  layer (N, D, LDX, H, x, w, b);
  keep_takes = 0;
  layer_grad (N, D, LDX, H, x, w, b, NULL, d_w, NULL, 1.0);
  return keep_takes == 1 ? 0 : 1;
}

int
main (void)
{
  x = tg_alloc (N * LDX), w = tg_alloc (D * H), b = tg_alloc (H);
  tg_fill (x, N * LDX, 1, -1, 1);
  tg_fill (w, D * H, 2, -0.3, 0.3);
  tg_fill (b, H, 3, -0.5, 0.5);
  double *d_w[3];
  for (int t = 0; t < 3; t++)
    d_w[t] = tg_alloc (D * H);
  thrd_t th[2];
  for (int t = 0; t < 2; t++)
    CHECK (thrd_create (&th[t], step, d_w[t]) == thrd_success);
  int r[2];
  for (int t = 0; t < 2; t++)
    {
      CHECK (thrd_join (th[t], &r[t]) == thrd_success);
      CHECK (r[t] == 0);
    }
  CHECK (step (d_w[2]) == 0);
  for (int t = 0; t < 2; t++)
    for (int e = 0; e < D * H; e++)
      CHECK_NEAR_AT (d_w[t][e], d_w[2][e], 1e-12, 1e-14, e);
  int n = N, d = D, ldx = LDX, h = H;
  TG_GRADCHECK (layer, &n, &d, &ldx, &h, x, w, b);
  for (int t = 0; t < 3; t++)
    free (d_w[t]);
  free (x), free (w), free (b);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nkeep-products: layer/hid: hid = x \\* w as tiled \\(n, h, d\\) taken from the kernel's where its operands are unchanged\n" } } */

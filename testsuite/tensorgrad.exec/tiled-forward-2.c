/* { dg-do run } */
/* -fplugin-arg-tensorgrad-tiled-forward: products into the kernel's own
   local arrays (an MLP's hidden layer), with an activation around the
   sum, as the tiled product (plugin/forward.cc: the helper gets the
   local's address).

   mlp (float):  hid[i*h + j] = tanhf (b1[j] + sum_p x[i*d + p] w1[p*h + j]),
                 a variable-length local; then
                 y[i*c + j] = b2[j] + sum_p hid[i*h + p] w2[p*c + j], a
                 product reading the local.
   mlpd (double): the same in double, the hidden layer a fixed-size local
                 hid[N][H] (N = 32, H = 64), y = b2 + hid * w2 with
                 c = 16: both products at or above the tiled threshold
                 (32 x 64 x d, 32 x 16 x 64 = 32768).

   Sizes for mlp: 7 x 33 -> 5 -> 3 and 1 x 1 -> 1 -> 1 (loops), 8 x 64
   -> 64 -> 3 (the first product tiled, 8 x 64 x 64 = 32768, the
   second, 8 x 3 x 64, loops).  Each forward against a copy of its loops compiled
   without the plugin, within what another summation order allows
   (4 (k + 1) eps sum |terms|, carried through the second layer by
   |w2|); the mallocs of the tiled product's buffers counted
   (tiled-forward.h).  The gradients against central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc" } */

#include "tg-test.h"
#include <float.h>

#include "tiled-forward.h"

#define MLP_BODY(T, TANH)                                                     \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < h; j++)                                               \
      {                                                                       \
	T acc = b1[j];                                                        \
	for (int p = 0; p < d; p++)                                           \
	  acc += x[i * d + p] * w1[p * h + j];                                \
	hid[i * h + j] = TANH (acc);                                          \
      }                                                                       \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < c; j++)                                               \
      {                                                                       \
	T acc = b2[j];                                                        \
	for (int p = 0; p < h; p++)                                           \
	  acc += hid[i * h + p] * w2[p * c + j];                              \
	y[i * c + j] = acc;                                                   \
      }

__attribute__ ((differentiable)) void
mlp (int n, int d, int h, int c, const float *x, const float *w1,
     const float *b1, const float *w2, const float *b2, float *y)
{
  float hid[n * h];
  MLP_BODY (float, tanhf)
}

/* mlp's loops, which also leave the hidden layer in HID.  */
static void
mlp_loops (int n, int d, int h, int c, const float *x, const float *w1,
	   const float *b1, const float *w2, const float *b2, float *y,
	   float *hid)
{
  MLP_BODY (float, tanhf)
}

#define N 32
#define H 64
#define C 16

__attribute__ ((differentiable)) void
mlpd (int d, const double *x, const double *w1, const double *b1,
      const double *w2, const double *b2, double *y)
{
  const int n = N, h = H, c = C;
  double hid[N * H];
  MLP_BODY (double, tanh)
}

static void
mlpd_loops (int d, const double *x, const double *w1, const double *b1,
	    const double *w2, const double *b2, double *y, double *hid)
{
  const int n = N, h = H, c = C;
  MLP_BODY (double, tanh)
}

/* The largest difference the summation orders allow in the second
   layer's output of row I, column J: its own terms' (with EPS) and the
   hidden layer's bounds HB carried by |w2|.  */
#define SECOND_BOUND(EPS)                                                     \
  double bd = fabs ((double) b2[j]), carried = 0;                             \
  for (int p = 0; p < h; p++)                                                 \
    {                                                                         \
      bd += fabs ((double) hid[i * h + p] * w2[p * c + j]);                   \
      carried += fabs ((double) w2[p * c + j]) * hb[i * h + p];               \
    }                                                                         \
  double bound = 4.0 * (h + 1) * (EPS) * bd + 1.01 * carried;

static void
run_mlp (int n, int d, int h, int c, unsigned seed)
{
  float *x = tg_alloc_f (n * d + 1), *w1 = tg_alloc_f (d * h + 1);
  float *b1 = tg_alloc_f (h), *w2 = tg_alloc_f (h * c), *b2 = tg_alloc_f (c);
  float *y = tg_alloc_f (n * c), *ref = tg_alloc_f (n * c);
  float *hid = tg_alloc_f (n * h);
  double *hb = tg_alloc (n * h);
  /* Small weights: the hidden layer away from tanh's saturation, where
     float's central differences lose their accuracy.  */
  tg_fill_f (x, n * d + 1, seed, -1, 1);
  tg_fill_f (w1, d * h + 1, seed + 1, -0.1, 0.1);
  tg_fill_f (b1, h, seed + 2, -1, 1);
  tg_fill_f (w2, h * c, seed + 3, -1, 1);
  tg_fill_f (b2, c, seed + 4, -1, 1);
  long before = malloc_calls;
  mlp (n, d, h, c, x, w1, b1, w2, b2, y);
  long made = malloc_calls - before;
  mlp_loops (n, d, h, c, x, w1, b1, w2, b2, ref, hid);
  CHECK_AT (tiled_size (n, h, d) || tiled_size (n, c, h) ? made > 0
						      : made == 0, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double bd = fabs (b1[j]);
	for (int p = 0; p < d; p++)
	  bd += fabs ((double) x[i * d + p] * w1[p * h + j]);
	hb[i * h + j] = 4.0 * (d + 1) * FLT_EPSILON * bd;
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
	SECOND_BOUND (FLT_EPSILON)
	CHECK_NEAR_AT (y[i * c + j], ref[i * c + j], 0, bound, i * c + j);
      }
  TG_GRADCHECK (mlp, &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  TG_GRADCHECK_NULL (mlp, "x", &n, &d, &h, &c, x, w1, b1, w2, b2, y);
  free (x), free (w1), free (b1), free (w2), free (b2), free (y);
  free (ref), free (hid), free (hb);
}

static void
run_mlpd (int d, unsigned seed)
{
  const int n = N, h = H, c = C;
  double *x = tg_alloc (n * d + 1), *w1 = tg_alloc (d * h + 1);
  double *b1 = tg_alloc (h), *w2 = tg_alloc (h * c), *b2 = tg_alloc (c);
  double *y = tg_alloc (n * c), *ref = tg_alloc (n * c);
  double *hid = tg_alloc (n * h), *hb = tg_alloc (n * h);
  tg_fill (x, n * d + 1, seed, -1, 1);
  tg_fill (w1, d * h + 1, seed + 1, -1, 1);
  tg_fill (b1, h, seed + 2, -1, 1);
  tg_fill (w2, h * c, seed + 3, -1, 1);
  tg_fill (b2, c, seed + 4, -1, 1);
  long before = malloc_calls;
  mlpd (d, x, w1, b1, w2, b2, y);
  long made = malloc_calls - before;
  mlpd_loops (d, x, w1, b1, w2, b2, ref, hid);
  /* The second product is tiled at every d (32 x 16 x 64).  */
  CHECK_AT (made > 0, d);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double bd = fabs (b1[j]);
	for (int p = 0; p < d; p++)
	  bd += fabs (x[i * d + p] * w1[p * h + j]);
	hb[i * h + j] = 4.0 * (d + 1) * DBL_EPSILON * bd;
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
	SECOND_BOUND (DBL_EPSILON)
	CHECK_NEAR_AT (y[i * c + j], ref[i * c + j], 0, bound, i * c + j);
      }
  TG_GRADCHECK (mlpd, &d, x, w1, b1, w2, b2, y);
  free (x), free (w1), free (b1), free (w2), free (b2), free (y);
  free (ref), free (hid), free (hb);
}

int
main (void)
{
  run_mlp (7, 33, 5, 3, 1);
  run_mlp (1, 1, 1, 1, 10);
  run_mlp (8, 64, 64, 3, 20);
  run_mlpd (3, 30);
  run_mlpd (40, 40);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 53\\): hid = x \\* w1 as tiled \\(n, h, d\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 53\\): y = hid \\* w2 as tiled \\(n, c, h\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 75\\): hid = x \\* w1 as tiled \\(32, 64, d\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 75\\): y = hid \\* w2 as tiled \\(32, 16, 64\\)\n" } } */

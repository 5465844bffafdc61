/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-parallel -fplugin-arg-tensorgrad-keep-products -fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc -Wl,--wrap=tg_keep_product" } */
/* -fplugin-arg-tensorgrad-parallel with tiled-forward: a kernel without
   directives gets its products as tiled products on OpenMP threads, the
   forward's as the gradient's (plugin/forward.cc: te_program_parallel on
   the helper's program; emit.cc's tiled_team), and with keep-products
   the products on the threads are kept by the forward and taken by the
   gradient as the serial ones are.

   mlp (float, bench/mlp.c's kernel: no pragmas):
     hid = tanh (x w1 + b1) (40 x 48 x 33: tiled), z = hid w2 + b2
     (40 x 24 x 48: tiled), both locals; the mean cross-entropy of z's
     rows against labels, in double.
   The loss against the kernel's loops compiled without the plugin; at
   one thread and at three the same bits (each element of a product is
   summed by one thread in the same order); the tiled product's mallocs
   counted (tiled-forward.h); the gradient right after the forward takes
   both products (keep-takes.h), after another forward of other inputs
   none; every gradient component against central differences.  */

#include <float.h>
#include <omp.h>
#include "tg-test.h"
#include "keep-takes.h"
#include "../tensorgrad.exec/tiled-forward.h"

#define MLP_BODY                                                              \
  float hid[n * h], z[n * c];                                                 \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < h; j++)                                               \
      {                                                                       \
	float acc = b1[j];                                                    \
	for (int p = 0; p < d; p++)                                           \
	  acc += x[i * d + p] * w1[p * h + j];                                \
	hid[i * h + j] = tanhf (acc);                                         \
      }                                                                       \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < c; j++)                                               \
      {                                                                       \
	float acc = b2[j];                                                    \
	for (int p = 0; p < h; p++)                                           \
	  acc += hid[i * h + p] * w2[p * c + j];                              \
	z[i * c + j] = acc;                                                   \
      }                                                                       \
  double loss = 0.0;                                                          \
  for (int i = 0; i < n; i++)                                                 \
    {                                                                         \
      float mx = z[i * c];                                                    \
      for (int j = 1; j < c; j++)                                             \
	mx = fmaxf (mx, z[i * c + j]);                                        \
      float s = 0.0f;                                                         \
      for (int j = 0; j < c; j++)                                             \
	s += expf (z[i * c + j] - mx);                                        \
      loss += logf (s) + mx - z[i * c + label[i]];                            \
    }                                                                         \
  return loss / n;

__attribute__ ((differentiable))
double
mlp (int n, int d, int h, int c, const float *x, const float *w1,
     const float *b1, const float *w2, const float *b2, const int *label)
{
  MLP_BODY
}

static double
mlp_loops (int n, int d, int h, int c, const float *x, const float *w1,
	   const float *b1, const float *w2, const float *b2,
	   const int *label)
{
  MLP_BODY
}

void mlp_grad (int, int, int, int, const float *, const float *,
	       const float *, const float *, const float *, const int *,
	       float *, float *, float *, float *, float *, double);

int
main (void)
{
  int n = 40, d = 33, h = 48, c = 24;
  float *x = tg_alloc_f (n * d), *w1 = tg_alloc_f (d * h);
  float *b1 = tg_alloc_f (h), *w2 = tg_alloc_f (h * c), *b2 = tg_alloc_f (c);
  float *x2 = tg_alloc_f (n * d);
  float *d_x = tg_alloc_f (n * d), *d_w1 = tg_alloc_f (d * h);
  float *d_b1 = tg_alloc_f (h), *d_w2 = tg_alloc_f (h * c);
  float *d_b2 = tg_alloc_f (c);
  int label[40];
  tg_fill_f (x, n * d, 1, -1, 1);
  tg_fill_f (x2, n * d, 7, -1, 1);
  tg_fill_f (w1, d * h, 2, -0.3, 0.3);
  tg_fill_f (b1, h, 3, -0.5, 0.5);
  tg_fill_f (w2, h * c, 4, -0.3, 0.3);
  tg_fill_f (b2, c, 5, -0.5, 0.5);
  for (int i = 0; i < n; i++)
    label[i] = (i * 7) % c;

  omp_set_num_threads (1);
  double one = mlp (n, d, h, c, x, w1, b1, w2, b2, label);
  omp_set_num_threads (3);
  long before = malloc_calls;
  double three = mlp (n, d, h, c, x, w1, b1, w2, b2, label);
  CHECK (malloc_calls > before);
  CHECK (one == three);
  double ref = mlp_loops (n, d, h, c, x, w1, b1, w2, b2, label);
  CHECK_NEAR (three, ref, 1e-5, 1e-5);

  /* Right after the forward: both products taken.  */
  keep_takes = 0;
  mlp_grad (n, d, h, c, x, w1, b1, w2, b2, label, d_x, d_w1, d_b1, d_w2,
	    d_b2, 1.0);
  CHECK (keep_takes == 2);
  /* After a forward of other inputs: none.  */
  mlp (n, d, h, c, x2, w1, b1, w2, b2, label);
  keep_takes = 0;
  mlp_grad (n, d, h, c, x, w1, b1, w2, b2, label, d_x, d_w1, d_b1, d_w2,
	    d_b2, 1.0);
  CHECK (keep_takes == 0);

  omp_set_num_threads (2);
  TG_GRADCHECK (mlp, &n, &d, &h, &c, x, w1, b1, w2, b2, label);
  free (x), free (x2), free (w1), free (b1), free (w2), free (b2);
  free (d_x), free (d_w1), free (d_b1), free (d_w2), free (d_b2);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 63\\): hid = x \\* w1 as tiled \\(n, h, d\\), on OpenMP threads\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 63\\): z = hid \\* w2 as tiled \\(n, c, h\\), on OpenMP threads\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nkeep-products: mlp/hid: hid = x \\* w1 as tiled \\(n, h, d\\) kept for the gradient\n" } } */

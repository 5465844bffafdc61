/* { dg-do run } */
/* -fplugin-arg-tensorgrad-tiled-forward: a nest of the kernel itself
   that is a matrix product runs as the plugin's tiled product
   (plugin/forward.cc with te_program.tiled, lib/back/tiled.h), no
   CBLAS linked.

   dense:  y[i*(m + 2) + j] = tanhf (b[j] + sum_p x[i*ldx + p] w[j*k + p])
           (float; x rows ldx apart, w stored output by output: the
           product is y = x * w^T, y's rows m + 2 apart, the bias its
           initial value, tanhf applied after it).
   gram:   y[i*m + j] = b[j] + sum_p a[p*n + i] g[p*m + j] (double; a
           stored transposed: y = a^T * g).

   Each forward against a copy of its loops compiled without the plugin,
   within what another summation order allows (4 (k + 1) eps sum |terms|);
   whether the tiled product ran is told by the mallocs of its packing
   buffers (tiled-forward.h): some at sizes above the tiled threshold
   (9 x 100 x 40; 37 x 65 x 70, the sum over two blocks of 64 terms and
   edge tiles), none below (3 x 7 x 5, 1 x 1 x 1, k = 0), where the
   loops run.  The gaps between y's rows keep what they held.  The
   gradients (the same as without the option) against central
   differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-tiled-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=malloc" } */

#include "tg-test.h"
#include <float.h>

#include "tiled-forward.h"

#define DENSE_BODY                                                            \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < m; j++)                                               \
      {                                                                       \
	float acc = b[j];                                                     \
	for (int p = 0; p < k; p++)                                           \
	  acc += x[i * ldx + p] * w[j * k + p];                               \
	y[i * (m + 2) + j] = tanhf (acc);                                     \
      }

__attribute__ ((differentiable)) void
dense (int n, int k, int m, int ldx, const float *x, const float *w,
       const float *b, float *y)
{
  DENSE_BODY
}

static void
dense_loops (int n, int k, int m, int ldx, const float *x, const float *w,
	     const float *b, float *y)
{
  DENSE_BODY
}

#define GRAM_BODY                                                             \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < m; j++)                                               \
      {                                                                       \
	double s = b[j];                                                      \
	for (int p = 0; p < k; p++)                                           \
	  s += a[p * n + i] * g[p * m + j];                                   \
	y[i * m + j] = s;                                                     \
      }

__attribute__ ((differentiable)) void
gram (int n, int k, int m, const double *a, const double *g, const double *b,
      double *y)
{
  GRAM_BODY
}

static void
gram_loops (int n, int k, int m, const double *a, const double *g,
	    const double *b, double *y)
{
  GRAM_BODY
}

static void
run_dense (int n, int k, int m, unsigned seed)
{
  int ldx = k + 3, ldy = m + 2;
  float *x = tg_alloc_f (n * ldx + 1), *w = tg_alloc_f (m * k + 1);
  float *b = tg_alloc_f (m), *y = tg_alloc_f (n * ldy + 1);
  float *ref = tg_alloc_f (n * ldy + 1);
  tg_fill_f (x, n * ldx + 1, seed, -1, 1);
  tg_fill_f (w, m * k + 1, seed + 1, -1, 1);
  tg_fill_f (b, m, seed + 2, -1, 1);
  tg_fill_f (y, n * ldy + 1, seed + 3, 5, 6);
  memcpy (ref, y, (n * ldy + 1) * sizeof *y);
  long before = malloc_calls;
  dense (n, k, m, ldx, x + 1, w, b, y);
  long made = malloc_calls - before;
  dense_loops (n, k, m, ldx, x + 1, w, b, ref);
  CHECK_AT (tiled_size (n, m, k) ? made > 0 : made == 0, n * 10000 + k);
  for (int e = 0; e < n * ldy + 1; e++)
    {
      int i = e / ldy, j = e % ldy;
      double bound = 0;
      if (i < n && j < m)
	{
	  for (int p = 0; p < k; p++)
	    bound += fabs ((double) x[1 + i * ldx + p] * w[j * k + p]);
	  bound = 4.0 * (k + 1) * FLT_EPSILON * (bound + fabs (b[j]));
	}
      CHECK_NEAR_AT (y[e], ref[e], 0, bound, e);
    }
  TG_GRADCHECK (dense, &n, &k, &m, &ldx, x + 1, w, b, y);
  TG_GRADCHECK_NULL (dense, "x", &n, &k, &m, &ldx, x + 1, w, b, y);
  free (x), free (w), free (b), free (y), free (ref);
}

static void
run_gram (int n, int k, int m, unsigned seed)
{
  double *a = tg_alloc (k * n + 1), *g = tg_alloc (k * m + 1);
  double *b = tg_alloc (m), *y = tg_alloc (n * m + 1);
  double *ref = tg_alloc (n * m + 1);
  tg_fill (a, k * n + 1, seed, -1, 1);
  tg_fill (g, k * m + 1, seed + 1, -1, 1);
  tg_fill (b, m, seed + 2, -1, 1);
  long before = malloc_calls;
  gram (n, k, m, a, g, b, y);
  long made = malloc_calls - before;
  gram_loops (n, k, m, a, g, b, ref);
  CHECK_AT (tiled_size (n, m, k) ? made > 0 : made == 0, n * 10000 + k);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double bound = fabs (b[j]);
	for (int p = 0; p < k; p++)
	  bound += fabs (a[p * n + i] * g[p * m + j]);
	CHECK_NEAR_AT (y[i * m + j], ref[i * m + j], 0,
		       4.0 * (k + 1) * DBL_EPSILON * bound, i * m + j);
      }
  TG_GRADCHECK (gram, &n, &k, &m, a, g, b, y);
  TG_GRADCHECK_NULL (gram, "a b", &n, &k, &m, a, g, b, y);
  free (a), free (g), free (b), free (y), free (ref);
}

int
main (void)
{
  run_dense (3, 5, 7, 1);
  run_dense (1, 1, 1, 10);
  run_dense (5, 0, 3, 20);
  run_dense (9, 40, 100, 30);
  run_dense (37, 70, 65, 40);
  run_gram (3, 5, 7, 50);
  run_gram (1, 1, 1, 60);
  run_gram (9, 40, 100, 70);
  run_gram (37, 70, 65, 80);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 44\\): y = x \\* w\\^T as tiled \\(n, m, k\\)\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 68\\): y = a\\^T \\* g as tiled \\(n, m, k\\)\n" } } */

/* { dg-do run } */
/* -fplugin-arg-tensorgrad-blas-forward leaves as written the nests that
   are no whole product stage (plugin/forward.cc, te_gemm_forward):

   rows:    y[i*ldy + j] = sum_p x[i*k + p] w[p*m + j] with ldy a parameter:
            rows that may overlap (run with ldy = m - 1, where the
            source's last assignment wins and added products would not);
   apart:   c[b*ldb + i*m + j] = sum_p a[(b*n + i)*k + p] w[p*m + j] for
            each b of a batch, ldb a parameter: batches that may overlap
            (run with ldb = m, where the source's last assignment wins);
   two:     y[i*m + j] = sum_p x[i*k + p] w[p*m + j] + sum_p x[i*k + p]^2:
            two sums;
   zeroed:  the product's row loop also clears a row of z with memset:
            a call that stores, so the nest stays loops (z must be
            cleared);
   inout:   y[i*m + j] += sum_p x[i*k + p] w[p*m + j] (y read);
   guarded: the product's column loops behind if (k > 2), inside the row
            loop: a test inside the nest (around the whole nest, the
            call takes its place: blas-forward-1.c).

   Each runs no CBLAS call from its forward (the link wraps cblas_sgemm)
   and gives exactly the values of a copy of its loops compiled without
   the plugin; the dump says why each stays loops; the gradients against
   central differences.  */
/* { dg-options "-fplugin-arg-tensorgrad-blas-forward -fplugin-arg-tensorgrad-dump -Wl,--wrap=cblas_sgemm" } */

#include "tg-test.h"

static int sgemm_calls;

void __real_cblas_sgemm (int, int, int, int, int, int, float, const float *,
			 int, const float *, int, float, float *, int);

void
__wrap_cblas_sgemm (int o, int ta, int tb, int m, int n, int k, float al,
		    const float *a, int lda, const float *b, int ldb,
		    float be, float *c, int ldc)
{
  sgemm_calls++;
  __real_cblas_sgemm (o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}

__attribute__ ((differentiable)) void
rows (int n, int k, int m, int ldy, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * ldy + j] = acc;
      }
}

static void
rows_loops (int n, int k, int m, int ldy, const float *x, const float *w,
	    float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f;
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * ldy + j] = acc;
      }
}

__attribute__ ((differentiable)) void
apart (int nb, int n, int k, int m, int ldb, const float *a, const float *w,
       float *c)
{
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
	{
	  float acc = 0.0f;
	  for (int p = 0; p < k; p++)
	    acc += a[(b * n + i) * k + p] * w[p * m + j];
	  c[b * ldb + i * m + j] = acc;
	}
}

static void
apart_loops (int nb, int n, int k, int m, int ldb, const float *a,
	     const float *w, float *c)
{
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
	{
	  float acc = 0.0f;
	  for (int p = 0; p < k; p++)
	    acc += a[(b * n + i) * k + p] * w[p * m + j];
	  c[b * ldb + i * m + j] = acc;
	}
}

__attribute__ ((differentiable)) void
two (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f, sq = 0.0f;
	for (int p = 0; p < k; p++)
	  {
	    acc += x[i * k + p] * w[p * m + j];
	    sq += x[i * k + p] * x[i * k + p];
	  }
	y[i * m + j] = acc + sq;
      }
}

static void
two_loops (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0.0f, sq = 0.0f;
	for (int p = 0; p < k; p++)
	  {
	    acc += x[i * k + p] * w[p * m + j];
	    sq += x[i * k + p] * x[i * k + p];
	  }
	y[i * m + j] = acc + sq;
      }
}

#define ZEROED_BODY                                                           \
  for (int i = 0; i < n; i++)                                                 \
    {                                                                         \
      memset (z + i * m, 0, m * sizeof (float));                              \
      for (int j = 0; j < m; j++)                                             \
	{                                                                     \
	  float acc = 0.0f;                                                   \
	  for (int p = 0; p < k; p++)                                         \
	    acc += x[i * k + p] * w[p * m + j];                               \
	  y[i * m + j] = acc;                                                 \
	}                                                                     \
    }

__attribute__ ((differentiable)) void
zeroed (int n, int k, int m, const float *x, const float *w, float *y,
	float *z)
{
  ZEROED_BODY
}

static void
zeroed_loops (int n, int k, int m, const float *x, const float *w, float *y,
	      float *z)
{
  ZEROED_BODY
}

__attribute__ ((differentiable)) void
inout (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = y[i * m + j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

static void
inout_loops (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = y[i * m + j];
	for (int p = 0; p < k; p++)
	  acc += x[i * k + p] * w[p * m + j];
	y[i * m + j] = acc;
      }
}

__attribute__ ((differentiable)) void
guarded (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    if (k > 2)
      for (int j = 0; j < m; j++)
	{
	  float acc = 0.0f;
	  for (int p = 0; p < k; p++)
	    acc += x[i * k + p] * w[p * m + j];
	  y[i * m + j] = acc;
	}
}

static void
guarded_loops (int n, int k, int m, const float *x, const float *w, float *y)
{
  for (int i = 0; i < n; i++)
    if (k > 2)
      for (int j = 0; j < m; j++)
	{
	  float acc = 0.0f;
	  for (int p = 0; p < k; p++)
	    acc += x[i * k + p] * w[p * m + j];
	  y[i * m + j] = acc;
	}
}

#define N 5
#define K 6
#define M 7
#define NB 3

int
main (void)
{
  float *x = tg_alloc_f (NB * N * K), *w = tg_alloc_f (K * M);
  float *y = tg_alloc_f (NB * N * M), *ref = tg_alloc_f (NB * N * M);
  int n = N, k = K, m = M, nb = NB, ldy = M - 1;
  tg_fill_f (x, NB * N * K, 1, -1, 1);
  tg_fill_f (w, K * M, 2, -1, 1);
  size_t ybytes = NB * N * M * sizeof *y;

  memset (y, 0, ybytes), memset (ref, 0, ybytes);
  rows (n, k, m, ldy, x, w, y);
  rows_loops (n, k, m, ldy, x, w, ref);
  CHECK_SAME (y, ref, ybytes);
  ldy = M + 1;
  TG_GRADCHECK (rows, &n, &k, &m, &ldy, x, w, y);

  int ldb = M;
  memset (y, 0, ybytes), memset (ref, 0, ybytes);
  apart (nb, n, k, m, ldb, x, w, y);
  apart_loops (nb, n, k, m, ldb, x, w, ref);
  CHECK_SAME (y, ref, ybytes);
  ldb = N * M;
  TG_GRADCHECK (apart, &nb, &n, &k, &m, &ldb, x, w, y);

  two (n, k, m, x, w, y);
  two_loops (n, k, m, x, w, ref);
  CHECK_SAME (y, ref, ybytes);
  TG_GRADCHECK (two, &n, &k, &m, x, w, y);

  float *z = tg_alloc_f (N * M), *zref = tg_alloc_f (N * M);
  tg_fill_f (z, N * M, 4, 6, 7);
  memcpy (zref, z, N * M * sizeof *z);
  zeroed (n, k, m, x, w, y, z);
  zeroed_loops (n, k, m, x, w, ref, zref);
  CHECK_SAME (y, ref, ybytes);
  CHECK_SAME (z, zref, N * M * sizeof *z);
  TG_GRADCHECK (zeroed, &n, &k, &m, x, w, y, z);

  tg_fill_f (y, NB * N * M, 3, -1, 1);
  memcpy (ref, y, ybytes);
  inout (n, k, m, x, w, y);
  inout_loops (n, k, m, x, w, ref);
  CHECK_SAME (y, ref, ybytes);
  TG_GRADCHECK (inout, &n, &k, &m, x, w, y);

  guarded (n, k, m, x, w, y);
  guarded_loops (n, k, m, x, w, ref);
  CHECK_SAME (y, ref, ybytes);
  TG_GRADCHECK (guarded, &n, &k, &m, x, w, y);

  /* No forward above called the BLAS (the gradients may).  */
  int calls = sgemm_calls;
  rows (n, k, m, ldy, x, w, y);
  apart (nb, n, k, m, ldb, x, w, y);
  two (n, k, m, x, w, y);
  zeroed (n, k, m, x, w, y, z);
  inout (n, k, m, x, w, y);
  guarded (n, k, m, x, w, y);
  CHECK (sgemm_calls == calls);
  free (x), free (w), free (y), free (ref), free (z), free (zref);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 52\\): loops, rows of the destination that may overlap\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 81\\): loops, rows of the destination that may overlap\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 112\\): loops, not a sum over one loop\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 168\\): loops, reads its destination\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 0 \\(line 195\\): loops, the nest tests a condition\n" } } */
/* { dg-final { scan-tensorgrad-dump "\nblas-forward: stage 1 \\(line 149\\): loops, the nest calls a function\n" } } */

/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-ffp-contract=off -fplugin-arg-tensorgrad-dump-c=tiled-set-1.gen.c -I." } */
/* { dg-additional-sources "tiled-set-1-aux.c" } */
/* Each version of the tiled function (lib/back/tiled.h: the default
   one, AVX2+FMA and AVX-512F, each as plugin/tiled.cc builds it and as
   dump-c prints it in tiled-set-1.gen.c, compiled by
   tiled-set-1-aux.c), called directly rather than through the ifunc,
   the GIMPLE ones by their assembler names, for each version the CPU
   runs: with SET 0, C += alpha * A B; with SET nonzero, C = alpha * A B,
   C's old value (NaNs here) not read.  Each element to the bit against
   the sums the version makes: for each block of 64 terms in order,
   s = 0, then s = fma (a, b, s) (s + a * b in the default version);
   then C = alpha * s in the set form's first block, else
   C = fma (alpha, s, C) (C + alpha * s).  The convolutions are here
   for their d_x.col product, which makes the object's tiled functions
   (both types), and are checked against central differences.  Sizes
   27 x 90 x 70 (double: two blocks, edge tiles) and 45 x 100 x 130
   (float: three blocks), A transposed in one, alpha 0.5 and -1.25.  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

#define CONV(NAME, T)							\
  __attribute__ ((differentiable)) void					\
  NAME (int nb, int c, int h, int w, int f, const T *x, const T *wt,	\
	const T *b, T *y)						\
  {									\
    for (int n = 0; n < nb; n++)					\
      for (int o = 0; o < f; o++)					\
	for (int oh = 0; oh < h; oh++)					\
	  for (int ow = 0; ow < w; ow++)				\
	    {								\
	      T acc = b[o];						\
	      for (int ci = 0; ci < c; ci++)				\
		for (int kh = 0; kh < 3; kh++)				\
		  for (int kw = 0; kw < 3; kw++)			\
		    {							\
		      int ih = oh + kh - 1, iw = ow + kw - 1;		\
		      if (ih >= 0 && ih < h && iw >= 0 && iw < w)	\
			acc += x[((n * c + ci) * h + ih) * w + iw]	\
			       * wt[((o * c + ci) * 3 + kh) * 3 + kw];	\
		    }							\
	      y[((n * f + o) * h + oh) * w + ow] = acc;			\
	    }								\
  }

CONV (conv_d, double)
CONV (conv_f, float)

typedef void tiled_f64 (long, long, long, double, const double *, long, long,
			const double *, long, long, double *, long, long);
typedef void tiled_f32 (long, long, long, float, const float *, long, long,
			const float *, long, long, float *, long, long);

/* The GIMPLE versions (plugin/tiled.cc), static in this object.  */
extern tiled_f64 g_f64_0 __asm__ ("tensorgrad.tiled.f64.default");
extern tiled_f64 g_f64_1 __asm__ ("tensorgrad.tiled.f64.avx2");
extern tiled_f64 g_f64_2 __asm__ ("tensorgrad.tiled.f64.avx512");
extern tiled_f32 g_f32_0 __asm__ ("tensorgrad.tiled.f32.default");
extern tiled_f32 g_f32_1 __asm__ ("tensorgrad.tiled.f32.avx2");
extern tiled_f32 g_f32_2 __asm__ ("tensorgrad.tiled.f32.avx512");
/* dump-c's (tiled-set-1-aux.c).  */
extern tiled_f64 *const c_f64[3];
extern tiled_f32 *const c_f32[3];

/* Whether the CPU runs version V (0 default, 1 AVX2+FMA, 2 AVX-512F).  */
static int
runs (int v)
{
  __builtin_cpu_init ();
  return v == 0
	 || (v == 1 && __builtin_cpu_supports ("avx2")
	     && __builtin_cpu_supports ("fma"))
	 || (v == 2 && __builtin_cpu_supports ("avx512f"));
}

/* REF: C(i, j) for i < M, j < N as version V (FUSED: not 0) sums
   alpha * sum_p A(i, p) B(p, j) into it, A(i, p) = a[i*sai + p*sap],
   B(p, j) = b[p*sbp + j], C(i, j) = c[i*N + j], with SET or not.
   CHECK_VERSIONS: for each version the CPU runs, the GIMPLE one (G) and
   dump-c's (CV), with SET 0 and 1, C's bits against REF's.  */
#define SUITE(T, SFX, FMA)						\
  static void								\
  ref_##SFX (int fused, long m, long n, long k, T alpha, const T *a,	\
	     long sai, long sap, const T *b, T *c, int set)		\
  {									\
    for (long i = 0; i < m; i++)					\
      for (long j = 0; j < n; j++)					\
	for (long p0 = 0; p0 < k; p0 += 64)				\
	  {								\
	    T s = 0, *cij = &c[i * n + j];				\
	    for (long p = p0; p < k && p < p0 + 64; p++)		\
	      s = fused ? FMA (a[i * sai + p * sap], b[p * n + j], s)	\
			: s + a[i * sai + p * sap] * b[p * n + j];	\
	    if (set && p0 == 0)						\
	      *cij = alpha * s;						\
	    else							\
	      *cij = fused ? FMA (alpha, s, *cij) : *cij + alpha * s;	\
	  }								\
  }									\
									\
  static void								\
  check_##SFX (long m, long n, long k, T alpha, int trans, unsigned seed) \
  {									\
    tiled_##SFX *g[3] = { g_##SFX##_0, g_##SFX##_1, g_##SFX##_2 };	\
    long sai = trans ? 1 : k, sap = trans ? m : 1;			\
    T *a = tg_alloc_##SFX (m * k), *b = tg_alloc_##SFX (k * n);	\
    T *c0 = tg_alloc_##SFX (m * n), *want = tg_alloc_##SFX (m * n);	\
    T *got = tg_alloc_##SFX (m * n);					\
    fill_##SFX (a, m * k, seed);					\
    fill_##SFX (b, k * n, seed + 1);					\
    for (int v = 0; v < 3; v++)						\
      for (int set = 0; set < 2 && runs (v); set++)			\
	{								\
	  fill_##SFX (c0, m * n, seed + 2);				\
	  if (set)							\
	    memset (c0, 0xff, sizeof (T) * m * n);			\
	  memcpy (want, c0, sizeof (T) * m * n);			\
	  ref_##SFX (v != 0, m, n, k, alpha, a, sai, sap, b, want, set); \
	  for (int i = 0; i < m * n; i++)				\
	    CHECK (want[i] == want[i]);					\
	  for (int text = 0; text < 2; text++)				\
	    {								\
	      memcpy (got, c0, sizeof (T) * m * n);			\
	      (text ? c_##SFX[v] : g[v]) (m, n, k, alpha, a, sai, sap, b, \
					  n, 1, got, n, set);		\
	      int same = memcmp (got, want, sizeof (T) * m * n) == 0;	\
	      if (!same)						\
		printf ("%s version %d, set %d, %s: not the sums\n",	\
			#SFX, v, set, text ? "dump-c" : "GIMPLE");	\
	      CHECK (same);						\
	    }								\
	}								\
  }

/* Double values with full mantissas (tg_fill's 24-bit ones would
   multiply exactly, fused and unfused alike); float's as tg_fill_f.  */
static double *
tg_alloc_f64 (long n)
{
  return tg_alloc (n);
}

static float *
tg_alloc_f32 (long n)
{
  return tg_alloc_f (n);
}

static void
fill_f64 (double *a, long n, unsigned seed)
{
  tg_fill (a, n, seed, -1, 1);
  for (long i = 0; i < n; i++)
    a[i] /= 3;
}

static void
fill_f32 (float *a, long n, unsigned seed)
{
  tg_fill_f (a, n, seed, -1, 1);
}

SUITE (double, f64, fma)
SUITE (float, f32, fmaf)

int
main (void)
{
  int nb = 1, c = 2, h = 5, w = 7, f = 3;
  double *x = tg_alloc (nb * c * h * w), *wt = tg_alloc (f * c * 9);
  double *b = tg_alloc (f), *y = tg_alloc (nb * f * h * w);
  tg_fill (x, nb * c * h * w, 1, -1, 1);
  tg_fill (wt, f * c * 9, 2, -1, 1);
  tg_fill (b, f, 3, -1, 1);
  TG_GRADCHECK (conv_d, &nb, &c, &h, &w, &f, x, wt, b, y);
  float *xf = tg_alloc_f (nb * c * h * w), *wf = tg_alloc_f (f * c * 9);
  float *bf = tg_alloc_f (f), *yf = tg_alloc_f (nb * f * h * w);
  tg_fill_f (xf, nb * c * h * w, 4, -1, 1);
  tg_fill_f (wf, f * c * 9, 5, -1, 1);
  tg_fill_f (bf, f, 6, -1, 1);
  TG_GRADCHECK (conv_f, &nb, &c, &h, &w, &f, xf, wf, bf, yf);

  check_f64 (27, 90, 70, 0.5, 0, 10);
  check_f64 (27, 90, 70, -1.25, 1, 20);
  check_f32 (45, 100, 130, 0.5f, 1, 30);
  check_f32 (45, 100, 130, -1.25f, 0, 40);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-file "tiled-set-1.gen.c" "static void\ntg_tiled_f64_avx2 \\(long m\[^)\]*long ldc,\n  long set\\)" } } */
/* { dg-final { scan-tensorgrad-file "tiled-set-1.gen.c" "static void\ntg_tiled_f32_avx512 \\(long m\[^)\]*long ldc,\n  long set\\)" } } */

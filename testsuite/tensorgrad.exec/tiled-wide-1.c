/* { dg-do run } */
/* { dg-options "-ffp-contract=off -fplugin-arg-tensorgrad-dump" } */
/* On x86-64 the tiled function (lib/back/tiled.h) has versions for
   AVX-512F and for AVX2 with FMA, which an ifunc chooses when the
   program starts, whatever -march the object was built for: a CPU with
   either runs the wide version, whose sums multiply and add in one
   rounding.  A dense layer with its rows in larger buffers, double, and
   a matrix product, float:
   y[i*ldy + j] = b[j] + sum_p x[i*ldx + p] w[p*m + j];
   d_x[i*ldx + p] += sum_j d_y[i*ldy + j] w[p*m + j] (d_x += d_y w^T),
   d_w[p*m + j] += sum_i x[i*ldx + p] d_y[i*ldy + j] (d_w += x^T d_y),
   d_b[j] += sum_i d_y[i*ldy + j];
   z[i*m + j] = sum_p u[i*k + p] v[p*m + j], the same products in float.
   Each product's elements are checked to the bit against the sums the
   chosen version makes: for each block of 64 terms in order, s = 0, then
   s = fma (a, b, s) term by term (s + a * b on a CPU without either
   unit), then C += s; and the fused and unfused sums must differ
   somewhere, or the check could not tell the versions apart.  Sizes
   40 x 50 x 60 (edge tiles, one block), 70 x 33 x 130 (d_x over three
   blocks, d_w over two), and 9 x 40 x 100, whose gradients are also
   checked against central differences, with the shadow of x NULL once
   (at the larger sizes, whose bits are the reference's, differences
   would only cost time).  */

#include <math.h>
#include <string.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
dense (int n, int k, int m, int ldx, int ldy, const double *x,
       const double *w, const double *b, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	double acc = b[j];
	for (int p = 0; p < k; p++)
	  acc += x[i * ldx + p] * w[p * m + j];
	y[i * ldy + j] = acc;
      }
}

__attribute__ ((differentiable))
void
matmul (int n, int k, int m, const float *u, const float *v, float *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
	float acc = 0;
	for (int p = 0; p < k; p++)
	  acc += u[i * k + p] * v[p * m + j];
	z[i * m + j] = acc;
      }
}

/* Which version the ifunc takes: 1 a wide one (fused), 0 the default.  */
static int
fused (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512f")
	 || (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"));
}

/* C(r, c) += sum_t A(r, t) B(t, c) for r < R, c < NC, t < T as the tiled
   function sums it (FMA or not), A(r, t) = a[r*SAR + t*SAT], B(t, c) =
   b[t*SBT + c*SBC], C(r, c) = c[r*LDC + c]; double.  */
static void
ref_d (int fma_, long R, long NC, long T, const double *a, long sar, long sat,
       const double *b, long sbt, long sbc, double *c, long ldc)
{
  for (long r = 0; r < R; r++)
    for (long q = 0; q < NC; q++)
      for (long t0 = 0; t0 < T; t0 += 64)
	{
	  double s = 0;
	  for (long t = t0; t < T && t < t0 + 64; t++)
	    s = fma_ ? fma (a[r * sar + t * sat], b[t * sbt + q * sbc], s)
		     : s + a[r * sar + t * sat] * b[t * sbt + q * sbc];
	  c[r * ldc + q] += s;
	}
}

/* The same in float.  */
static void
ref_f (int fma_, long R, long NC, long T, const float *a, long sar, long sat,
       const float *b, long sbt, long sbc, float *c, long ldc)
{
  for (long r = 0; r < R; r++)
    for (long q = 0; q < NC; q++)
      for (long t0 = 0; t0 < T; t0 += 64)
	{
	  float s = 0;
	  for (long t = t0; t < T && t < t0 + 64; t++)
	    s = fma_ ? fmaf (a[r * sar + t * sat], b[t * sbt + q * sbc], s)
		     : s + a[r * sar + t * sat] * b[t * sbt + q * sbc];
	  c[r * ldc + q] += s;
	}
}

/* CHECK that GOT (N doubles, or floats when F) equals the sums of the
   version the ifunc takes, WANT[fused ()], and that WANT[0] and WANT[1]
   differ.  */
static void
same_bits (const void *got, void *const want[2], size_t bytes)
{
  CHECK (memcmp (want[0], want[1], bytes) != 0);
  CHECK (memcmp (got, want[fused ()], bytes) == 0);
}

/* A[0..N-1] in [-1/3, 1/3) with full mantissas (tg_fill's values have
   24 bits, whose products double holds exactly: fused and unfused
   sums would agree), from SEED.  */
static void
fill_full (double *a, int n, unsigned seed)
{
  tg_fill (a, n, seed, -1, 1);
  for (int i = 0; i < n; i++)
    a[i] /= 3;
}

static void
run_dense (int n, int k, int m, unsigned seed, int diff)
{
  int ldx = k + 3, ldy = m + 2;
  double *xbuf = tg_alloc (n * ldx + 1), *w = tg_alloc (k * m);
  double *b = tg_alloc (m), *ybuf = tg_alloc (n * ldy + 1);
  double *dybuf = tg_alloc (n * ldy + 1);
  fill_full (xbuf, n * ldx + 1, seed);
  fill_full (w, k * m, seed + 1);
  fill_full (b, m, seed + 2);
  fill_full (dybuf, n * ldy + 1, seed + 3);
  double *x = xbuf + 1, *y = ybuf + 1, *dy = dybuf + 1;
  if (diff)
    {
      TG_GRADCHECK (dense, &n, &k, &m, &ldx, &ldy, x, w, b, y);
      TG_GRADCHECK_NULL (dense, "x", &n, &k, &m, &ldx, &ldy, x, w, b, y);
    }

  double *dx = tg_alloc (n * ldx), *dw = tg_alloc (k * m);
  double *db = tg_alloc (m);
  void *wx[2] = { tg_alloc (n * ldx), tg_alloc (n * ldx) };
  void *ww[2] = { tg_alloc (k * m), tg_alloc (k * m) };
  tg_fill (dx, n * ldx, seed + 4, -1, 1);
  tg_fill (dw, k * m, seed + 5, -1, 1);
  for (int f = 0; f < 2; f++)
    {
      memcpy (wx[f], dx, sizeof (double) * n * ldx);
      memcpy (ww[f], dw, sizeof (double) * k * m);
      /* d_x += d_y w^T: C(i, p), terms j.  */
      ref_d (f, n, k, m, dy, ldy, 1, w, 1, m, wx[f], ldx);
      /* d_w += x^T d_y: C(p, j), terms i.  */
      ref_d (f, k, m, n, x, 1, ldx, dy, ldy, 1, ww[f], m);
    }
  dense_grad (n, k, m, ldx, ldy, x, w, b, y, dx, dw, db, dy);
  same_bits (dx, wx, sizeof (double) * n * ldx);
  same_bits (dw, ww, sizeof (double) * k * m);
}

static void
run_matmul (int n, int k, int m, unsigned seed, int diff)
{
  float *u = tg_alloc_f (n * k), *v = tg_alloc_f (k * m);
  float *z = tg_alloc_f (n * m), *dz = tg_alloc_f (n * m);
  tg_fill_f (u, n * k, seed, -1, 1);
  tg_fill_f (v, k * m, seed + 1, -1, 1);
  tg_fill_f (dz, n * m, seed + 2, -1, 1);
  if (diff)
    TG_GRADCHECK (matmul, &n, &k, &m, u, v, z);

  float *du = tg_alloc_f (n * k), *dv = tg_alloc_f (k * m);
  void *wu[2] = { tg_alloc_f (n * k), tg_alloc_f (n * k) };
  void *wv[2] = { tg_alloc_f (k * m), tg_alloc_f (k * m) };
  tg_fill_f (du, n * k, seed + 3, -1, 1);
  tg_fill_f (dv, k * m, seed + 4, -1, 1);
  for (int f = 0; f < 2; f++)
    {
      memcpy (wu[f], du, sizeof (float) * n * k);
      memcpy (wv[f], dv, sizeof (float) * k * m);
      ref_f (f, n, k, m, dz, m, 1, v, 1, m, wu[f], k);
      ref_f (f, k, m, n, u, 1, k, dz, m, 1, wv[f], m);
    }
  matmul_grad (n, k, m, u, v, z, du, dv, dz);
  same_bits (du, wu, sizeof (float) * n * k);
  same_bits (dv, wv, sizeof (float) * k * m);
}

int
main (void)
{
  run_dense (9, 40, 100, 5, 1);
  run_dense (40, 50, 60, 1, 0);
  run_dense (70, 33, 130, 10, 0);
  run_matmul (9, 40, 100, 25, 1);
  run_matmul (40, 50, 60, 20, 0);
  run_matmul (70, 33, 130, 30, 0);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "\ntiled: tensorgrad.tiled.f64: versions avx512 \\(avx512f\\), avx2 \\(avx2,fma\\), default, chosen at run time by an ifunc\n" { target x86_64-*-* } } } */
/* { dg-final { scan-tensorgrad-dump "\ntiled: tensorgrad.tiled.f32: versions avx512 \\(avx512f\\), avx2 \\(avx2,fma\\), default, chosen at run time by an ifunc\n" { target x86_64-*-* } } } */

/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-fopenmp -fplugin-arg-tensorgrad-vector-forward -fplugin-arg-tensorgrad-target-clones" } */
/* vector-forward with target-clones: the kernels get versions for
   AVX-512F and AVX2 beside the default one, as their gradients do
   (<name>.avx512f, .avx2, .default and an ifunc <name>), and so do the
   bodies of an OpenMP kernel's regions (rownorm._omp_fn.0.avx512f ...);
   without them a file built for plain x86-64 ran its vectorized
   forward 2 to 4 times slower on an AVX-512 CPU.  Referred to by their
   assembler names: the link fails when one is missing.  Each version
   the CPU runs is called directly and checked against the same
   mathematics in double (softmax over rows of 37 inside a larger buffer
   with -INFINITY masked columns, which give exact zeros; a double tanh
   chain; a row normalization whose rows run on the OpenMP threads
   through the ifunc), and the gradients against central differences.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
softmax (int n, int m, int ld, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * ld;
      float mx = xr[0];
      for (int j = 1; j < m; j++)
	mx = fmaxf (mx, xr[j]);
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += expf (xr[j] - mx);
      for (int j = 0; j < m; j++)
	y[i * m + j] = expf (xr[j] - mx) / s;
    }
}

__attribute__ ((differentiable))
void
chain (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (a * tanh (x[i]));
}

__attribute__ ((differentiable))
void
rownorm (int n, int m, const float *x, float *y)
{
#pragma omp parallel for num_threads (2)
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += x[i * m + j] * x[i * m + j];
      float r = 1.0f / sqrtf (s / m + 1e-5f);
      for (int j = 0; j < m; j++)
	y[i * m + j] = x[i * m + j] * r;
    }
}

typedef void softmax_fn (int, int, int, const float *, float *);
typedef void chain_fn (int, double, const double *, double *);
extern softmax_fn softmax_v4 __asm__ ("softmax.avx512f");
extern softmax_fn softmax_v3 __asm__ ("softmax.avx2");
extern softmax_fn softmax_v0 __asm__ ("softmax.default");
extern chain_fn chain_v4 __asm__ ("chain.avx512f");
extern chain_fn chain_v3 __asm__ ("chain.avx2");
extern chain_fn chain_v0 __asm__ ("chain.default");
extern void rownorm_v4 (void) __asm__ ("rownorm._omp_fn.0.avx512f");
extern void rownorm_v3 (void) __asm__ ("rownorm._omp_fn.0.avx2");
extern void rownorm_v0 (void) __asm__ ("rownorm._omp_fn.0.default");

static int
near (double got, double want, double tol)
{
  return fabs (got - want) <= tol * (fabs (want) + 1e-30);
}

int
main (void)
{
  void (*volatile regions[]) (void) = { rownorm_v4, rownorm_v3, rownorm_v0 };
  for (unsigned k = 0; k < sizeof regions / sizeof *regions; k++)
    CHECK (regions[k] != 0);
  __builtin_cpu_init ();
  int has[3] = { __builtin_cpu_supports ("avx512f"),
		 __builtin_cpu_supports ("avx2"), 1 };
  softmax_fn *sv[3] = { softmax_v4, softmax_v3, softmax_v0 };
  chain_fn *cv[3] = { chain_v4, chain_v3, chain_v0 };

  int n = 5, m = 37, ld = 41;
  float *xbuf = tg_alloc_f (n * ld + 3), *y = tg_alloc_f (n * m);
  tg_fill_f (xbuf, n * ld + 3, 1, -3, 3);
  float *x = xbuf + 3;
  x[1 * ld + 4] = -INFINITY;
  x[3 * ld + 36] = -INFINITY;
  for (int v = 0; v < 3; v++)
    {
      if (!has[v])
	continue;
      sv[v] (n, m, ld, x, y);
      for (int i = 0; i < n; i++)
	{
	  double mx = -INFINITY, s = 0;
	  for (int j = 0; j < m; j++)
	    mx = fmax (mx, x[i * ld + j]);
	  for (int j = 0; j < m; j++)
	    s += exp ((double) x[i * ld + j] - mx);
	  for (int j = 0; j < m; j++)
	    {
	      double want = exp ((double) x[i * ld + j] - mx) / s;
	      CHECK (near (y[i * m + j], want, 1e-5));
	      if (isinf (x[i * ld + j]))
		CHECK (y[i * m + j] == 0.0f);
	    }
	}
    }
  /* The program's softmax, through the ifunc.  */
  softmax (n, m, ld, x, y);
  CHECK (y[1 * m + 4] == 0.0f && y[3 * m + 36] == 0.0f);
  x[1 * ld + 4] = 0.5f; /* central differences need finite inputs */
  x[3 * ld + 36] = -0.25f;
  TG_GRADCHECK (softmax, &n, &m, &ld, x, y);

  int k = 53;
  double a = 0.7, *u = tg_alloc (k), *w = tg_alloc (k);
  tg_fill (u, k, 4, -2, 2);
  for (int v = 0; v < 3; v++)
    {
      if (!has[v])
	continue;
      cv[v] (k, a, u, w);
      for (int i = 0; i < k; i++)
	CHECK (near (w[i], tanh (a * tanh (u[i])), 1e-14));
    }
  TG_GRADCHECK (chain, &k, &a, u, w);

  int r = 6, c = 45;
  float *p = tg_alloc_f (r * c), *q = tg_alloc_f (r * c);
  tg_fill_f (p, r * c, 5, -2, 2);
  rownorm (r, c, p, q);
  for (int i = 0; i < r; i++)
    {
      double s = 0;
      for (int j = 0; j < c; j++)
	s += (double) p[i * c + j] * p[i * c + j];
      for (int j = 0; j < c; j++)
	CHECK (near (q[i * c + j], p[i * c + j] / sqrt (s / c + 1e-5), 1e-5));
    }
  TG_GRADCHECK (rownorm, &r, &c, p, q);
  return tg_exit ();
}

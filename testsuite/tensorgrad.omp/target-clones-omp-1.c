/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-fplugin-arg-tensorgrad-target-clones -fplugin-arg-tensorgrad-dump" } */
/* -fplugin-arg-tensorgrad-target-clones and a kernel whose rows run on
   the OpenMP threads (bench/layernorm.c's, float, rows of x inside a
   larger buffer): the gradient's region body (layernorm_grad._omp_fn.0,
   which GCC outlines) and the loops the plugin outlines for each row
   (layernorm_grad.rows0) have the versions for AVX-512F and AVX2 too,
   the version of each caller calling its own.  The gradient checks on
   TG_THREADS threads, with the shadow of gamma NULL once.  With -g the
   region's body has no debug information (GCC 12 stops with an internal
   error making versions of a function without early debug information).
   Not with no-opt, which runs the rows' nests on their own (the dump
   scan leaves that run out).  */

#include <math.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

__attribute__ ((differentiable))
void
layernorm (int n, int m, int ld, const float *x, const float *gamma,
	   const float *beta, float *y)
{
#pragma omp parallel for num_threads (TG_THREADS)
  for (int i = 0; i < n; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += x[i * ld + j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
	v += (x[i * ld + j] - mean) * (x[i * ld + j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);
      for (int j = 0; j < m; j++)
	y[i * m + j] = (x[i * ld + j] - mean) * rstd * gamma[j] + beta[j];
    }
}

extern void grad_512 (void) __asm__ ("layernorm_grad.avx512f");
extern void grad_256 (void) __asm__ ("layernorm_grad.avx2");
extern void region_512 (void) __asm__ ("layernorm_grad._omp_fn.0.avx512f");
extern void region_256 (void) __asm__ ("layernorm_grad._omp_fn.0.avx2");
extern void rows_512 (void) __asm__ ("layernorm_grad.rows0.avx512f");
extern void rows_256 (void) __asm__ ("layernorm_grad.rows0.avx2");

int
main (void)
{
  void (*volatile versions[]) (void)
      = { grad_512, grad_256, region_512, region_256, rows_512, rows_256 };
  for (unsigned k = 0; k < sizeof versions / sizeof *versions; k++)
    CHECK (versions[k] != 0);

  int n = 9, m = 35, ld = 38;
  float *x = tg_alloc_f (n * ld), *gamma = tg_alloc_f (m);
  float *beta = tg_alloc_f (m), *y = tg_alloc_f (n * m);
  tg_fill_f (x, n * ld, 1, -2, 2);
  tg_fill_f (gamma, m, 2, 0.5, 1.5);
  tg_fill_f (beta, m, 3, -1, 1);
  TG_GRADCHECK (layernorm, &n, &m, &ld, x, gamma, beta, y);
  TG_GRADCHECK_NULL (layernorm, "gamma", &n, &m, &ld, x, gamma, beta, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "rows: 8 loop nests run as one, 1 outer loop shared" } } */

/* { dg-do run { target x86_64-*-* } } */
/* { dg-options "-fplugin-arg-tensorgrad-target-clones" } */
/* With -fplugin-arg-tensorgrad-target-clones each gradient has versions
   for AVX-512F and AVX2 beside the default one (GCC's target_clones:
   <name>_grad.avx512f, .avx2, .default and an ifunc <name>_grad that
   picks one when
   the program starts), whatever -march the file is compiled for; the
   gradient the CPU runs checks.  Layer normalization of rows x + off
   inside a larger buffer (float, a row length that is no multiple of a
   vector: 37), the kernel's gamma NULL-able, and a double tanh chain
   whose gradient calls tanh; also with the shadows of gamma and of x
   NULL.
   layernorm: y = (x - mean) rstd gamma + beta per row, rstd =
   1 / sqrt (var + 1e-5); d_x = rstd (g - mean (g) - xhat mean (g xhat))
   with g = d_y gamma, d_gamma += sum_i d_y xhat, d_beta += sum_i d_y.
   chain: y = tanh (a x), d_x += d_y a (1 - y^2), d_a += sum d_y x (1 - y^2).
   The versions are referred to by their assembler names: the link fails
   when one is missing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
layernorm (int n, int m, int ld, const float *x, const float *gamma,
	   const float *beta, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * ld;
      float s = 0.0f;
      for (int j = 0; j < m; j++)
	s += xr[j];
      float mean = s / m;
      float v = 0.0f;
      for (int j = 0; j < m; j++)
	v += (xr[j] - mean) * (xr[j] - mean);
      float rstd = 1.0f / sqrtf (v / m + 1e-5f);
      for (int j = 0; j < m; j++)
	y[i * m + j] = (xr[j] - mean) * rstd * (gamma ? gamma[j] : 1.0f)
		       + beta[j];
    }
}

__attribute__ ((differentiable))
void
chain (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = tanh (a * x[i]);
}

extern void layernorm_v4 (void) __asm__ ("layernorm_grad.avx512f");
extern void layernorm_v3 (void) __asm__ ("layernorm_grad.avx2");
extern void layernorm_v0 (void) __asm__ ("layernorm_grad.default");
extern void chain_v4 (void) __asm__ ("chain_grad.avx512f");
extern void chain_v3 (void) __asm__ ("chain_grad.avx2");
extern void chain_v0 (void) __asm__ ("chain_grad.default");

int
main (void)
{
  void (*volatile versions[]) (void)
      = { layernorm_v4, layernorm_v3, layernorm_v0, chain_v4, chain_v3,
	  chain_v0 };
  for (unsigned k = 0; k < sizeof versions / sizeof *versions; k++)
    CHECK (versions[k] != 0);

  int n = 5, m = 37, ld = 41;
  float *xbuf = tg_alloc_f (n * ld + 3), *gamma = tg_alloc_f (m);
  float *beta = tg_alloc_f (m), *y = tg_alloc_f (n * m);
  tg_fill_f (xbuf, n * ld + 3, 1, -2, 2);
  tg_fill_f (gamma, m, 2, 0.5, 1.5);
  tg_fill_f (beta, m, 3, -1, 1);
  float *x = xbuf + 3;
  TG_GRADCHECK (layernorm, &n, &m, &ld, x, gamma, beta, y);
  TG_GRADCHECK_NULL (layernorm, "gamma", &n, &m, &ld, x, gamma, beta, y);
  TG_GRADCHECK_NULL (layernorm, "x", &n, &m, &ld, x, gamma, beta, y);
  float *none = NULL;
  TG_GRADCHECK (layernorm, &n, &m, &ld, x, none, beta, y);

  int k = 53;
  double a = 0.7, *u = tg_alloc (k), *v = tg_alloc (k);
  tg_fill (u, k, 4, -2, 2);
  TG_GRADCHECK (chain, &k, &a, u, v);
  return tg_exit ();
}

/* ref_util.h -- helpers shared by the hand-written backward passes.

   The dense-layer backward for row-major x[n][k], w[k][m] and an output
   adjoint g[n][m], written for speed without -ffast-math: GCC does not
   vectorize a float sum reduction unless it may reassociate, so every
   inner loop here is an axpy over unit-stride rows (which it does
   vectorize at -O3), and rows are blocked so that the rows being updated
   stay in L1.  Compiled with -fopenmp (make bench-parallel), the loops
   over disjoint rows run on threads and the bias's sum is an OpenMP
   array reduction.  */

#ifndef BENCH_REF_UTIL_H
#define BENCH_REF_UTIL_H

#include <stdlib.h>
#include <string.h>

#define REF_RB 8		/* rows per block */

/* d_b[j] += sum_i g[i][j].  */
static inline void
ref_dense_db (int n, int m, const float *restrict g, float *restrict d_b)
{
#ifdef _OPENMP
#pragma omp parallel for reduction(+ : d_b[:m])
#endif
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      d_b[j] += g[i * m + j];
}

/* d_w[p][j] += sum_i x[i][p] * g[i][j]: rank-1 updates, j innermost, a
   block of REF_RB rows of g reused from L1 for each row p of d_w.  */
static inline void
ref_dense_dw (int n, int k, int m, const float *restrict x,
	      const float *restrict g, float *restrict d_w)
{
  for (int i0 = 0; i0 < n; i0 += REF_RB)
    {
      int i1 = i0 + REF_RB < n ? i0 + REF_RB : n;
#ifdef _OPENMP
#pragma omp parallel for
#endif
      for (int p = 0; p < k; p++)
	{
	  float *restrict dw = d_w + (size_t) p * m;
	  for (int i = i0; i < i1; i++)
	    {
	      float a = x[(size_t) i * k + p];
	      const float *restrict gr = g + (size_t) i * m;
	      for (int j = 0; j < m; j++)
		dw[j] += a * gr[j];
	    }
	}
    }
}

/* d_x[i][p] += sum_j g[i][j] * w[p][j]: w is transposed once into
   scratch (k*m copies, cheap next to n*k*m multiply-adds) so that the
   sum becomes axpys over rows of the transpose.  Returns 0, or -1 when
   the scratch cannot be allocated.  */
static inline int
ref_dense_dx (int n, int k, int m, const float *restrict w,
	      const float *restrict g, float *restrict d_x)
{
  float *wt = malloc ((size_t) k * m * sizeof *wt);
  if (!wt)
    return -1;
#ifdef _OPENMP
#pragma omp parallel for
#endif
  for (int p = 0; p < k; p++)
    for (int j = 0; j < m; j++)
      wt[(size_t) j * k + p] = w[(size_t) p * m + j];
#ifdef _OPENMP
#pragma omp parallel for
#endif
  for (int i0 = 0; i0 < n; i0 += REF_RB)
    {
      int i1 = i0 + REF_RB < n ? i0 + REF_RB : n;
      for (int j = 0; j < m; j++)
	{
	  const float *restrict r = wt + (size_t) j * k;
	  for (int i = i0; i < i1; i++)
	    {
	      float a = g[(size_t) i * m + j];
	      float *restrict dx = d_x + (size_t) i * k;
	      for (int p = 0; p < k; p++)
		dx[p] += a * r[p];
	    }
	}
    }
  free (wt);
  return 0;
}

#endif

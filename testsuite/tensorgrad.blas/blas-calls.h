/* blas-calls.h -- counts the CBLAS products a blas-forward test makes:
   its dg-options link with -Wl,--wrap=cblas_sgemm -Wl,--wrap=cblas_dgemm,
   so every call of the kernel's helper reaches these wrappers, which
   count it in sgemm_calls or dgemm_calls (atomically: libtensorgrad's
   convolutions call from several threads) and call the real CBLAS.  */

#ifndef BLAS_CALLS_H
#define BLAS_CALLS_H

static int sgemm_calls, dgemm_calls;

void __real_cblas_sgemm (int, int, int, int, int, int, float, const float *,
			 int, const float *, int, float, float *, int);
void __real_cblas_dgemm (int, int, int, int, int, int, double,
			 const double *, int, const double *, int, double,
			 double *, int);

void
__wrap_cblas_sgemm (int o, int ta, int tb, int m, int n, int k, float al,
		    const float *a, int lda, const float *b, int ldb,
		    float be, float *c, int ldc)
{
  __atomic_fetch_add (&sgemm_calls, 1, __ATOMIC_RELAXED);
  __real_cblas_sgemm (o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}

void
__wrap_cblas_dgemm (int o, int ta, int tb, int m, int n, int k, double al,
		    const double *a, int lda, const double *b, int ldb,
		    double be, double *c, int ldc)
{
  __atomic_fetch_add (&dgemm_calls, 1, __ATOMIC_RELAXED);
  __real_cblas_dgemm (o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}

#endif

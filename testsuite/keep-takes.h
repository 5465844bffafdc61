/* keep-takes.h -- counts the products a keep-products test's gradients
   take: its dg-options link with -Wl,--wrap=tg_keep_product, so every
   call of libtensorgrad's tg_keep_product reaches this wrapper, which
   counts in keep_takes (per thread) the takes that succeeded.  */

#ifndef KEEP_TAKES_H
#define KEEP_TAKES_H

#include <threads.h>
#include "tensorgrad.h"

static thread_local int keep_takes;

int __real_tg_keep_product (const char *, int, int, long, long, long,
			    const void *, long, const void *, long, void *,
			    long, double, double);

int
__wrap_tg_keep_product (const char *key, int step, int flags, long m, long n,
			long k, const void *a, long lda, const void *b,
			long ldb, void *c, long ldc, double alpha,
			double beta)
{
  int r = __real_tg_keep_product (key, step, flags, m, n, k, a, lda, b, ldb,
				  c, ldc, alpha, beta);
  keep_takes += step == TG_KEEP_TAKE && r;
  return r;
}

#endif

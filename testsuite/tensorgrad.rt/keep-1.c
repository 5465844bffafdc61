/* { dg-do run } */
/* tg_keep_product, the runtime of -fplugin-arg-tensorgrad-keep-products,
   called as the plugin's code calls it around a product C = alpha op (A)
   op (B) + beta C (here a loop nest): kept operands and result, then
   taken only where every operand byte and the whole description match.
   C has rows longer than the product's (ldc > n): a take writes the
   product's columns only, also when beta is 0 and C's other elements
   differ from the kernel's.  A second key and a second thread keep
   their own products; the thread's go when it ends (glibc's mallinfo2:
   what is allocated after it ended is what was before).  */

#include <malloc.h>
#include <string.h>
#include <threads.h>
#include <tensorgrad.h>
#include "tg-test.h"

enum { M = 5, N = 3, K = 4, LDC = 6 };

static void
product (const float *a, const float *b, float *c, float alpha, float beta)
{
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      {
	float s = 0;
	for (int p = 0; p < K; p++)
	  s += a[i * K + p] * b[p * N + j];
	c[i * LDC + j] = alpha * s + beta * c[i * LDC + j];
      }
}

/* The kernel's side: keep, compute, keep the result.  */
static void
forward (const char *key, const float *a, const float *b, float *c,
	 float beta)
{
  CHECK (tg_keep_product (key, TG_KEEP_OPERANDS, 0, M, N, K, a, K, b, N, c,
			  LDC, 2.0, beta) == 0);
  product (a, b, c, 2.0f, beta);
  CHECK (tg_keep_product (key, TG_KEEP_RESULT, 0, M, N, K, a, K, b, N, c,
			  LDC, 2.0, beta) == 0);
}

static int
take (const char *key, const float *a, const float *b, float *c, float beta)
{
  return tg_keep_product (key, TG_KEEP_TAKE, 0, M, N, K, a, K, b, N, c, LDC,
			  2.0, beta);
}

static float a[M * K], b[K * N];

enum { BIG = 256 };

static int
other_thread (void *arg)
{
  float c[M * LDC] = { 0 };
  (void) arg;
  /* Nothing kept by this thread yet.  */
  int took = take ("k/c", a, b, c, 1.0f);
  forward ("k/c", a, b, c, 1.0f);
  /* And a large product: 4 x 256 KB kept.  */
  float *big = calloc (BIG * BIG, sizeof (float));
  if (!big)
    return -1;
  tg_keep_product ("k/big", TG_KEEP_OPERANDS, 0, BIG, BIG, BIG, big, BIG,
		   big, BIG, big, BIG, 1.0, 1.0);
  tg_keep_product ("k/big", TG_KEEP_RESULT, 0, BIG, BIG, BIG, big, BIG,
		   big, BIG, big, BIG, 1.0, 1.0);
  free (big);
  return took;
}

static size_t
allocated (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return mi.uordblks + mi.hblkhd;
}

int
main (void)
{
  float c[M * LDC], g[M * LDC], want[M * LDC];
  tg_fill_f (a, M * K, 1, -1, 1);
  tg_fill_f (b, K * N, 2, -1, 1);
  tg_fill_f (c, M * LDC, 3, -1, 1);
  memcpy (g, c, sizeof c);
  forward ("k/c", a, b, c, 1.0f);
  memcpy (want, c, sizeof c);

  /* The gradient's copy of C before the product, and the same operands
     in other arrays: taken, bit for bit.  */
  float a2[M * K], b2[K * N];
  memcpy (a2, a, sizeof a);
  memcpy (b2, b, sizeof b);
  CHECK (take ("k/c", a2, b2, g, 1.0f) == 1);
  CHECK (!memcmp (g, want, sizeof g));
  /* A changed operand, C before, size or scale: not taken, C left.  */
  memcpy (g, c, sizeof g);
  float saved = g[0];
  a2[K * M - 1] += 1.0f;
  CHECK (take ("k/c", a2, b2, g, 1.0f) == 0);
  a2[K * M - 1] = a[K * M - 1];
  CHECK (g[0] == saved);
  tg_fill_f (g, M * LDC, 3, -1, 1);
  g[LDC + 1] = 7;
  CHECK (take ("k/c", a2, b2, g, 1.0f) == 0);
  tg_fill_f (g, M * LDC, 3, -1, 1);
  CHECK (tg_keep_product ("k/c", TG_KEEP_TAKE, 0, M, N, K - 1, a2, K, b2,
			  N, g, LDC, 2.0, 1.0) == 0);
  CHECK (tg_keep_product ("k/c", TG_KEEP_TAKE, 0, M, N, K, a2, K, b2, N, g,
			  LDC, 3.0, 1.0) == 0);
  CHECK (tg_keep_product ("k/c", TG_KEEP_TAKE, 2, M, N, K, a2, K, b2, N, g,
			  LDC, 2.0, 1.0) == 0);
  CHECK (take ("k/d", a2, b2, g, 1.0f) == 0);
  /* And the original again: taken.  */
  CHECK (take ("k/c", a2, b2, g, 1.0f) == 1);

  /* beta 0: C before is not an operand; the take writes the product's
     N columns of each row, not what lies between the rows.  */
  float d[M * LDC];
  tg_fill_f (d, M * LDC, 4, -1, 1);
  forward ("k/d", a, b, d, 0.0f);
  float e[M * LDC];
  for (int i = 0; i < M * LDC; i++)
    e[i] = -5.0f;
  CHECK (take ("k/d", a, b, e, 0.0f) == 1);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < LDC; j++)
      {
	if (j < N)
	  CHECK (e[i * LDC + j] == d[i * LDC + j]);
	else
	  CHECK (e[i * LDC + j] == -5.0f);
      }
  /* k/c is still kept beside k/d.  */
  tg_fill_f (g, M * LDC, 3, -1, 1);
  CHECK (take ("k/c", a, b, g, 1.0f) == 1);
  CHECK (!memcmp (g, want, sizeof g));

  /* Another thread has kept nothing, keeps its own and frees it when it
     ends (tensorgrad.asan's leak check sees it).  */
  thrd_t t;
  int took = -1;
  size_t before = allocated ();
  CHECK (thrd_create (&t, other_thread, NULL) == thrd_success);
  CHECK (thrd_join (t, &took) == thrd_success);
  CHECK (took == 0);
  size_t after = allocated ();
  CHECK (after < before + 64 * 1024);

  /* Empty products are never kept.  */
  CHECK (tg_keep_product ("k/e", TG_KEEP_OPERANDS, 0, 0, N, K, a, K, b, N,
			  g, LDC, 1.0, 0.0) == 0);
  CHECK (tg_keep_product ("k/e", TG_KEEP_TAKE, 0, 0, N, K, a, K, b, N, g,
			  LDC, 1.0, 0.0) == 0);
  return tg_exit ();
}

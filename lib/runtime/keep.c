/* keep.c -- the products a kernel keeps for its gradient
   (-fplugin-arg-tensorgrad-keep-products; <tensorgrad.h>,
   tg_keep_product).

   A gradient recomputes what its kernel computed into local arrays (a
   hidden layer): the kernel's products, the costly part, it can take
   from here instead.  Each thread has a list of entries, one per key
   (the kernel and the local array written), each holding the product's
   description and copies of the elements the product reads and writes
   (row after row: not what lies between an operand's rows):

       forward:   tg_keep_product (key, TG_KEEP_OPERANDS, ...)
                  C = alpha op (A) op (B) + beta C     (the CBLAS call)
                  tg_keep_product (key, TG_KEEP_RESULT, ...)
       gradient:  if (!tg_keep_product (key, TG_KEEP_TAKE, ...))
                    C = alpha op (A) op (B) + beta C

   The result is a function of the description and the operands'
   elements, so a take that finds them equal (byte for byte: the
   gradient's arrays are not the kernel's, and the program may have
   changed anything between the two calls) gives what the product would
   give, and the entry's key only says where to look.  The entries go
   with their thread (a tss_t destructor).  */

#ifdef HAVE_CONFIG_H
#include "tg-config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "tensorgrad.h"

typedef struct kept
{
  struct kept *next;
  char *key;
  int flags;
  long m, n, k, lda, ldb, ldc;
  double alpha, beta;
  size_t nc;                /* bytes of C's elements (0: no copies) */
  unsigned char *a, *b, *c0, *c1; /* their copies, row after row, packed:
				     C before and after */
  size_t cap;               /* bytes allocated at A (one block) */
  int complete;             /* the result is there */
} kept;

static thread_local kept *kept_list;
static tss_t kept_tss;
static int kept_tss_ok;
static once_flag kept_once = ONCE_FLAG_INIT;

static void
free_list (void *list)
{
  for (kept *e = list, *next; e; e = next)
    {
      next = e->next;
      free (e->key);
      free (e->a);
      free (e);
    }
}

static void
make_tss (void)
{
  kept_tss_ok = tss_create (&kept_tss, free_list) == thrd_success;
}

/* A row-major matrix of R rows of S elements of ELEM bytes, LD elements
   apart: what the product reads or writes of an operand (not what lies
   between its rows).  */
typedef struct
{
  size_t r, s, ld, elem;
} matrix;

static matrix
mat (long r, long s, long ld, size_t elem)
{
  return (matrix) { (size_t) r, (size_t) s, (size_t) ld, elem };
}

static size_t
bytes (matrix x)
{
  return x.r * x.s * x.elem;
}

/* Copy X's elements at P to PACKED, row after row, or back.  */
static void
pack (matrix x, const void *p, unsigned char *packed)
{
  for (size_t i = 0; i < x.r; i++)
    memcpy (packed + i * x.s * x.elem,
	    (const unsigned char *) p + i * x.ld * x.elem, x.s * x.elem);
}

static void
unpack (matrix x, const unsigned char *packed, void *p)
{
  for (size_t i = 0; i < x.r; i++)
    memcpy ((unsigned char *) p + i * x.ld * x.elem,
	    packed + i * x.s * x.elem, x.s * x.elem);
}

/* Are X's elements at P the bytes PACKED holds?  */
static int
same (matrix x, const void *p, const unsigned char *packed)
{
  for (size_t i = 0; i < x.r; i++)
    if (memcmp (packed + i * x.s * x.elem,
		(const unsigned char *) p + i * x.ld * x.elem, x.s * x.elem))
      return 0;
  return 1;
}

static kept *
find (const char *key)
{
  for (kept *e = kept_list; e; e = e->next)
    if (!strcmp (e->key, key))
      return e;
  return NULL;
}

int
tg_keep_product (const char *key, int step, int flags, long m, long n,
		 long k, const void *a, long lda, const void *b, long ldb,
		 void *c, long ldc, double alpha, double beta)
{
  if (m <= 0 || n <= 0 || k <= 0 || !key)
    return 0;
  size_t elem = flags & 4 ? sizeof (double) : sizeof (float);
  matrix ma = flags & 1 ? mat (k, m, lda, elem) : mat (m, k, lda, elem);
  matrix mb = flags & 2 ? mat (n, k, ldb, elem) : mat (k, n, ldb, elem);
  matrix mc = mat (m, n, ldc, elem);
  size_t na = bytes (ma), nb = bytes (mb), nc = bytes (mc);
  kept *e = find (key);
  if (step == TG_KEEP_TAKE)
    {
      if (!e || !e->complete || e->flags != flags || e->m != m
	  || e->n != n || e->k != k || e->lda != lda || e->ldb != ldb
	  || e->ldc != ldc || memcmp (&e->alpha, &alpha, sizeof alpha)
	  || memcmp (&e->beta, &beta, sizeof beta) || !same (ma, a, e->a)
	  || !same (mb, b, e->b) || (beta != 0 && !same (mc, c, e->c0)))
	return 0;
      unpack (mc, e->c1, c);
      return 1;
    }
  if (step == TG_KEEP_RESULT)
    {
      /* After the operands of the same product (the call between).  */
      if (e && e->nc == nc && e->c1)
	{
	  pack (mc, c, e->c1);
	  e->complete = 1;
	}
      return 0;
    }
  if (step != TG_KEEP_OPERANDS)
    return 0;
  if (!e)
    {
      call_once (&kept_once, make_tss);
      e = calloc (1, sizeof *e);
      char *copy = e ? malloc (strlen (key) + 1) : NULL;
      if (!copy)
	{
	  free (e);
	  return 0;
	}
      e->key = strcpy (copy, key);
      e->next = kept_list;
      kept_list = e;
      if (kept_tss_ok)
	tss_set (kept_tss, kept_list);
    }
  e->complete = 0;
  size_t need = na + nb + 2 * nc;
  if (need > e->cap)
    {
      unsigned char *p = malloc (need);
      if (!p)
	{
	  e->nc = 0; /* no result kept: TG_KEEP_RESULT does nothing */
	  return 0;
	}
      free (e->a);
      e->a = p;
      e->cap = need;
    }
  e->b = e->a + na;
  e->c0 = e->b + nb;
  e->c1 = e->c0 + nc;
  e->flags = flags;
  e->m = m, e->n = n, e->k = k;
  e->lda = lda, e->ldb = ldb, e->ldc = ldc;
  e->alpha = alpha, e->beta = beta;
  e->nc = nc;
  pack (ma, a, e->a);
  pack (mb, b, e->b);
  if (beta != 0)
    pack (mc, c, e->c0);
  return 0;
}

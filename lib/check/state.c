/* state.c -- what every step of the check shares (check-int.h): the
   reason a kernel is not checked, memory that lives as long as the check,
   and the values of index arrays.  */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* ---- the state of one check --------------------------------------------- */

/* Record why the kernel is not checked (the first reason counts);
   returns false.  `name' in FMT quotes a name with the options'
   quotes.  */
bool
ck_refuse (ck_state *ck, const char *fmt, ...)
{
  ck_result *res = ck->res;
  if (res->why[0])
    return false;
  const char *lq = ck->opt->lquote ? ck->opt->lquote : "'";
  const char *rq = ck->opt->rquote ? ck->opt->rquote : "'";
  char qfmt[400];
  size_t len = 0;
  for (const char *s = fmt; *s && len + 8 < sizeof qfmt; s++)
    {
      const char *q = *s == '`' ? lq : *s == '\'' ? rq : NULL;
      if (!q)
        qfmt[len++] = *s;
      for (; q && *q && len + 8 < sizeof qfmt; q++)
        qfmt[len++] = *q;
    }
  qfmt[len] = 0;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (res->why, sizeof res->why, qfmt, ap);
  va_end (ap);
  res->status = CK_NOT_CHECKED;
  return false;
}

/* Refuse with the interpreter's diagnostic.  */
bool
ck_refuse_run (ck_state *ck)
{
  return ck_refuse (ck, "%s", ck->diag.msg[0]
                                  ? ck->diag.msg
                                  : "the interpreter ran out of memory");
}

/* N zeroed elements of SIZE bytes; NULL, the kernel refused, when memory
   runs out.  */
void *
ck_alloc (ck_state *ck, size_t n, size_t size)
{
  void *m = calloc (n ? n : 1, size);
  if (!m)
    ck_refuse (ck, "the check ran out of memory");
  return m;
}

/* Element E of index array Q: a fixed permutation of the naturals that
   moves each element within its block of four, so that the values are
   distinct (a scatter through the array writes each element once) and
   below E + 4, whatever the array's extent turns out to be.  With
   CK->small_index, for a gradient that requires each entry to pick an
   element of its own row (lib/passes/points.c), the same permutation
   modulo 2: 0 or 1, within a row of the sizes the check picks.  */
int64_t
ck_index_value (const ck_state *ck, int q, int64_t e)
{
  static const int perm[3][4]
      = { { 2, 0, 3, 1 }, { 1, 3, 0, 2 }, { 3, 2, 0, 1 } };
  if (ck->small_index)
    return perm[q % 3][e % 4] % 2;
  return e - e % 4 + perm[q % 3][e % 4];
}

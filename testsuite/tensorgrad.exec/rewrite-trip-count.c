/* { dg-do run } */
/* How to rewrite (README): a loop whose number of iterations cannot be
   told.  The rewrites of tensorgrad.err/rewrite-trip-count.c: head runs
   to the smaller bound, computed first; twice indexes from the start;
   until_negative runs to a count the caller passes (count_nonneg, plain
   C).  Checked: y equals the originals' (compiled here as plain C), and
   the gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define head head_orig
#define twice twice_orig
#define until_negative until_negative_orig
#include "tensorgrad.err/rewrite-trip-count.c"
#undef head
#undef twice
#undef until_negative
#undef differentiable

__attribute__ ((differentiable))
void
head (int n, int m, const double *x, double *y)
{
  int k = n < m ? n : m;
  for (int i = 0; i < k; i++)
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable))
void
twice (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

/* The number of leading entries of X that are not negative.  */
static int
count_nonneg (const double *x)
{
  int i = 0;
  while (x[i] >= 0)
    i++;
  return i;
}

__attribute__ ((differentiable))
void
until_negative (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
}

int
main (void)
{
  int n = 6, m = 4;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, 0, 1);
  head_orig (n, m, x, y0);
  head (n, m, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (head, &n, &m, x, y);
  TG_GRADCHECK (head, &m, &n, x, y);
  twice_orig (n, x, y0);
  twice (n, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (twice, &n, x, y);
  x[4] = -1;
  memset (y, 0, n * sizeof *y);
  memset (y0, 0, n * sizeof *y0);
  int k = count_nonneg (x);
  until_negative_orig (x, y0);
  until_negative (k, x, y);
  CHECK_SAME (y, y0, n * sizeof *y);
  TG_GRADCHECK (until_negative, &k, x, y);
  return tg_exit ();
}

/* { dg-do run } */
/* How to rewrite (README): an integer a loop counts, read in the loop.
   The rewrites of tensorgrad.err/rewrite-count-read.c: the caller finds
   the positions of the positive entries (positives, plain C: they
   depend on x only through comparisons, which have no derivative) and
   compact gathers them; for running, the caller's prefix counts come in
   an integer array.  Checked: y equals the originals' (compiled here as
   plain C), compact's gradient against central differences (a gather:
   no descriptor, checked by hand) and running's through the
   descriptor.  */

#include "tg-test.h"

#define differentiable unused
#define compact compact_orig
#define running running_orig
#include "tensorgrad.err/rewrite-count-read.c"
#undef compact
#undef running
#undef differentiable

/* The positions of the positive entries of X[0..N-1] into SRC; their
   number.  */
static int
positives (int n, const double *x, int *src)
{
  int c = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      src[c++] = i;
  return c;
}

__attribute__ ((differentiable))
void
compact (int c, const int *src, const double *x, double *y)
{
  for (int k = 0; k < c; k++)
    y[k] = x[src[k]];
}

__attribute__ ((differentiable))
void
running (int n, const int *cnt, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * cnt[i];
}

enum { N = 7 };
static double x[N], y[N], cy[N];
static int src[N], c;

static double
loss (void *unused)
{
  (void) unused;
  compact (c, src, x, y);
  return tg_dot (cy, y, c);
}

int
main (void)
{
  int n = N;
  tg_fill_away (x, N, 1, -1, 1, 0, 0.05);
  tg_fill (cy, N, 2, -1, 1);
  double y0[N] = { 0 };
  compact_orig (N, x, y0);
  c = positives (N, x, src);
  loss (NULL);
  CHECK_SAME (y, y0, c * sizeof *y);
  double d_x[N] = { 0 }, d_y[N];
  memcpy (d_y, cy, sizeof cy);
  compact_grad (c, src, x, y, d_x, d_y);
  tg_fd_check ("x", x, N, loss, NULL, d_x, TG_RTOL, TG_ATOL);

  int mask[N] = { 1, 0, 1, 1, 0, 0, 1 }, cnt[N];
  for (int i = 0, s = 0; i < N; i++)
    cnt[i] = s += mask[i];
  running_orig (N, mask, x, y0);
  running (N, cnt, x, y);
  CHECK_SAME (y, y0, sizeof y);
  TG_GRADCHECK (running, &n, cnt, x, y);
  return tg_exit ();
}

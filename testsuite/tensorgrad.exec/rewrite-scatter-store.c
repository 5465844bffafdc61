/* { dg-do run } */
/* How to rewrite (README): a store through an index array.  The
   rewrites of tensorgrad.err/rewrite-scatter-store.c, the same for a
   permutation: unsort_gather reads through the inverse permutation inv;
   unsort adds into y through perm (a scatter-add, right whatever the
   indices), y in-out and cleared by the caller.  (Cleared by the kernel
   first, by a loop or memset, y is refused: "'y' is written by more than
   one loop nest".)  Checked: y equals the
   original's (compiled here as plain C), and every component of both
   gradients against central differences (index arrays: no descriptor,
   checked by hand).  */

#include "tg-test.h"

#define differentiable unused
#define unsort unsort_orig
#include "tensorgrad.err/rewrite-scatter-store.c"
#undef unsort
#undef differentiable

__attribute__ ((differentiable))
void
unsort (int n, int d, const int *perm, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < d; k++)
      y[perm[i] * d + k] += tanh (x[i * d + k]);
}

__attribute__ ((differentiable))
void
unsort_gather (int n, int d, const int *inv, const double *x, double *y)
{
  for (int j = 0; j < n; j++)
    for (int k = 0; k < d; k++)
      y[j * d + k] = tanh (x[inv[j] * d + k]);
}

enum { N = 5, D = 2 };
static const int perm[N] = { 3, 0, 4, 1, 2 };
static int inv[N];
static double x[N * D], y[N * D], c[N * D];
static int gather;

static double
loss (void *unused)
{
  (void) unused;
  if (gather)
    unsort_gather (N, D, inv, x, y);
  else
    {
      memset (y, 0, sizeof y);
      unsort (N, D, perm, x, y);
    }
  return tg_dot (c, y, N * D);
}

int
main (void)
{
  for (int i = 0; i < N; i++)
    inv[perm[i]] = i;
  tg_fill (x, N * D, 1, -2, 2);
  tg_fill (c, N * D, 2, -1, 1);
  double y0[N * D];
  unsort_orig (N, D, perm, x, y0);
  for (gather = 0; gather < 2; gather++)
    {
      loss (NULL);
      CHECK_SAME (y, y0, sizeof y);
      double d_x[N * D] = { 0 }, d_y[N * D];
      memcpy (d_y, c, sizeof c);
      if (gather)
        unsort_gather_grad (N, D, inv, x, y, d_x, d_y);
      else
        unsort_grad (N, D, perm, x, y, d_x, d_y);
      tg_fd_check ("x", x, N * D, loss, NULL, d_x, TG_RTOL, TG_ATOL);
    }
  return tg_exit ();
}

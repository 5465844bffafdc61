/* { dg-do run } */
/* A permutation gather through an integer index array (no shadow), n = 7
   at run time, perm made of a 3-cycle, a 2-cycle and two fixed points
   (not an involution, so transposing the access is not the identity):
     y[i] = x[perm[i]].
   d_x[perm[i]] += d_y[i], i.e. d_x[j] += d_y[perm^-1[j]].  Checks every
   d_x against central differences and the inverse-permutation formula,
   accumulation into a pre-filled d_x, and that x, perm, y, d_y are
   untouched.  Checked by hand: a gather gets no descriptor (the extents of
   an array cannot be told).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
permute (int n, const int *perm, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[perm[i]];
}

struct ctx
{
  int n;
  const int *perm;
  double *x, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  permute (k->n, k->perm, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  int perm[] = { 1, 2, 0, 4, 3, 5, 6 };
  int perm0[] = { 1, 2, 0, 4, 3, 5, 6 };
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  permute (n, perm, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  permute_grad (n, perm, x, y, d_x, d_y);

  CHECK_SAME (perm, perm0, sizeof perm);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  for (int i = 0; i < n; i++)
    CHECK_NEAR_AT (g_x[perm[i]], cy[i], 1e-12, 1e-14, i);
  struct ctx k = { n, perm, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A read behind a bounds guard may reach past the array where the guard
   is false: x[i + 1] behind i + 1 < n.  The descriptor's extents must not
   count it (tg_gradcheck copies that many elements of the caller's
   array): they bound each access by the conditions on its path, here
   i + 1 < n, so x has n elements, not n + 1.  The arrays below have
   exactly N elements, and the dump gives x's extent.

     y[i] = x[i] + (i + 1 < n ? x[i + 1] : 0)
     d_x[i] += d_y[i] + (i > 0 ? d_y[i - 1] : 0)

   Checks d_x against central differences by hand (accumulation into a
   pre-filled d_x, x, y and d_y untouched) and through the descriptor.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
shift_add (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + (i + 1 < n ? x[i + 1] : 0);
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  shift_add (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  enum { N = 6 };
  double *x = tg_alloc (N), *y = tg_alloc (N), *c = tg_alloc (N);
  double *d_x = tg_alloc (N);
  tg_fill (x, N, 1, -1, 1);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (d_x, N, 3, -1, 1);
  shift_add (N, x, y);
  double *x0 = tg_dup (x, N), *y0 = tg_dup (y, N);
  double *d_y = tg_dup (c, N), *pre = tg_dup (d_x, N);
  shift_add_grad (N, x, y, d_x, d_y);
  CHECK_SAME (x, x0, N * sizeof (double));
  CHECK_SAME (y, y0, N * sizeof (double));
  CHECK_SAME (d_y, c, N * sizeof (double));
  tg_sub (d_x, d_x, pre, N);
  struct ctx k = { N, x, y, c };
  tg_fd_check ("x", x, N, loss, &k, d_x, TG_RTOL, TG_ATOL);
  int n = N;
  TG_GRADCHECK (shift_add, &n, x, y);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-not "no descriptor" } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* A read behind a bounds guard may reach past the array where the guard
   is false: x[i + 1] behind i + 1 < n.  The descriptor's extents must not
   count it (tg_gradcheck copies that many elements of the caller's
   array), so a kernel whose guarded reads reach further than its other
   reads gets no descriptor; the gradient is the same.

     y[i] = x[i] + (i + 1 < n ? x[i + 1] : 0)
     d_x[i] += d_y[i] + (i > 0 ? d_y[i - 1] : 0)

   Checks d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y and d_y are untouched.  */

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
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "no descriptor: the extents of an array cannot be told" } } */

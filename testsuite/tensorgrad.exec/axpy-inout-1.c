/* { dg-do run } */
/* An in-out parameter, BLAS axpy: y[i] = a * x[i] + y[i].  Per the ABI,
   d_y holds on entry the adjoint of the final y and on return the adjoint
   of the entry y (here the same values: dy_final/dy_entry = 1);
   *d_a += sum d_y x and d_x += a d_y are accumulated.  f_grad is called
   with y as the forward left it.  Checks d_a, every d_x and every
   returned d_y against central differences with respect to a, x and the
   entry values of y, accumulation into pre-filled *d_a and d_x, and that
   x and the final y are untouched.  Kept with its own central differences,
   not tg_gradcheck's, so that the descriptor path is itself checked: an
   in-out parameter and a scalar shadow.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
axpy (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

struct ctx
{
  int n;
  double a;
  double *x, *y_entry, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  memcpy (k->y, k->y_entry, k->n * sizeof (double));
  axpy (k->n, k->a, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 11;
  struct ctx k;
  k.n = n;
  k.a = 0.625;
  k.x = tg_alloc (n);
  k.y_entry = tg_alloc (n);
  k.c = tg_alloc (n);
  tg_fill (k.x, n, 1, -2, 2);
  tg_fill (k.y_entry, n, 2, -2, 2);
  tg_fill (k.c, n, 3, -1, 1);
  k.y = tg_dup (k.y_entry, n);
  double *d_x = tg_alloc (n), *g_x = tg_alloc (n);
  tg_fill (d_x, n, 4, -1, 1);
  double d_a = -0.5, g_a;

  axpy (n, k.a, k.x, k.y);
  double *x0 = tg_dup (k.x, n), *y_final = tg_dup (k.y, n);
  double *d_y = tg_dup (k.c, n), *pre = tg_dup (d_x, n);

  axpy_grad (n, k.a, k.x, k.y, &d_a, d_x, d_y);

  CHECK_SAME (k.x, x0, n * sizeof (double));
  CHECK_SAME (k.y, y_final, n * sizeof (double));
  g_a = d_a + 0.5;
  tg_sub (g_x, d_x, pre, n);
  tg_fd_check ("a", &k.a, 1, loss, &k, &g_a, TG_RTOL, TG_ATOL);
  tg_fd_check ("x", k.x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("y_entry", k.y_entry, n, loss, &k, d_y, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

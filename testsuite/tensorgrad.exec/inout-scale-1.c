/* { dg-do run } */
/* An in-out parameter scaled in place, 2-D flat-indexed, n x m at run
   time: y[i*m+j] = 2 * y[i*m+j] + sin (x[i*m+j]).  d_y holds on entry the
   adjoint of the final y and must hold on return the adjoint of the entry
   y, 2 d_y (replaced, not accumulated); d_x += d_y cos x is accumulated.
   Checks every d_x and returned d_y against central differences with
   respect to x and the entry values of y, the exact 2 d_y, accumulation
   into a pre-filled d_x, and that x and the final y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
double_add (int n, int m, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = 2 * y[i * m + j] + sin (x[i * m + j]);
}

struct ctx
{
  int n, m;
  double *x, *y_entry, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  memcpy (k->y, k->y_entry, k->n * k->m * sizeof (double));
  double_add (k->n, k->m, k->x, k->y);
  return tg_dot (k->c, k->y, k->n * k->m);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  struct ctx k;
  k.n = n;
  k.m = m;
  k.x = tg_alloc (nm);
  k.y_entry = tg_alloc (nm);
  k.c = tg_alloc (nm);
  tg_fill (k.x, nm, 1, -2, 2);
  tg_fill (k.y_entry, nm, 2, -2, 2);
  tg_fill (k.c, nm, 3, -1, 1);
  k.y = tg_dup (k.y_entry, nm);
  double *d_x = tg_alloc (nm), *g_x = tg_alloc (nm);
  tg_fill (d_x, nm, 4, -1, 1);

  double_add (n, m, k.x, k.y);
  double *x0 = tg_dup (k.x, nm), *y_final = tg_dup (k.y, nm);
  double *d_y = tg_dup (k.c, nm), *pre = tg_dup (d_x, nm);

  double_add_grad (n, m, k.x, k.y, d_x, d_y);

  CHECK_SAME (k.x, x0, nm * sizeof (double));
  CHECK_SAME (k.y, y_final, nm * sizeof (double));
  for (int i = 0; i < nm; i++)
    CHECK_NEAR_AT (d_y[i], 2 * k.c[i], 1e-15, 0, i);
  tg_sub (g_x, d_x, pre, nm);
  tg_fd_check ("x", k.x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("y_entry", k.y_entry, nm, loss, &k, d_y, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* A kernel whose body is a call, at top level, to another differentiable
   kernel of the same translation unit with an offset pointer argument,
   n = 7 at run time, x of 2n elements:
     g (n, x, y): y[i] = x[i] sin (x[i]);
     f (n, x, y): g (n, x + n, y).
   d_x[n + i] += d_y[i] (sin x[n+i] + x[n+i] cos x[n+i]); d_x[0..n), not
   read, keeps its pre-fill exactly.  TG_GRADCHECK checks every d_x against
   central differences, accumulation into d_x, and that x, y, d_y are
   untouched; then the unread half is checked exactly.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
g (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * sin (x[i]);
}

__attribute__ ((differentiable))
void
f (int n, const double *x, double *y)
{
  g (n, x + n, y);
}

int
main (void)
{
  int n = 7, nx = 2 * n;
  double *x = tg_alloc (nx), *y = tg_alloc (n);
  tg_fill (x, nx, 1, -2, 2);
  TG_GRADCHECK (f, &n, x, y);

  /* The unread half keeps its pre-fill exactly.  */
  double *d_x = tg_alloc (nx), *d_y = tg_alloc (n);
  for (int i = 0; i < nx; i++)
    d_x[i] = 0.5;
  for (int i = 0; i < n; i++)
    d_y[i] = 1;
  f (n, x, y);
  f_grad (n, x, y, d_x, d_y);
  for (int i = 0; i < n; i++)
    CHECK_AT (d_x[i] == 0.5, i);
  return tg_exit ();
}

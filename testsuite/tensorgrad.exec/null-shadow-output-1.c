/* { dg-do run } */
/* A NULL output shadow means its adjoint is zero: y[i] = sin (x[i]),
   z[i] = x[i] * x[i].  f_grad (..., d_x, NULL, d_z) gives d_x += 2 x d_z
   only; f_grad (..., d_x, d_y, NULL) gives d_x += cos (x) d_y only; both
   NULL give nothing.  Checks d_x each time against central differences of
   the loss over the remaining output, accumulation into a pre-filled d_x,
   and that x, y, z and the non-NULL output shadow are untouched.  Kept with
   its own central differences, not tg_gradcheck's: it checks what
   TG_GRADCHECK_NULL relies on, that a NULL output shadow is a zero
   adjoint.  */

#include <math.h>
#include <stddef.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
sin_sq (int n, const double *x, double *y, double *z)
{
  for (int i = 0; i < n; i++)
    {
      y[i] = sin (x[i]);
      z[i] = x[i] * x[i];
    }
}

struct ctx
{
  int n;
  double *x, *y, *z, *cy, *cz;
};

/* The loss over the outputs whose weights are not NULL.  */
static double
loss (void *v)
{
  struct ctx *k = v;
  double l = 0;
  sin_sq (k->n, k->x, k->y, k->z);
  if (k->cy)
    l += tg_dot (k->cy, k->y, k->n);
  if (k->cz)
    l += tg_dot (k->cz, k->z, k->n);
  return l;
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *z = tg_alloc (n);
  double *cy = tg_alloc (n), *cz = tg_alloc (n), *d_x = tg_alloc (n);
  double *g = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (cz, n, 3, -1, 1);
  tg_fill (d_x, n, 4, -1, 1);

  sin_sq (n, x, y, z);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *z0 = tg_dup (z, n);
  double *d_y = tg_dup (cy, n), *d_z = tg_dup (cz, n);
  double *pre = tg_dup (d_x, n);
  struct ctx k = { n, x, y, z, NULL, cz };

  /* d_y NULL: only z contributes.  */
  sin_sq_grad (n, x, y, z, d_x, NULL, d_z);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (d_z, cz, n * sizeof *d_z);
  tg_sub (g, d_x, pre, n);
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* d_z NULL: only y contributes.  */
  sin_sq (n, x, y, z);
  memcpy (d_x, pre, n * sizeof *d_x);
  sin_sq_grad (n, x, y, z, d_x, d_y, NULL);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  tg_sub (g, d_x, pre, n);
  k.cy = cy;
  k.cz = NULL;
  tg_fd_check ("x", x, n, loss, &k, g, TG_RTOL, TG_ATOL);

  /* Both NULL: d_x unchanged.  */
  sin_sq (n, x, y, z);
  memcpy (d_x, pre, n * sizeof *d_x);
  sin_sq_grad (n, x, y, z, d_x, NULL, NULL);
  CHECK_SAME (d_x, pre, n * sizeof *d_x);
  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  return tg_exit ();
}

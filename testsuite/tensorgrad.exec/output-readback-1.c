/* { dg-do run } */
/* An output written by one nest and read back by a later reduction nest
   that writes a second output, n x m = 5 x 3 at run time:
     y[i*m+j] = x[i*m+j] * w[j];   z[i] = sum_j y[i*m+j]^2.
   y is an output (the kernel reads only values it wrote), so d_y holds
   the incoming adjoint and stays unchanged; the loss sees y directly and
   through z:
     d_x[i*m+j] += (d_y[i*m+j] + 2 d_z[i] y[i*m+j]) w[j];
     d_w[j] += sum_i (d_y[i*m+j] + 2 d_z[i] y[i*m+j]) x[i*m+j].
   Checks every d_x and d_w against central differences, accumulation
   into pre-filled shadows, and that x, w, y, z, d_y, d_z are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
readback2 (int n, int m, const double *x, const double *w, double *y,
	   double *z)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = x[i * m + j] * w[j];
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
	s += y[i * m + j] * y[i * m + j];
      z[i] = s;
    }
}

struct ctx
{
  int n, m;
  double *x, *w, *y, *z, *cy, *cz;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  readback2 (k->n, k->m, k->x, k->w, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n * k->m) + tg_dot (k->cz, k->z, k->n);
}

int
main (void)
{
  int n = 5, m = 3, nm = n * m;
  double *x = tg_alloc (nm), *w = tg_alloc (m), *y = tg_alloc (nm);
  double *z = tg_alloc (n), *cy = tg_alloc (nm), *cz = tg_alloc (n);
  double *d_x = tg_alloc (nm), *d_w = tg_alloc (m);
  tg_fill (x, nm, 1, -2, 2);
  tg_fill (w, m, 2, -2, 2);
  tg_fill (cy, nm, 3, -1, 1);
  tg_fill (cz, n, 4, -1, 1);
  tg_fill (d_x, nm, 5, -1, 1);
  tg_fill (d_w, m, 6, -1, 1);

  readback2 (n, m, x, w, y, z);
  double *x0 = tg_dup (x, nm), *w0 = tg_dup (w, m);
  double *y0 = tg_dup (y, nm), *z0 = tg_dup (z, n);
  double *d_y = tg_dup (cy, nm), *d_z = tg_dup (cz, n);
  double *pre_x = tg_dup (d_x, nm), *pre_w = tg_dup (d_w, m);

  readback2_grad (n, m, x, w, y, z, d_x, d_w, d_y, d_z);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (w, w0, m * sizeof *w);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (z, z0, n * sizeof *z);
  CHECK_SAME (d_y, cy, nm * sizeof *d_y);
  CHECK_SAME (d_z, cz, n * sizeof *d_z);
  double *g_x = tg_alloc (nm), *g_w = tg_alloc (m);
  tg_sub (g_x, d_x, pre_x, nm);
  tg_sub (g_w, d_w, pre_w, m);
  struct ctx k = { n, m, x, w, y, z, cy, cz };
  tg_fd_check ("x", x, nm, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, m, loss, &k, g_w, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* A scalar reduced over a 2-D nest (mu, summed over i and j) and used by
   later nests, next to a fixed 2-D local, a VLA and an output read back
   (written by a tester as new code; the sum over two loops was once
   mistaken for a value to store per row).  Checks d_x and d_g against
   central differences with pre-filled shadows, and that inputs, outputs
   and output shadows are unchanged.  */
#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
center_scale (int n, int m, const double *x, const double *g, double *y,
              double *z)
{
  double t[8][8];
  double u[n];
  double mu = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      {
        t[i][j] = x[i * m + j] * g[j];
        mu += t[i][j];
      }
  mu = mu / (n * m);
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int j = 0; j < m; j++)
        s += (t[i][j] - mu) * (t[i][j] - mu);
      u[i] = sqrt (s + 1e-3);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = (t[i][j] - mu) / u[i];
  for (int j = 0; j < m; j++)
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += y[i * m + j] * y[i * m + j] * u[i];
      z[j] = s;
    }
}

struct ctx { int n, m; double *x, *g, *y, *z, *cy, *cz; };

static double
loss (void *v)
{
  struct ctx *k = v;
  center_scale (k->n, k->m, k->x, k->g, k->y, k->z);
  return tg_dot (k->cy, k->y, k->n * k->m) + tg_dot (k->cz, k->z, k->m);
}

int
main (void)
{
  int n = 5, m = 7, nx = n * m;
  double *x = tg_alloc (nx), *g = tg_alloc (m), *y = tg_alloc (nx),
         *z = tg_alloc (m), *cy = tg_alloc (nx), *cz = tg_alloc (m);
  tg_fill (x, nx, 1, -2, 2);
  tg_fill (g, m, 2, 0.5, 1.5);
  tg_fill (cy, nx, 3, -1, 1);
  tg_fill (cz, m, 4, -1, 1);
  center_scale (n, m, x, g, y, z);
  double *x0 = tg_dup (x, nx), *g0 = tg_dup (g, m), *y0 = tg_dup (y, nx);
  double *z0 = tg_dup (z, m);
  double *d_x = tg_alloc (nx), *d_g = tg_alloc (m);
  tg_fill (d_x, nx, 5, -1, 1);
  tg_fill (d_g, m, 6, -1, 1);
  double *pre_x = tg_dup (d_x, nx), *pre_g = tg_dup (d_g, m);
  double *d_y = tg_dup (cy, nx), *d_z = tg_dup (cz, m);
  center_scale_grad (n, m, x, g, y, z, d_x, d_g, d_y, d_z);
  CHECK_SAME (x, x0, nx * sizeof *x);
  CHECK_SAME (g, g0, m * sizeof *g);
  CHECK_SAME (y, y0, nx * sizeof *y);
  CHECK_SAME (z, z0, m * sizeof *z);
  CHECK_SAME (d_y, cy, nx * sizeof *d_y);
  CHECK_SAME (d_z, cz, m * sizeof *d_z);
  tg_sub (d_x, d_x, pre_x, nx);
  tg_sub (d_g, d_g, pre_g, m);
  struct ctx k = { n, m, x, g, y, z, cy, cz };
  tg_fd_check ("x", x, nx, loss, &k, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("g", g, m, loss, &k, d_g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

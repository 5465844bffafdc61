/* { dg-do run } */
/* The double math library, one output per function, in one 1-D loop:
   exp log sqrt log1p of x in [0.5, 2] and tanh sin cos erf expm1 of u in
   [-1.5, 1.5].  d_x and d_u each sum the partials of several outputs.
   Checks every d_x[i] and d_u[i] against central differences of
   L = sum_k sum_i c_k[i] y_k[i], accumulation into pre-filled d_x and d_u,
   and that x, u, every y_k and every d_y_k are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mathd (int n, const double *x, const double *u, double *ye, double *yl,
       double *yq, double *yp, double *yt, double *ys, double *yc,
       double *yr, double *ym)
{
  for (int i = 0; i < n; i++)
    {
      ye[i] = exp (x[i]);
      yl[i] = log (x[i]);
      yq[i] = sqrt (x[i]);
      yp[i] = log1p (x[i]);
      yt[i] = tanh (u[i]);
      ys[i] = sin (u[i]);
      yc[i] = cos (u[i]);
      yr[i] = erf (u[i]);
      ym[i] = expm1 (u[i]);
    }
}

#define K 9

struct ctx
{
  int n;
  double *x, *u, *y[K], *c[K];
};

static void
fwd (struct ctx *k)
{
  mathd (k->n, k->x, k->u, k->y[0], k->y[1], k->y[2], k->y[3], k->y[4],
	 k->y[5], k->y[6], k->y[7], k->y[8]);
}

static double
loss (void *p)
{
  struct ctx *k = p;
  double l = 0;
  fwd (k);
  for (int j = 0; j < K; j++)
    l += tg_dot (k->c[j], k->y[j], k->n);
  return l;
}

int
main (void)
{
  int n = 5;
  struct ctx k;
  double *y0[K], *d_y[K];
  k.n = n;
  k.x = tg_alloc (n);
  k.u = tg_alloc (n);
  tg_fill (k.x, n, 1, 0.5, 2.0);
  tg_fill (k.u, n, 2, -1.5, 1.5);
  for (int j = 0; j < K; j++)
    {
      k.y[j] = tg_alloc (n);
      k.c[j] = tg_alloc (n);
      tg_fill (k.c[j], n, 10 + j, -1, 1);
    }
  double *d_x = tg_alloc (n), *d_u = tg_alloc (n);
  tg_fill (d_x, n, 3, -1, 1);
  tg_fill (d_u, n, 4, -1, 1);

  fwd (&k);
  double *x0 = tg_dup (k.x, n), *u0 = tg_dup (k.u, n);
  double *pre_x = tg_dup (d_x, n), *pre_u = tg_dup (d_u, n);
  for (int j = 0; j < K; j++)
    {
      y0[j] = tg_dup (k.y[j], n);
      d_y[j] = tg_dup (k.c[j], n);
    }

  mathd_grad (n, k.x, k.u, k.y[0], k.y[1], k.y[2], k.y[3], k.y[4], k.y[5],
	      k.y[6], k.y[7], k.y[8], d_x, d_u, d_y[0], d_y[1], d_y[2],
	      d_y[3], d_y[4], d_y[5], d_y[6], d_y[7], d_y[8]);

  CHECK_SAME (k.x, x0, n * sizeof (double));
  CHECK_SAME (k.u, u0, n * sizeof (double));
  for (int j = 0; j < K; j++)
    {
      CHECK_AT (memcmp (k.y[j], y0[j], n * sizeof (double)) == 0, j);
      CHECK_AT (memcmp (d_y[j], k.c[j], n * sizeof (double)) == 0, j);
    }
  double *g_x = tg_alloc (n), *g_u = tg_alloc (n);
  tg_sub (g_x, d_x, pre_x, n);
  tg_sub (g_u, d_u, pre_u, n);
  tg_fd_check ("x", k.x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("u", k.u, n, loss, &k, g_u, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

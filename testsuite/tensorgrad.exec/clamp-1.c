/* { dg-do run } */
/* Clamp with by-value double bounds, nested ternaries, 1-D:
   y[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]).
   d_x[i] += d_y[i] where lo <= x[i] <= hi; d_lo (double *) += sum of d_y
   where x < lo; d_hi += sum of d_y where x > hi.  With x at least 1e-3
   from lo and hi checks d_x, d_lo, d_hi against central differences,
   accumulation into pre-filled shadows, and that x, y, d_y are untouched;
   then, exactly, x == lo and x == hi select x (the compare is false), so
   the adjoint goes to d_x.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
clamp (int n, double lo, double hi, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
}

struct ctx
{
  int n;
  double lo, hi;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  clamp (k->n, k->lo, k->hi, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  int n = 15;
  struct ctx k;
  k.n = n;
  k.lo = -0.7;
  k.hi = 0.9;
  k.x = tg_alloc (n);
  k.y = tg_alloc (n);
  k.c = tg_alloc (n);
  tg_fill_away (k.x, n, 1, -2, 2, k.lo, 1e-3);
  for (int i = 0; i < n; i++)
    if (fabs (k.x[i] - k.hi) < 1e-3)
      k.x[i] += 0.1;
  tg_fill (k.c, n, 2, -1, 1);
  double *d_x = tg_alloc (n), *g_x = tg_alloc (n);
  tg_fill (d_x, n, 3, -1, 1);
  double d_lo = 0.25, d_hi = -0.5, g_lo, g_hi;
  int nlo = 0, nhi = 0;

  clamp (n, k.lo, k.hi, k.x, k.y);
  for (int i = 0; i < n; i++)
    {
      nlo += k.x[i] < k.lo;
      nhi += k.x[i] > k.hi;
    }
  CHECK (nlo > 0 && nhi > 0 && nlo + nhi < n);
  double *x0 = tg_dup (k.x, n), *y0 = tg_dup (k.y, n);
  double *d_y = tg_dup (k.c, n), *pre = tg_dup (d_x, n);

  clamp_grad (n, k.lo, k.hi, k.x, k.y, &d_lo, &d_hi, d_x, d_y);

  CHECK_SAME (k.x, x0, n * sizeof (double));
  CHECK_SAME (k.y, y0, n * sizeof (double));
  CHECK_SAME (d_y, k.c, n * sizeof (double));
  tg_sub (g_x, d_x, pre, n);
  g_lo = d_lo - 0.25;
  g_hi = d_hi + 0.5;
  tg_fd_check ("x", k.x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("lo", &k.lo, 1, loss, &k, &g_lo, TG_RTOL, TG_ATOL);
  tg_fd_check ("hi", &k.hi, 1, loss, &k, &g_hi, TG_RTOL, TG_ATOL);

  /* On the bounds the comparisons are false: x itself is chosen.  */
  k.x[0] = k.lo;
  k.x[1] = k.hi;
  clamp (n, k.lo, k.hi, k.x, k.y);
  memcpy (d_x, pre, n * sizeof *d_x);
  d_lo = d_hi = 0;
  clamp_grad (n, k.lo, k.hi, k.x, k.y, &d_lo, &d_hi, d_x, d_y);
  CHECK (d_x[0] == pre[0] + k.c[0]);
  CHECK (d_x[1] == pre[1] + k.c[1]);
  double elo = 0, ehi = 0;
  for (int i = 2; i < n; i++)
    {
      elo += k.x[i] < k.lo ? k.c[i] : 0;
      ehi += k.x[i] > k.hi ? k.c[i] : 0;
    }
  CHECK_NEAR (d_lo, elo, 1e-12, 1e-14);
  CHECK_NEAR (d_hi, ehi, 1e-12, 1e-14);
  return tg_exit ();
}

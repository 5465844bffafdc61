/* { dg-do run } */
/* Two scalar reductions carried across nests, with straight-line scalar
   statements between them: standardising a vector, n = 7 at run time,
   eps a by-value double (gets d_eps):
     mu = (sum_i x[i]) / n;  var = (sum_i (x[i] - mu)^2) / n;
     r = 1 / sqrt (var + eps);  y[i] = (x[i] - mu) r.
   With xh = (x - mu) r:
     d_x[j] += r (d_y[j] - mean (d_y) - xh[j] mean (d_y xh));
     *d_eps += -r^3 / 2 sum_i d_y[i] (x[i] - mu).
   Checks every d_x and d_eps against central differences, accumulation
   into pre-filled shadows, and that x, y, d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
standardize (int n, double eps, const double *x, double *y)
{
  double mu = 0;
  for (int i = 0; i < n; i++)
    mu += x[i];
  mu = mu / n;
  double var = 0;
  for (int i = 0; i < n; i++)
    var += (x[i] - mu) * (x[i] - mu);
  var = var / n;
  double r = 1 / sqrt (var + eps);
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - mu) * r;
}

struct ctx
{
  int n;
  double eps;
  double *x, *y, *cy;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  standardize (k->n, k->eps, k->x, k->y);
  return tg_dot (k->cy, k->y, k->n);
}

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n), *cy = tg_alloc (n);
  double *d_x = tg_alloc (n);
  double eps = 0.25, d_eps = 0.75;
  tg_fill (x, n, 1, -2, 2);
  tg_fill (cy, n, 2, -1, 1);
  tg_fill (d_x, n, 3, -1, 1);

  standardize (n, eps, x, y);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n), *d_y = tg_dup (cy, n);
  double *pre_x = tg_dup (d_x, n);

  standardize_grad (n, eps, x, y, &d_eps, d_x, d_y);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (y, y0, n * sizeof *y);
  CHECK_SAME (d_y, cy, n * sizeof *d_y);
  double *g_x = tg_alloc (n), g_eps = d_eps - 0.75;
  tg_sub (g_x, d_x, pre_x, n);
  struct ctx k = { n, eps, x, y, cy };
  tg_fd_check ("x", x, n, loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("eps", &k.eps, 1, loss, &k, &g_eps, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* A helper kernel called inside the loop of a reduction, in a nest whose
   outer loop is the output's column: its value is substituted where the
   sum uses it, with the counters of the sum's own stage (before, the
   lifter substituted it in a stage of its own and the sum read counters
   no loop bound: an internal error in a checking build).

     g (a) = a tanh (a)
     t[i][j] = b[j] + sum_p g (x[i][p]) w[j][p]
     d_x[i][p] += sum_j d_t[i][j] w[j][p] g'(x[i][p]),
       g'(a) = tanh (a) + a (1 - tanh (a)^2)
     d_w[j][p] += sum_i d_t[i][j] g (x[i][p]);   d_b[j] += sum_i d_t[i][j]

   Checks d_x, d_w and d_b against central differences, accumulation into
   pre-filled shadows, and that x, w, b, t and d_t are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static double
g (double a)
{
  return a * tanh (a);
}

__attribute__ ((differentiable))
void
layer (int n, int m, int k, const double *x, const double *w,
       const double *b, double *t)
{
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      {
	double s = b[j];
	for (int p = 0; p < k; p++)
	  s += g (x[i * k + p]) * w[j * k + p];
	t[i * m + j] = s;
      }
}

struct ctx
{
  int n, m, k;
  double *x, *w, *b, *t, *c;
};

static double
loss (void *v)
{
  struct ctx *c = v;
  layer (c->n, c->m, c->k, c->x, c->w, c->b, c->t);
  return tg_dot (c->c, c->t, c->n * c->m);
}

int
main (void)
{
  int n = 3, m = 4, k = 5;
  double *x = tg_alloc (n * k), *w = tg_alloc (m * k), *b = tg_alloc (m);
  double *t = tg_alloc (n * m), *c = tg_alloc (n * m);
  double *d_x = tg_alloc (n * k), *d_w = tg_alloc (m * k), *d_b = tg_alloc (m);
  tg_fill (x, n * k, 1, -1.5, 1.5);
  tg_fill (w, m * k, 2, -1, 1);
  tg_fill (b, m, 3, -1, 1);
  tg_fill (c, n * m, 4, -1, 1);
  tg_fill (d_x, n * k, 5, -1, 1);
  tg_fill (d_w, m * k, 6, -1, 1);
  tg_fill (d_b, m, 7, -1, 1);
  layer (n, m, k, x, w, b, t);
  double *x0 = tg_dup (x, n * k), *w0 = tg_dup (w, m * k);
  double *b0 = tg_dup (b, m), *t0 = tg_dup (t, n * m);
  double *d_t = tg_dup (c, n * m);
  double *px = tg_dup (d_x, n * k), *pw = tg_dup (d_w, m * k);
  double *pb = tg_dup (d_b, m);
  layer_grad (n, m, k, x, w, b, t, d_x, d_w, d_b, d_t);
  CHECK_SAME (x, x0, n * k * sizeof (double));
  CHECK_SAME (w, w0, m * k * sizeof (double));
  CHECK_SAME (b, b0, m * sizeof (double));
  CHECK_SAME (t, t0, n * m * sizeof (double));
  CHECK_SAME (d_t, c, n * m * sizeof (double));
  tg_sub (d_x, d_x, px, n * k);
  tg_sub (d_w, d_w, pw, m * k);
  tg_sub (d_b, d_b, pb, m);
  struct ctx cx = { n, m, k, x, w, b, t, c };
  tg_fd_check ("x", x, n * k, loss, &cx, d_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, m * k, loss, &cx, d_w, TG_RTOL, TG_ATOL);
  tg_fd_check ("b", b, m, loss, &cx, d_b, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

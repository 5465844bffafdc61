/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* Cross-entropy over a row softmax with integer labels, returning the
   mean loss, n = 5 rows of c = 4 classes at run time:
   loss = (1/n) sum_i (mx_i + log sum_j exp (x[i*c+j] - mx_i)
			- x[i*c + label[i]]),
   the label read as a gather through const int *label, which gets no
   shadow: void xent_grad (int n, int c, const double *x,
   const int *label, double *d_x, double d_return).
   d_x[i*c+j] += d_return (softmax_ij - [j == label[i]]) / n.  Checks
   every d_x against central differences with d_return = 1.5,
   accumulation into a pre-filled d_x, and that x and label are
   untouched.  Checked by hand: the kernel gets no descriptor (its dump says
   that the extent of x, read through the labels, cannot be told).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
xent (int n, int c, const double *x, const int *label)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    {
      double mx = x[i * c];
      for (int j = 1; j < c; j++)
	mx = fmax (mx, x[i * c + j]);
      double s = 0;
      for (int j = 0; j < c; j++)
	s += exp (x[i * c + j] - mx);
      l += mx + log (s) - x[i * c + label[i]];
    }
  return l / n;
}

struct ctx
{
  int n, c;
  int *label;
  double *x, c_ret;
};

static double
loss (void *v)
{
  struct ctx *cx = v;
  return cx->c_ret * xent (cx->n, cx->c, cx->x, cx->label);
}

int
main (void)
{
  int n = 5, c = 4;
  int n_x = n * c;
  int label[] = { 2, 0, 3, 3, 1 };
  double c_ret = 1.5;
  double *x = tg_alloc (n_x);
  double *d_x = tg_alloc (n_x);
  tg_fill (x, n_x, 1, -2, 2);
  tg_fill (d_x, n_x, 2, -1, 1);

  xent (n, c, x, label);
  double *x0 = tg_dup (x, n_x);
  double *pre_x = tg_dup (d_x, n_x);

  xent_grad (n, c, x, label, d_x, c_ret);

  CHECK_SAME (x, x0, n_x * sizeof (double));
  double *g_x = tg_alloc (n_x);
  tg_sub (g_x, d_x, pre_x, n_x);
  struct ctx cx = { n, c, label, x, c_ret };
  tg_fd_check ("x", x, n_x, loss, &cx, g_x, TG_RTOL, TG_ATOL);
  int label0[] = { 2, 0, 3, 3, 1 };
  CHECK_SAME (label, label0, sizeof label0);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "no descriptor: the extent of 'x' cannot be told" } } */

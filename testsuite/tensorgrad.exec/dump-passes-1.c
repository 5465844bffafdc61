/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The dump shows the program as lifted and after each pass of
   lib/pipeline.c that changed it, headed by the pass's name, then the
   final gradient.  Three nests: exponentials into a local array, their
   sum, the normalized values (a softmax of one row):

     t[i] = exp (x[i]);  s = sum_i t[i];  y[i] = t[i] / s
     d_x[i] += y[i] (d_y[i] - sum_k y[k] d_y[k])

   Checks d_x against central differences, accumulation into a pre-filled
   d_x, and that x, y and d_y are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
three (int n, const double *x, double *y)
{
  double t[16];
  for (int i = 0; i < n; i++)
    t[i] = exp (x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] / s;
}

struct ctx
{
  int n;
  double *x, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  three (k->n, k->x, k->y);
  return tg_dot (k->c, k->y, k->n);
}

int
main (void)
{
  enum { N = 9 };
  double *x = tg_alloc (N), *y = tg_alloc (N), *c = tg_alloc (N);
  double *d_x = tg_alloc (N);
  tg_fill (x, N, 1, -2, 2);
  tg_fill (c, N, 2, -1, 1);
  tg_fill (d_x, N, 3, -1, 1);
  three (N, x, y);
  double *x0 = tg_dup (x, N), *y0 = tg_dup (y, N);
  double *d_y = tg_dup (c, N), *pre = tg_dup (d_x, N);
  three_grad (N, x, y, d_x, d_y);
  CHECK_SAME (x, x0, N * sizeof (double));
  CHECK_SAME (y, y0, N * sizeof (double));
  CHECK_SAME (d_y, c, N * sizeof (double));
  double *g = tg_alloc (N);
  tg_sub (g, d_x, pre, N);
  struct ctx k = { N, x, y, c };
  tg_fd_check ("x", x, N, loss, &k, g, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times ";; tensorgrad: lifted program\n" 1 } } */
/* { dg-final { scan-tensorgrad-dump-times ";; tensorgrad: backward program\n" 1 } } */
/* As lifted, the roles are not decided; the pass 'roles' decides them.  */
/* { dg-final { scan-tensorgrad-dump ";; tensorgrad: lifted program\nprogram three \[^\n\]*\n  tensor t: double, unused" } } */
/* { dg-final { scan-tensorgrad-after roles "tensor x: double, input" } } */
/* { dg-final { scan-tensorgrad-after roles "stage 2: for i < n:\n    y\\\[i\\\] = t\\\[i\\\] / s\\\[0\\\];" } } */
/* { dg-final { scan-tensorgrad-dump ";; tensorgrad: after pass 'ad': backward program\nprogram three_grad " } } */
/* { dg-final { scan-tensorgrad-dump-not "after pass 'fuse'" } } */
/* The notes of a pass come under its heading, once.  */
/* { dg-final { scan-tensorgrad-after ad "reuse: t\\\[i\\\] / s\\\[0\\\] is y\\\[i\\\]" } } */
/* { dg-final { scan-tensorgrad-dump-times "reuse: t\\\[i\\\] / s\\\[0\\\] is y\\\[i\\\]" 1 } } */

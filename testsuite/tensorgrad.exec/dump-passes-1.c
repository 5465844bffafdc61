/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The dump shows the program as lifted and after each pass of
   lib/passes/pipeline.c that changed it, headed by the pass's name, then the
   final gradient.  Three nests: exponentials into a local array, their
   sum, the normalized values (a softmax of one row):

     t[i] = exp (x[i]);  s = sum_i t[i];  y[i] = t[i] / s
     d_x[i] += y[i] (d_y[i] - sum_k y[k] d_y[k])

   TG_GRADCHECK checks d_x against central differences, accumulation into
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

int
main (void)
{
  int n = 9;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (three, &n, x, y);
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

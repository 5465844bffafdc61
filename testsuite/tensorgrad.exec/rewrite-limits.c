/* { dg-do run } */
/* How to rewrite (README): inline assembly, setjmp and a computed goto.
   The rewrite of dispatch in tensorgrad.err/rewrite-limits.c: a switch
   on the operation (the other two kernels there have none).  Checked: y
   equals the original's (compiled here as plain C) for both
   operations, and the gradient through the descriptor for both.  */

#include "tg-test.h"

#define differentiable unused
#define dispatch dispatch_orig
#include "tensorgrad.err/rewrite-limits.c"
#undef dispatch
#undef differentiable

__attribute__ ((differentiable))
void
dispatch (int n, int op, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    switch (op)
      {
      case 0:
        y[i] = 2 * x[i];
        break;
      default:
        y[i] = x[i] * x[i];
        break;
      }
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n), *y0 = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  for (int op = 0; op < 2; op++)
    {
      dispatch_orig (n, op, x, y0);
      dispatch (n, op, x, y);
      CHECK_SAME (y, y0, n * sizeof *y);
      TG_GRADCHECK (dispatch, &n, &op, x, y);
    }
  return tg_exit ();
}

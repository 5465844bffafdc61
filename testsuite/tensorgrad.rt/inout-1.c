/* { dg-do run } */
/* tg_gradcheck follows the ABI for an in-out parameter, BLAS axpy
   y[i] = a x[i] + y[i]: the forward overwrites y, so every evaluation
   starts from the entry y; d_y holds the adjoint of the final y on entry
   and that of the entry y on return (here the same); *d_a += sum d_y x,
   d_x += a d_y.  Checks status 0 with the in-out shadow compared against
   differences in the entry values of y, and that a backward that treats
   y as an output (sets d_y to 0, the adjoint of a value the forward
   overwrote) fails on d_y alone, at every element.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
axpy (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void
axpy_grad (int n, double a, const double *x, double *y, double *d_a,
	   double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      *d_a += d_y[i] * x[i];
      d_x[i] += a * d_y[i];
    }
}

static void
axpy_grad_bad (int n, double a, const double *x, double *y, double *d_a,
	       double *d_x, double *d_y)
{
  axpy_grad (n, a, x, y, d_a, d_x, d_y);
  for (int i = 0; i < n; i++)
    d_y[i] = 0;
}

static void
axpy_fwd (void *const *a, void *ret)
{
  (void) ret;
  axpy (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_PTR (double, a, 2),
	TG_PTR (double, a, 3));
}

#define AXPY_ARGS(fn)                                                         \
  fn (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_PTR (double, a, 2),      \
      TG_PTR (double, a, 3), TG_PTR (double, s, 0), TG_PTR (double, s, 1),   \
      TG_PTR (double, s, 2))

static void
axpy_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  AXPY_ARGS (axpy_grad);
}

static void
axpy_bwd_bad (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  AXPY_ARGS (axpy_grad_bad);
}

static void
axpy_ext (void *const *a, long *count)
{
  count[2] = count[3] = TG_ARG (int, a, 0);
}

static const tg_param axpy_params[] = {
  { "n", TG_INT, TG_IN },
  { "a", TG_DOUBLE, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_INOUT },
};
static const tg_kernel axpy_kernel
  = TG_KERNEL ("axpy", axpy_params, TG_VOID, axpy_fwd, axpy_bwd, axpy_ext);
static const tg_kernel axpy_bad = TG_KERNEL ("axpy_bad", axpy_params, TG_VOID,
					     axpy_fwd, axpy_bwd_bad, axpy_ext);

int
main (void)
{
  int n = 8;
  double a = 0.625;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_fill (y, n, 2, -2, 2);
  double *y0 = tg_dup (y, n);
  tg_report r;

  int st = tg_gradcheck (&axpy_kernel, TG_ARGS (&n, &a, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.nshadows == 3);
  CHECK (r.shadows[2].role == TG_INOUT && r.shadows[2].count == n);
  for (int s = 0; s < 3; s++)
    CHECK_AT (r.shadows[s].nfail == 0, s);
  /* d_y = c exactly and the numeric value is c up to the rounding of
     a x + y.  */
  CHECK (r.shadows[2].max_rel < 1e-9);
  CHECK (r.abi_errors == 0);
  CHECK_SAME (y, y0, n * sizeof (double));
  tg_report_free (&r);

  st = tg_gradcheck (&axpy_bad, TG_ARGS (&n, &a, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].nfail == 0 && r.shadows[1].nfail == 0);
  CHECK (r.shadows[2].nfail == n);
  CHECK (r.shadows[2].worst_analytic == 0);
  tg_report_free (&r);
  return tg_exit ();
}

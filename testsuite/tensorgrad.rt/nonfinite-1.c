/* { dg-do run } */
/* tg_gradcheck fails a non-finite gradient even where the difference is
   small.  y[i] = x[i]^2 with a backward d_x += 2 x d_y * (x / x): NaN at
   x = 0 exactly (x[4] here), right elsewhere.  Checks status 1, one
   failing element counted as non-finite, reported as the worst at index
   4 with a NaN analytic and a finite numeric value, and that the largest
   absolute error ignores it (it is that of a finite element).  Also a
   forward that overflows (exp of 1000) gives a non-finite numeric value:
   every element fails as non-finite.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static double shift;

static void
sq (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] + exp (shift);
}

static void
sq_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += 2 * x[i] * d_y[i] * (x[i] / x[i]);
}

static void
sq_fwd (void *const *a, void *ret)
{
  (void) ret;
  sq (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2));
}

static void
sq_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  sq_grad (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2),
	   TG_PTR (double, s, 0), TG_PTR (double, s, 1));
}

static void
sq_ext (void *const *a, long *count)
{
  count[1] = count[2] = TG_ARG (int, a, 0);
}

static const tg_param sq_params[] = {
  { "n", TG_INT, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel sq_kernel
  = TG_KERNEL ("sq", sq_params, TG_VOID, sq_fwd, sq_bwd, sq_ext);

int
main (void)
{
  int n = 7;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0, 0.1);
  x[4] = 0;
  tg_report r;

  int st = tg_gradcheck (&sq_kernel, TG_ARGS (&n, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].count == n);
  CHECK (r.shadows[0].nfail == 1);
  CHECK (r.shadows[0].nonfinite == 1);
  CHECK (r.shadows[0].worst_at == 4);
  CHECK (isnan (r.shadows[0].worst_analytic));
  CHECK (isfinite (r.shadows[0].worst_numeric));
  CHECK (fabs (r.shadows[0].worst_numeric) < 1e-6);
  CHECK (r.shadows[0].max_abs_at != 4 && isfinite (r.shadows[0].max_abs));
  CHECK (r.shadows[0].max_abs < 1e-8);
  tg_report_free (&r);

  x[4] = 0.5;
  shift = 1000; /* exp overflows: y and the loss are infinite */
  st = tg_gradcheck (&sq_kernel, TG_ARGS (&n, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].nfail == n && r.shadows[0].nonfinite == n);
  CHECK (r.shadows[0].worst_at == 0);
  CHECK (!isfinite (r.shadows[0].worst_numeric));
  tg_report_free (&r);
  return tg_exit ();
}

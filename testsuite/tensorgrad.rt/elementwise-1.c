/* { dg-do run } */
/* tg_gradcheck passes a correct hand-written elementwise pair,
   y[i] = x[i] * sin (x[i]), d_x[i] += d_y[i] * (sin (x[i]) + x[i] cos (x[i])).
   Checks the status, every report field (one input shadow with all n
   elements compared and none failing, tiny errors since the loss sums
   are exact; the output shadow not compared; no ABI error; the default
   double tolerances and step) and that the caller's arrays are left as
   they were.  */

#include <float.h>
#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
f (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * sin (x[i]);
}

static void
f_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += d_y[i] * (sin (x[i]) + x[i] * cos (x[i]));
}

static void
f_fwd (void *const *a, void *ret)
{
  (void) ret;
  f (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2));
}

static void
f_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  f_grad (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2),
	  TG_PTR (double, s, 0), TG_PTR (double, s, 1));
}

static void
f_ext (void *const *a, long *count)
{
  count[1] = count[2] = TG_ARG (int, a, 0);
}

static const tg_param f_params[] = {
  { "n", TG_INT, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel f_kernel
  = TG_KERNEL ("f", f_params, TG_VOID, f_fwd, f_bwd, f_ext);

int
main (void)
{
  int n = 13;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -3, 3);
  tg_fill (y, n, 2, -1, 1);
  double *x0 = tg_dup (x, n), *y0 = tg_dup (y, n);
  tg_report r;

  int st = tg_gradcheck (&f_kernel, TG_ARGS (&n, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.status == 0);
  CHECK (r.kernel && strcmp (r.kernel, "f") == 0);
  CHECK (!r.is_float);
  CHECK (r.rtol == 1e-5 && r.atol == 1e-6);
  CHECK_NEAR (r.step, cbrt (DBL_EPSILON), 1e-15, 0);
  CHECK (r.abi_errors == 0 && r.message[0] == 0);
  CHECK (r.nshadows == 2);
  CHECK (strcmp (r.shadows[0].name, "x") == 0 && r.shadows[0].param == 1);
  CHECK (r.shadows[0].role == TG_IN);
  CHECK (r.shadows[0].count == n);
  CHECK (r.shadows[0].nfail == 0 && r.shadows[0].nonfinite == 0);
  CHECK (r.shadows[0].worst_at == -1);
  CHECK (r.shadows[0].max_abs_at >= 0 && r.shadows[0].max_abs_at < n);
  CHECK (r.shadows[0].max_rel_at >= 0 && r.shadows[0].max_rel_at < n);
  /* Central differences with h ~ 6e-6 and exact sums: truncation error
     about h^2 |f'''| / 6, far below the tolerance.  */
  CHECK (r.shadows[0].max_abs < 1e-8);
  CHECK (r.shadows[0].max_rel < 1e-7);
  CHECK (strcmp (r.shadows[1].name, "y") == 0 && r.shadows[1].param == 2);
  CHECK (r.shadows[1].role == TG_OUT && r.shadows[1].count == 0);
  CHECK_SAME (x, x0, n * sizeof (double));
  CHECK_SAME (y, y0, n * sizeof (double));
  tg_report_free (&r);
  CHECK (r.shadows == NULL && r.nshadows == 0);
  /* No report wanted: the status alone.  */
  CHECK (tg_gradcheck (&f_kernel, TG_ARGS (&n, x, y), NULL, NULL) == 0);
  return tg_exit ();
}

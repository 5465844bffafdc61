/* { dg-do run } */
/* tg_gradcheck on float data: y[i] = s * expf (x[i]) with a float scalar
   s, d_s += sum d_y y / s, d_x += d_y y.  The kernel's precision is float,
   so the step is cbrt (FLT_EPSILON) * max (1, |x|) and the tolerances
   float's (rtol 1e-2, atol 1e-3).  Checks status 0, the float defaults in
   the report, every element compared; and that a backward computing
   d_x with the derivative of exp at x + 0.05 (5% off) fails on d_x.  */

#include <float.h>
#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
se (int n, float s, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = s * expf (x[i]);
}

static void
se_grad (int n, float s, const float *x, float *y, float *d_s, float *d_x,
	 float *d_y, float off)
{
  for (int i = 0; i < n; i++)
    {
      *d_s += d_y[i] * y[i] / s;
      d_x[i] += d_y[i] * s * expf (x[i] + off);
    }
}

static void
se_fwd (void *const *a, void *ret)
{
  (void) ret;
  se (TG_ARG (int, a, 0), TG_ARG (float, a, 1), TG_PTR (float, a, 2),
      TG_PTR (float, a, 3));
}

#define SE_ARGS(off)                                                          \
  se_grad (TG_ARG (int, a, 0), TG_ARG (float, a, 1), TG_PTR (float, a, 2),   \
	   TG_PTR (float, a, 3), TG_PTR (float, s, 0), TG_PTR (float, s, 1), \
	   TG_PTR (float, s, 2), (off))

static void
se_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  SE_ARGS (0.0f);
}

static void
se_bwd_bad (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  SE_ARGS (0.05f);
}

static void
se_ext (void *const *a, long *count)
{
  count[2] = count[3] = TG_ARG (int, a, 0);
}

static const tg_param se_params[] = {
  { "n", TG_INT, TG_IN },
  { "s", TG_FLOAT, TG_IN },
  { "x", TG_PTR_FLOAT, TG_IN },
  { "y", TG_PTR_FLOAT, TG_OUT },
};
static const tg_kernel se_kernel
  = TG_KERNEL ("se", se_params, TG_VOID, se_fwd, se_bwd, se_ext);
static const tg_kernel se_bad
  = TG_KERNEL ("se_bad", se_params, TG_VOID, se_fwd, se_bwd_bad, se_ext);

int
main (void)
{
  int n = 10;
  float s = 1.5f;
  float *x = tg_alloc_f (n), *y = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -2, 2);
  tg_report r;

  int st = tg_gradcheck (&se_kernel, TG_ARGS (&n, &s, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.is_float);
  CHECK (r.rtol == 1e-2 && r.atol == 1e-3);
  CHECK_NEAR (r.step, cbrt (FLT_EPSILON), 1e-12, 0);
  CHECK (r.nshadows == 3);
  CHECK (r.shadows[0].count == 1 && r.shadows[0].nfail == 0);
  CHECK (r.shadows[1].count == n && r.shadows[1].nfail == 0);
  /* Float rounding of the forward divided by 2h: well inside rtol.  */
  CHECK (r.shadows[1].max_rel < 1e-3);
  CHECK (r.abi_errors == 0);
  tg_report_free (&r);

  st = tg_gradcheck (&se_bad, TG_ARGS (&n, &s, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].nfail == 0);
  CHECK (r.shadows[1].nfail == n);
  CHECK_NEAR (r.shadows[1].max_rel, expm1 (0.05), 1e-3, 0);
  tg_report_free (&r);
  return tg_exit ();
}

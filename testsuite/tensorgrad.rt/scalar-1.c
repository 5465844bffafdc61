/* { dg-do run } */
/* tg_gradcheck perturbs by-value scalars: y[i] = a * x[i] + b with double
   a and b, d_a += sum d_y x, d_b += sum d_y, d_x += a d_y.  Checks status
   0, the shadows in ABI order (a, b, x, y) with one element compared for
   each scalar, and that a backward that forgets d_b fails on d_b alone
   (element 0), with the right analytic (0) and numeric (sum of the
   weights, non-zero) values.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
aff (int n, double a, double b, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + b;
}

static void
aff_grad (int n, double a, double b, const double *x, double *y, double *d_a,
	  double *d_b, double *d_x, double *d_y)
{
  (void) b, (void) y;
  for (int i = 0; i < n; i++)
    {
      *d_a += d_y[i] * x[i];
      *d_b += d_y[i];
      d_x[i] += a * d_y[i];
    }
}

/* The planted mistake: d_b is not computed.  */
static void
aff_grad_bad (int n, double a, double b, const double *x, double *y,
	      double *d_a, double *d_b, double *d_x, double *d_y)
{
  (void) b, (void) y, (void) d_b;
  for (int i = 0; i < n; i++)
    {
      *d_a += d_y[i] * x[i];
      d_x[i] += a * d_y[i];
    }
}

static void
aff_fwd (void *const *a, void *ret)
{
  (void) ret;
  aff (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_ARG (double, a, 2),
       TG_PTR (double, a, 3), TG_PTR (double, a, 4));
}

#define AFF_ARGS(fn)                                                          \
  fn (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_ARG (double, a, 2),      \
      TG_PTR (double, a, 3), TG_PTR (double, a, 4), TG_PTR (double, s, 0),   \
      TG_PTR (double, s, 1), TG_PTR (double, s, 2), TG_PTR (double, s, 3))

static void
aff_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  AFF_ARGS (aff_grad);
}

static void
aff_bwd_bad (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  AFF_ARGS (aff_grad_bad);
}

static void
aff_ext (void *const *a, long *count)
{
  count[3] = count[4] = TG_ARG (int, a, 0);
}

static const tg_param aff_params[] = {
  { "n", TG_INT, TG_IN },	  { "a", TG_DOUBLE, TG_IN },
  { "b", TG_DOUBLE, TG_IN },	  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel aff_kernel
  = TG_KERNEL ("aff", aff_params, TG_VOID, aff_fwd, aff_bwd, aff_ext);
static const tg_kernel aff_bad
  = TG_KERNEL ("aff_bad", aff_params, TG_VOID, aff_fwd, aff_bwd_bad, aff_ext);

int
main (void)
{
  int n = 9;
  double a = -1.75, b = 0.375;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  tg_report r;

  int st = tg_gradcheck (&aff_kernel, TG_ARGS (&n, &a, &b, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.nshadows == 4);
  CHECK (strcmp (r.shadows[0].name, "a") == 0 && r.shadows[0].count == 1);
  CHECK (strcmp (r.shadows[1].name, "b") == 0 && r.shadows[1].count == 1);
  CHECK (strcmp (r.shadows[2].name, "x") == 0 && r.shadows[2].count == n);
  for (int s = 0; s < 3; s++)
    CHECK_AT (r.shadows[s].nfail == 0 && r.shadows[s].max_rel < 1e-8, s);
  CHECK (a == -1.75 && b == 0.375);
  tg_report_free (&r);

  st = tg_gradcheck (&aff_bad, TG_ARGS (&n, &a, &b, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].nfail == 0);
  CHECK (r.shadows[1].nfail == 1 && r.shadows[1].worst_at == 0);
  CHECK (r.shadows[1].worst_x == 0.375);
  CHECK (r.shadows[1].worst_analytic == 0);
  CHECK (fabs (r.shadows[1].worst_numeric) > 0.1);
  CHECK (r.shadows[2].nfail == 0);
  CHECK (r.abi_errors == 0);
  tg_report_free (&r);
  return tg_exit ();
}

/* { dg-do run } */
/* tg_gradcheck checks the gradient ABI besides the values.  Kernel
   y[i] = 3 x[i] (d_x += 3 d_y) with four backwards, each breaking one
   rule while computing right values on zeroed shadows:
     1. overwrites d_x (d_x = 3 d_y) instead of adding to it;
     2. zeroes the output shadow d_y after use (it must leave it);
     3. writes the input x (scratch use of a parameter);
     4. the forward writes its input x (so the role TG_IN is wrong).
   Checks that each one returns 1 with abi_errors > 0, no value failure
   for 1 to 3, and a message naming the rule and the parameter; and that
   TG_CHECK_NO_ABI skips the ABI checks (case 1 then passes).  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static int mode;

static void
f (int n, double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 3 * x[i];
  if (mode == 4 && x[0] == 0)
    x[0] = 1; /* writes an input */
}

static void
f_grad (int n, double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      if (mode == 1)
	d_x[i] = 3 * d_y[i];
      else
	d_x[i] += 3 * d_y[i];
    }
  if (mode == 2)
    for (int i = 0; i < n; i++)
      d_y[i] = 0;
  if (mode == 3)
    x[n - 1] = -x[n - 1];
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

static const char *const expect[] = {
  NULL,
  "d_x[0] is overwritten, not accumulated",
  "the backward changed the output shadow d_y at [0]",
  "the backward wrote parameter 'x' at [4]",
  "the forward wrote input 'x' at [0]",
};

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, 0.5, 2);
  x[0] = 0;
  tg_report r;

  mode = 0;
  CHECK (tg_gradcheck (&f_kernel, TG_ARGS (&n, x, y), NULL, &r) == 0);
  CHECK (r.abi_errors == 0 && r.message[0] == 0);
  tg_report_free (&r);

  for (mode = 1; mode <= 4; mode++)
    {
      int st = tg_gradcheck (&f_kernel, TG_ARGS (&n, x, y), NULL, &r);
      tg_report_print (stdout, &r);
      CHECK_AT (st == 1, mode);
      CHECK_AT (r.abi_errors > 0, mode);
      CHECK_AT (strstr (r.message, expect[mode]) != NULL, mode);
      if (mode != 4)
	CHECK_AT (r.shadows[0].nfail == 0, mode);
      tg_report_free (&r);
    }

  tg_check_opts o = { 0 };
  o.flags = TG_CHECK_NO_ABI;
  mode = 1;
  CHECK (tg_gradcheck (&f_kernel, TG_ARGS (&n, x, y), &o, &r) == 0);
  CHECK (r.abi_errors == 0);
  tg_report_free (&r);
  return tg_exit ();
}

/* { dg-do run } */
/* The helpers of tg-test.h that the execution tests check through:
   TG_GRADCHECK and TG_GRADCHECK_NULL must pass a right gradient and fail
   a wrong one.  A hand-written pair y[i] = a x[i] (*d_a += sum d_y x,
   d_x += a d_y; a NULL d_y is a zero adjoint) with its descriptor named
   as the plugin would, scale_gradcheck, and backwards that break it:
     1. d_x off by a relative 4e-6: within tg_gradcheck's default rtol
	(1e-5), outside the tests' TG_RTOL (1e-6), which TG_GRADCHECK uses;
     2. d_a wrong when d_x is NULL: only TG_GRADCHECK_NULL (x) sees it;
     3. a NULL d_y read as an adjoint of 1, not 0;
     4. the backward writes the input x when d_x is NULL (tg_gradcheck
	passes the caller's x through then; the helper compares it).
   A name that is not a parameter fails too.  Each expected failure is
   taken back from the count after it is checked.  */

#include <math.h>
#include <stddef.h>
#include <tensorgrad.h>
#include "tg-test.h"

static int mode;

static void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

static void
scale_grad (int n, double a, double *x, double *y, double *d_a, double *d_x,
	    double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    {
      double g = d_y ? d_y[i] : mode == 3 ? 1 : 0;
      if (d_a)
	*d_a += g * x[i] * (mode == 2 && !d_x ? 2 : 1);
      if (d_x)
	d_x[i] += a * g * (mode == 1 ? 1 + 4e-6 : 1);
      else if (mode == 4)
	x[i] += 1;
    }
}

static void
fwd (void *const *a, void *ret)
{
  (void) ret;
  scale (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_PTR (double, a, 2),
	 TG_PTR (double, a, 3));
}

static void
bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  scale_grad (TG_ARG (int, a, 0), TG_ARG (double, a, 1),
	      TG_PTR (double, a, 2), TG_PTR (double, a, 3),
	      TG_PTR (double, s, 0), TG_PTR (double, s, 1),
	      TG_PTR (double, s, 2));
}

static void
ext (void *const *a, long *count)
{
  count[2] = count[3] = TG_ARG (int, a, 0);
}

static const tg_param params[] = {
  { "n", TG_INT, TG_IN },
  { "a", TG_DOUBLE, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
const tg_kernel scale_gradcheck
  = TG_KERNEL ("scale", params, TG_VOID, fwd, bwd, ext);

/* Whether OK, what a helper returned, is WANT; a failure it counted is
   taken back when it was expected.  */
#define EXPECT(call, want)                                                    \
  do                                                                          \
    {                                                                         \
      int before_ = tg_failures;                                              \
      int ok_ = (call);                                                       \
      if (!(want))                                                            \
	tg_failures = before_;                                                \
      CHECK (ok_ == (want));                                                  \
    }                                                                         \
  while (0)

int
main (void)
{
  int n = 6;
  double a = 0.75, x[6], y[6] = { 0 };
  tg_fill (x, n, 1, -2, 2);

  mode = 0;
  EXPECT (TG_GRADCHECK (scale, &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "x", &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "a", &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "y", &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "x a", &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "z", &n, &a, x, y), 0);

  mode = 1;
  CHECK (tg_gradcheck (&scale_gradcheck, TG_ARGS (&n, &a, x, y), NULL, NULL)
	 == 0);
  EXPECT (TG_GRADCHECK (scale, &n, &a, x, y), 0);

  mode = 2;
  EXPECT (TG_GRADCHECK (scale, &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "x", &n, &a, x, y), 0);

  mode = 3;
  EXPECT (TG_GRADCHECK (scale, &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "y", &n, &a, x, y), 0);

  mode = 4;
  double x0[6];
  memcpy (x0, x, sizeof x);
  EXPECT (TG_GRADCHECK (scale, &n, &a, x, y), 1);
  EXPECT (TG_GRADCHECK_NULL (scale, "x", &n, &a, x, y), 0);
  memcpy (x, x0, sizeof x);
  return tg_exit ();
}

/* { dg-do run } */
/* tg_gradcheck weights a returned double by d_return: the loss
   L = sum (x[i] - t[i])^2 is returned, d_x += 2 (x - t) d_return,
   d_t -= 2 (x - t) d_return.  Checks status 0 with both shadows compared,
   and that a backward that ignores d_return (as if it were 1) fails on
   both shadows, every element (the weight c_ret is never 1).  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static double
sq (int n, const double *x, const double *t)
{
  double l = 0;
  for (int i = 0; i < n; i++)
    l += (x[i] - t[i]) * (x[i] - t[i]);
  return l;
}

static void
sq_grad (int n, const double *x, const double *t, double *d_x, double *d_t,
	 double d_return)
{
  for (int i = 0; i < n; i++)
    {
      d_x[i] += 2 * (x[i] - t[i]) * d_return;
      d_t[i] -= 2 * (x[i] - t[i]) * d_return;
    }
}

static void
sq_fwd (void *const *a, void *ret)
{
  *(double *) ret = sq (TG_ARG (int, a, 0), TG_PTR (double, a, 1),
			TG_PTR (double, a, 2));
}

static void
sq_bwd (void *const *a, void *const *s, const void *d_return)
{
  sq_grad (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2),
	   TG_PTR (double, s, 0), TG_PTR (double, s, 1),
	   *(const double *) d_return);
}

/* The planted mistake: d_return taken as 1.  */
static void
sq_bwd_bad (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  sq_grad (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2),
	   TG_PTR (double, s, 0), TG_PTR (double, s, 1), 1.0);
}

static void
sq_ext (void *const *a, long *count)
{
  count[1] = count[2] = TG_ARG (int, a, 0);
}

static const tg_param sq_params[] = {
  { "n", TG_INT, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "t", TG_PTR_DOUBLE, TG_IN },
};
static const tg_kernel sq_kernel
  = TG_KERNEL ("sq", sq_params, TG_DOUBLE, sq_fwd, sq_bwd, sq_ext);
static const tg_kernel sq_bad
  = TG_KERNEL ("sq_bad", sq_params, TG_DOUBLE, sq_fwd, sq_bwd_bad, sq_ext);

int
main (void)
{
  int n = 6;
  double *x = tg_alloc (n), *t = tg_alloc (n);
  tg_fill_away (x, n, 1, -2, 2, 0, 0.1);
  tg_fill (t, n, 2, 3, 4); /* x - t never near 0 */
  tg_report r;

  int st = tg_gradcheck (&sq_kernel, TG_ARGS (&n, x, t), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.nshadows == 2);
  CHECK (r.shadows[0].count == n && r.shadows[0].nfail == 0);
  CHECK (r.shadows[1].count == n && r.shadows[1].nfail == 0);
  CHECK (r.shadows[0].max_rel < 1e-8 && r.shadows[1].max_rel < 1e-8);
  tg_report_free (&r);

  st = tg_gradcheck (&sq_bad, TG_ARGS (&n, x, t), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.shadows[0].nfail == n && r.shadows[1].nfail == n);
  tg_report_free (&r);
  return tg_exit ();
}

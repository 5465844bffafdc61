/* { dg-do run } */
/* tg_gradcheck passes integer parameters through: a gather
   y[i] = w[idx[i]] * x[i] with an index array (TG_PTR_INT, a long size
   nw and an int n), d_w[idx[i]] += d_y[i] x[i] (a scatter-add; idx
   repeats entries), d_x[i] += d_y[i] w[idx[i]].  Checks status 0 with
   d_w and d_x compared at every element (d_w's entries never gathered
   have gradient 0 and the check agrees), that idx is read as given, and
   that tg_check_opts is used: a planted mistake of 1e-4 relative in d_x
   fails at the default rtol and passes with rtol 1e-3.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static double bad_factor = 1;

static void
g (int n, long nw, const int *idx, const double *w, const double *x,
   double *y)
{
  (void) nw;
  for (int i = 0; i < n; i++)
    y[i] = w[idx[i]] * x[i];
}

static void
g_grad (int n, long nw, const int *idx, const double *w, const double *x,
	double *y, double *d_w, double *d_x, double *d_y)
{
  (void) nw, (void) y;
  for (int i = 0; i < n; i++)
    {
      d_w[idx[i]] += d_y[i] * x[i];
      d_x[i] += d_y[i] * w[idx[i]] * bad_factor;
    }
}

static void
g_fwd (void *const *a, void *ret)
{
  (void) ret;
  g (TG_ARG (int, a, 0), TG_ARG (long, a, 1), TG_PTR (const int, a, 2),
     TG_PTR (double, a, 3), TG_PTR (double, a, 4), TG_PTR (double, a, 5));
}

static void
g_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  g_grad (TG_ARG (int, a, 0), TG_ARG (long, a, 1), TG_PTR (const int, a, 2),
	  TG_PTR (double, a, 3), TG_PTR (double, a, 4), TG_PTR (double, a, 5),
	  TG_PTR (double, s, 0), TG_PTR (double, s, 1),
	  TG_PTR (double, s, 2));
}

static void
g_ext (void *const *a, long *count)
{
  count[3] = TG_ARG (long, a, 1);
  count[4] = count[5] = TG_ARG (int, a, 0);
}

static const tg_param g_params[] = {
  { "n", TG_INT, TG_IN },	  { "nw", TG_INT, TG_IN },
  { "idx", TG_PTR_INT, TG_IN },	  { "w", TG_PTR_DOUBLE, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel g_kernel
  = TG_KERNEL ("g", g_params, TG_VOID, g_fwd, g_bwd, g_ext);

int
main (void)
{
  int n = 8;
  long nw = 5;
  int idx[8] = { 3, 0, 3, 1, 0, 3, 1, 0 }; /* w[2], w[4] never read */
  double w[5], x[8], y[8];
  tg_fill (w, 5, 1, -2, 2);
  tg_fill (x, 8, 2, -2, 2);
  tg_report r;
  tg_check_opts o = { 0 };

  int st = tg_gradcheck (&g_kernel, TG_ARGS (&n, &nw, idx, w, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.nshadows == 3);
  CHECK (strcmp (r.shadows[0].name, "w") == 0 && r.shadows[0].count == nw);
  CHECK (strcmp (r.shadows[1].name, "x") == 0 && r.shadows[1].count == n);
  CHECK (r.shadows[0].nfail == 0 && r.shadows[1].nfail == 0);
  tg_report_free (&r);

  bad_factor = 1 + 1e-4;
  st = tg_gradcheck (&g_kernel, TG_ARGS (&n, &nw, idx, w, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1 && r.shadows[1].nfail > 0 && r.shadows[0].nfail == 0);
  tg_report_free (&r);
  o.rtol = 1e-3;
  st = tg_gradcheck (&g_kernel, TG_ARGS (&n, &nw, idx, w, x, y), &o, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0 && r.rtol == 1e-3 && r.atol == 1e-6);
  tg_report_free (&r);
  return tg_exit ();
}

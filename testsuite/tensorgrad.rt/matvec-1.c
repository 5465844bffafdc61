/* { dg-do run } */
/* tg_gradcheck passes a correct hand-written matrix-vector product,
   y = A x with A m x n row-major:
     d_A[i][j] += d_y[i] x[j]     d_x[j] += sum_i A[i][j] d_y[i].
   Each x[j] reaches all m outputs, so the exact loss sums matter.  Checks
   status 0, both input shadows with every element compared, no failure
   and errors far below the tolerance, and the output shadow not
   compared.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
mv (int m, int n, const double *a, const double *x, double *y)
{
  for (int i = 0; i < m; i++)
    {
      double s = 0;
      for (int j = 0; j < n; j++)
	s += a[i * n + j] * x[j];
      y[i] = s;
    }
}

static void
mv_grad (int m, int n, const double *a, const double *x, double *y,
	 double *d_a, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	d_a[i * n + j] += d_y[i] * x[j];
	d_x[j] += a[i * n + j] * d_y[i];
      }
}

static void
mv_fwd (void *const *a, void *ret)
{
  (void) ret;
  mv (TG_ARG (int, a, 0), TG_ARG (int, a, 1), TG_PTR (double, a, 2),
      TG_PTR (double, a, 3), TG_PTR (double, a, 4));
}

static void
mv_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  mv_grad (TG_ARG (int, a, 0), TG_ARG (int, a, 1), TG_PTR (double, a, 2),
	   TG_PTR (double, a, 3), TG_PTR (double, a, 4),
	   TG_PTR (double, s, 0), TG_PTR (double, s, 1),
	   TG_PTR (double, s, 2));
}

static void
mv_ext (void *const *a, long *count)
{
  long m = TG_ARG (int, a, 0), n = TG_ARG (int, a, 1);
  count[2] = m * n, count[3] = n, count[4] = m;
}

static const tg_param mv_params[] = {
  { "m", TG_INT, TG_IN },	  { "n", TG_INT, TG_IN },
  { "a", TG_PTR_DOUBLE, TG_IN }, { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel mv_kernel
  = TG_KERNEL ("mv", mv_params, TG_VOID, mv_fwd, mv_bwd, mv_ext);

int
main (void)
{
  int m = 7, n = 5;
  double *a = tg_alloc (m * n), *x = tg_alloc (n), *y = tg_alloc (m);
  tg_fill (a, m * n, 1, -2, 2);
  tg_fill (x, n, 2, -10, 10);
  tg_report r;

  int st = tg_gradcheck (&mv_kernel, TG_ARGS (&m, &n, a, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 0);
  CHECK (r.abi_errors == 0);
  CHECK (r.nshadows == 3);
  CHECK (strcmp (r.shadows[0].name, "a") == 0 && r.shadows[0].count == m * n);
  CHECK (strcmp (r.shadows[1].name, "x") == 0 && r.shadows[1].count == n);
  CHECK (r.shadows[2].role == TG_OUT && r.shadows[2].count == 0);
  for (int s = 0; s < 2; s++)
    {
      CHECK_AT (r.shadows[s].nfail == 0, s);
      /* Linear in each variable: only the kernel's own rounding, divided
	 by 2h, remains.  */
      CHECK_AT (r.shadows[s].max_rel < 1e-8, s);
    }
  tg_report_free (&r);
  return tg_exit ();
}

/* { dg-do run } */
/* tg_gradcheck says which shadow and which element is wrong.  A
   hand-written backward of y[i][j] = tanh (A[i][j] * x[j]) (m x n) with
   one planted mistake: d_x[3] gets 0.5 too much.  Checks status 1, d_A
   clean, d_x with exactly one failing element, index 3 as worst, largest
   absolute and largest relative error; the analytic value there exceeds
   the numeric one by 0.5; and that the printed report names d_x[3].  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
k (int m, int n, const double *a, const double *x, double *y)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[i * n + j] = tanh (a[i * n + j] * x[j]);
}

static void
k_grad (int m, int n, const double *a, const double *x, double *y,
	double *d_a, double *d_x, double *d_y)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
	double t = y[i * n + j], g = d_y[i * n + j] * (1 - t * t);
	d_a[i * n + j] += g * x[j];
	d_x[j] += g * a[i * n + j];
      }
  d_x[3] += 0.5; /* the planted mistake */
}

static void
k_fwd (void *const *a, void *ret)
{
  (void) ret;
  k (TG_ARG (int, a, 0), TG_ARG (int, a, 1), TG_PTR (double, a, 2),
     TG_PTR (double, a, 3), TG_PTR (double, a, 4));
}

static void
k_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  k_grad (TG_ARG (int, a, 0), TG_ARG (int, a, 1), TG_PTR (double, a, 2),
	  TG_PTR (double, a, 3), TG_PTR (double, a, 4), TG_PTR (double, s, 0),
	  TG_PTR (double, s, 1), TG_PTR (double, s, 2));
}

static void
k_ext (void *const *a, long *count)
{
  long m = TG_ARG (int, a, 0), n = TG_ARG (int, a, 1);
  count[2] = count[4] = m * n, count[3] = n;
}

static const tg_param k_params[] = {
  { "m", TG_INT, TG_IN },	  { "n", TG_INT, TG_IN },
  { "A", TG_PTR_DOUBLE, TG_IN }, { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel k_kernel
  = TG_KERNEL ("k", k_params, TG_VOID, k_fwd, k_bwd, k_ext);

int
main (void)
{
  int m = 4, n = 6;
  double *a = tg_alloc (m * n), *x = tg_alloc (n), *y = tg_alloc (m * n);
  tg_fill (a, m * n, 1, -1, 1);
  tg_fill (x, n, 2, -1, 1);
  tg_report r;
  char *text = NULL;
  size_t len = 0;
  FILE *f;

  int st = tg_gradcheck (&k_kernel, TG_ARGS (&m, &n, a, x, y), NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == 1);
  CHECK (r.status == 1);
  CHECK (r.abi_errors == 0);
  CHECK (r.shadows[0].nfail == 0 && r.shadows[0].worst_at == -1);
  CHECK (strcmp (r.shadows[1].name, "x") == 0);
  CHECK (r.shadows[1].count == n);
  CHECK (r.shadows[1].nfail == 1);
  CHECK (r.shadows[1].nonfinite == 0);
  CHECK (r.shadows[1].worst_at == 3);
  CHECK (r.shadows[1].max_abs_at == 3);
  CHECK (r.shadows[1].max_rel_at == 3);
  CHECK (r.shadows[1].worst_x == x[3]);
  CHECK_NEAR (r.shadows[1].worst_analytic - r.shadows[1].worst_numeric, 0.5,
	      1e-8, 0);
  CHECK_NEAR (r.shadows[1].max_abs, 0.5, 1e-8, 0);

  f = open_memstream (&text, &len);
  tg_report_print (f, &r);
  fclose (f);
  CHECK (strstr (text, "tg_gradcheck k: FAIL") != NULL);
  CHECK (strstr (text, "d_x (input, 6 elements): FAIL, 1 failed") != NULL);
  CHECK (strstr (text, "worst at d_x[3]") != NULL);
  CHECK (strstr (text, "d_A (input, 24 elements): ok") != NULL);
  free (text);
  tg_report_free (&r);
  return tg_exit ();
}

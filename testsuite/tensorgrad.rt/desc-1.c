/* { dg-do run } */
/* tg_gradcheck refuses an invalid descriptor or argument vector with -1
   and a message, and fills the report so that tg_report_print and
   tg_report_free work: a wrong layout version, a missing extents
   function, an extents function that forgets a parameter, an invalid
   kind, an output role on a by-value scalar, a NULL scalar argument, a
   NULL array that covers elements, a NULL kernel.  A NULL array with no
   elements (n = 0) is fine, and so is a TG_UNUSED array left NULL.  */

#include <math.h>
#include <tensorgrad.h>
#include "tg-test.h"

static void
f (int n, double a, const double *x, double *y, const double *unused)
{
  (void) unused;
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

static void
f_grad (int n, double a, const double *x, double *y, const double *unused,
	double *d_a, double *d_x, double *d_y, double *d_unused)
{
  (void) y, (void) unused;
  CHECK (d_unused == NULL);
  for (int i = 0; i < n; i++)
    {
      *d_a += d_y[i] * x[i];
      d_x[i] += a * d_y[i];
    }
}

static void
f_fwd (void *const *a, void *ret)
{
  (void) ret;
  f (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_PTR (double, a, 2),
     TG_PTR (double, a, 3), TG_PTR (double, a, 4));
}

static void
f_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  f_grad (TG_ARG (int, a, 0), TG_ARG (double, a, 1), TG_PTR (double, a, 2),
	  TG_PTR (double, a, 3), TG_PTR (double, a, 4), TG_PTR (double, s, 0),
	  TG_PTR (double, s, 1), TG_PTR (double, s, 2),
	  TG_PTR (double, s, 3));
}

static void
f_ext (void *const *a, long *count)
{
  count[2] = count[3] = TG_ARG (int, a, 0);
}

static void
f_ext_partial (void *const *a, long *count)
{
  count[2] = TG_ARG (int, a, 0);
}

static const tg_param f_params[] = {
  { "n", TG_INT, TG_IN },	  { "a", TG_DOUBLE, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN }, { "y", TG_PTR_DOUBLE, TG_OUT },
  { "unused", TG_PTR_DOUBLE, TG_UNUSED },
};

/* Expect tg_gradcheck (K, ARGS) to return -1 with a message containing
   WHAT.  */
static void
refused (const tg_kernel *k, const void *const *args, const char *what)
{
  tg_report r;
  int st = tg_gradcheck (k, args, NULL, &r);
  tg_report_print (stdout, &r);
  CHECK (st == -1 && r.status == -1);
  CHECK (r.nshadows == 0 && r.shadows == NULL);
  if (!CHECK (strstr (r.message, what) != NULL))
    fprintf (stderr, "message: %s\n", r.message);
  tg_report_free (&r);
}

int
main (void)
{
  int n = 4, zero = 0;
  double a = 2, x[4] = { 1, 2, 3, 4 }, y[4];
  tg_report r;
  tg_kernel k = TG_KERNEL ("f", f_params, TG_VOID, f_fwd, f_bwd, f_ext);
  tg_param p[5];

  CHECK (tg_gradcheck (&k, TG_ARGS (&n, &a, x, y, NULL), NULL, &r) == 0);
  CHECK (r.nshadows == 4 && r.shadows[3].role == TG_UNUSED);
  CHECK (r.shadows[3].count == 0);
  tg_report_free (&r);
  CHECK (tg_gradcheck (&k, TG_ARGS (&zero, &a, NULL, NULL, NULL), NULL, &r)
	 == 0);
  CHECK (r.shadows[1].count == 0);
  tg_report_free (&r);

  refused (NULL, TG_ARGS (&n), "no kernel descriptor");
  k.version = 0;
  refused (&k, TG_ARGS (&n, &a, x, y, NULL), "descriptor version 0");
  k.version = TG_KERNEL_VERSION;
  k.extents = NULL;
  refused (&k, TG_ARGS (&n, &a, x, y, NULL), "no extents function");
  k.extents = f_ext_partial;
  refused (&k, TG_ARGS (&n, &a, x, y, NULL), "no element count for 'y'");
  k.extents = f_ext;
  refused (&k, TG_ARGS (&n, NULL, x, y, NULL), "argument 1 ('a') is NULL");
  refused (&k, TG_ARGS (&n, &a, NULL, y, NULL),
	   "argument 2 ('x') is NULL but covers 4 elements");

  k.params = p;
  memcpy (p, f_params, sizeof p);
  p[1].role = TG_OUT;
  refused (&k, TG_ARGS (&n, &a, x, y, NULL), "('a') has an invalid role");
  memcpy (p, f_params, sizeof p);
  p[2].kind = 42;
  refused (&k, TG_ARGS (&n, &a, x, y, NULL), "('x') has an invalid kind 42");
  return tg_exit ();
}

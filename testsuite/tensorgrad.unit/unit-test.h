/* Shared helpers of the lib/ unit tests: tg-test.h's CHECK and counters,
   plus comparisons of MPFR values that print both numbers.  Not a test
   itself (unit.exp runs *.c only).  */

#ifndef TG_UNIT_TEST_H
#define TG_UNIT_TEST_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <mpfr.h>

#include "tg-test.h"
#include "ir/te.h"
#include "ad/ad.h"
#include "back/interp.h"
#include "back/cgen.h"
#include "ir/index.h"
#include "passes/passes.h"

/* Relative error of GOT against WANT (absolute when WANT is 0), as a
   double; infinite when exactly one of them is NaN or infinite.  */
static inline double
mp_rel_err (mpfr_srcptr got, mpfr_srcptr want)
{
  if (mpfr_nan_p (got) || mpfr_nan_p (want))
    return mpfr_nan_p (got) && mpfr_nan_p (want) ? 0 : INFINITY;
  if (mpfr_inf_p (got) || mpfr_inf_p (want))
    return mpfr_equal_p (got, want) ? 0 : INFINITY;
  mpfr_t d;
  mpfr_init2 (d, 64);
  mpfr_sub (d, got, want, MPFR_RNDN);
  mpfr_abs (d, d, MPFR_RNDN);
  if (!mpfr_zero_p (want))
    mpfr_div (d, d, want, MPFR_RNDN);
  double e = fabs (mpfr_get_d (d, MPFR_RNDU));
  mpfr_clear (d);
  return e;
}

/* Check that GOT is within relative error TOL of WANT; WHAT and the
   printf arguments after it label the report.  */
static inline int
mp_check_near (mpfr_srcptr got, mpfr_srcptr want, double tol,
               const char *what, ...)
  __attribute__ ((format (printf, 4, 5)));

static inline int
mp_check_near (mpfr_srcptr got, mpfr_srcptr want, double tol,
               const char *what, ...)
{
  double e = mp_rel_err (got, want);
  tg_checks++;
  if (e <= tol)
    return 1;
  tg_report_failure ();
  if (tg_failures <= TG_MAX_REPORTS)
    {
      va_list ap;
      fprintf (stderr, "FAIL: ");
      va_start (ap, what);
      vfprintf (stderr, what, ap);
      va_end (ap);
      mpfr_fprintf (stderr, ": got %.25Rg, want %.25Rg (error %.3g > %.3g)\n",
                    got, want, e, tol);
    }
  return 0;
}

/* Check that GOT is exactly WANT (NaN equals NaN; the sign of a zero
   counts).  */
static inline int
mp_check_exact (mpfr_srcptr got, double want, const char *what, ...)
  __attribute__ ((format (printf, 3, 4)));

static inline int
mp_check_exact (mpfr_srcptr got, double want, const char *what, ...)
{
  int ok = isnan (want) ? mpfr_nan_p (got)
                        : mpfr_cmp_d (got, want) == 0 && !mpfr_nan_p (got)
                              && (want != 0
                                  || !mpfr_signbit (got) == !signbit (want));
  tg_checks++;
  if (ok)
    return 1;
  tg_report_failure ();
  if (tg_failures <= TG_MAX_REPORTS)
    {
      va_list ap;
      fprintf (stderr, "FAIL: ");
      va_start (ap, what);
      vfprintf (stderr, what, ap);
      va_end (ap);
      mpfr_fprintf (stderr, ": got %.25Rg, want exactly %.17g\n", got, want);
    }
  return 0;
}

/* Run P on ENV; a failure is reported with the diagnostic.  */
static inline int
mp_check_run (mp_env *env, const te_program *p)
{
  te_diag diag = { 0 };
  int ok = mp_run (env, p, &diag);
  tg_checks++;
  if (!ok)
    {
      tg_report_failure ();
      fprintf (stderr, "FAIL: mp_run (%s): %s\n", p->name, diag.msg);
    }
  return ok;
}

#endif /* TG_UNIT_TEST_H */

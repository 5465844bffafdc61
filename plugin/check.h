/* check.h -- the compile-time self-check of synthesized gradients
   (-fplugin-arg-tensorgrad-check): the backward program against
   high-precision finite differences of the forward, in MPFR.  */

#ifndef TG_CHECK_H
#define TG_CHECK_H

#include "gcc-common.h"

/* The default of check-tol=, the largest relative error accepted: for a
   kernel computing in double, and for one with float data, whose
   derivative rules use constants rounded to float (2/sqrt(pi) in erf's:
   relative errors up to a few times 6e-8).  */
#define CHECK_DEFAULT_TOL 1e-8
#define CHECK_DEFAULT_TOL_FLOAT 1e-4

/* The check's options, as plugin_init parsed them.  */
struct check_options
{
  bool enabled;      /* check */
  double tol;        /* check-tol=X; 0: CHECK_DEFAULT_TOL(_FLOAT) */
  const char *sizes; /* every check-sizes= value, joined by ';' */
  bool corrupt;      /* check-corrupt: add 1 to the first gradient element
                        before comparing (for the testsuite only) */
};

/* If KEY is one of the check's plugin options (check, check-tol,
   check-sizes, check-corrupt), record it with VALUE in OPT and return
   true; a bad or missing value is an error.  False for any other KEY.  */
bool check_option (const char *key, const char *value, check_options *opt);

/* Check BWD, the backward program of FWD, the lifted kernel FNDECL,
   against finite differences; report with inform and error_at at
   FNDECL.  */
void check_gradient (tree fndecl, const te_program *fwd,
                     const te_program *bwd, const check_options *opt);

#endif /* TG_CHECK_H */

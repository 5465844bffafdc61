/* check.h -- the compile-time self-check of synthesized gradients
   (-fplugin-arg-tensorgrad-check): its options, and the diagnostics of
   lib/check/'s check of the backward program against high-precision
   finite differences of the forward.  */

#ifndef TG_PLUGIN_CHECK_H
#define TG_PLUGIN_CHECK_H

#include "gcc-common.h"

/* The check's options, as plugin_init parsed them.  */
struct check_options
{
  bool enabled;      /* check */
  double tol;        /* check-tol=X; 0: CK_DEFAULT_TOL(_FLOAT) */
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

#endif /* TG_PLUGIN_CHECK_H */

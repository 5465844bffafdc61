/* check.h -- the self-check of a synthesized gradient: the backward
   program of a kernel against high-precision finite differences of its
   forward program, both run by the MPFR interpreter (back/interp.h).

   The plugin runs it at compile time (-fplugin-arg-tensorgrad-check,
   plugin/check.cc) and turns the result into its notes and errors; the
   unit tests run it on programs they build.  gradient.c's opening comment
   has the method, its numbers and its limits.

       ck_options opt = { 0 };              defaults: tolerance, sizes
       ck_result res;
       ck_gradient ("scale", fwd, bwd, &opt, &res);
       ... res.status: CK_CHECKED, res.shadows[k].worst ...
       ck_result_free (&res);

   It never prints, aborts or exits; every outcome, a kernel it cannot
   check included, is in the result.  MPFR's flags are left as the runs
   leave them (the caller saves them if it shares them).  */

#ifndef TG_CHECK_H
#define TG_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/te.h"

/* The default tolerance, the largest relative error accepted: for a
   kernel computing in double, and for one with float data, whose
   derivative rules use constants rounded to float (2/sqrt(pi) in erf's:
   relative errors up to a few times 6e-8).  */
#define CK_DEFAULT_TOL 1e-8
#define CK_DEFAULT_TOL_FLOAT 1e-4

/* How to check.  All-zero is the default.  */
typedef struct ck_options
{
  double tol;         /* 0: CK_DEFAULT_TOL(_FLOAT) */
  const char *sizes;  /* "f:n=4,m=3;g:k=2": sizes by kernel, or NULL */
  bool corrupt;       /* add 1 to the first gradient element before
                         comparing (to test the check itself) */
  const char *lquote; /* the quotes around a name in WHY; NULL: "'" */
  const char *rquote;
} ck_options;

typedef enum ck_status
{
  CK_CHECKED,     /* every element within the tolerance; SHADOWS */
  CK_WRONG,       /* SHADOW[ELEM] is GRAD where the differences give
                     DIFF, relative error ERR above TOL */
  CK_NOT_FINITE,  /* SHADOW[ELEM] is GRAD, not a finite number; the
                     differences give DIFF */
  CK_NOT_CHECKED, /* the kernel cannot be checked: WHY */
  CK_NO_EVAL,     /* the interpreter refuses the backward program: DIAG */
  CK_BAD_SIZES    /* OPT->sizes is malformed: SIZES_ERROR */
} ck_status;

/* What is wrong with an entry of ck_options.sizes.  */
typedef enum ck_sizes_error
{
  CK_SIZES_FORM,  /* ENTRY is not NAME:... */
  CK_SIZES_VALUE, /* ENTRY has a size that is not NAME=N, N >= 0 */
  CK_SIZES_NAME   /* the kernel has no integer parameter NAME */
} ck_sizes_error;

/* The worst relative error of one checked shadow.  */
typedef struct ck_shadow
{
  const char *name; /* the backward's parameter ("d_x") */
  double worst;
} ck_shadow;

typedef struct ck_result
{
  ck_status status;
  /* The sizes the kernel was run at, " at n=3, m=2" ("" without integer
     parameters), for every status but CK_BAD_SIZES.  */
  char at[300];
  char why[300];         /* CK_NOT_CHECKED */
  te_diag diag;          /* CK_NO_EVAL */
  /* CK_WRONG and CK_NOT_FINITE: the first such element.  */
  const char *shadow;
  int64_t elem;
  char grad[64], diff[64]; /* the two values, with enough digits */
  double err, tol;
  /* CK_CHECKED: the checked shadows in parameter order (none when the
     kernel has no floating input).  */
  int nshadows;
  ck_shadow *shadows;
  /* CK_BAD_SIZES: the error, its entry of the option (ENTRY_LEN
     characters) and, for CK_SIZES_NAME, the name (NAME_LEN).  */
  ck_sizes_error sizes_error;
  const char *entry, *name;
  int entry_len, name_len;
} ck_result;

/* Check BWD, the backward program of FWD, the kernel NAME, with OPT
   (NULL: the defaults); the outcome into RES.  */
void ck_gradient (const char *name, const te_program *fwd,
                  const te_program *bwd, const ck_options *opt,
                  ck_result *res);

/* Free what ck_gradient allocated in RES.  */
void ck_result_free (ck_result *res);

#endif /* TG_CHECK_H */

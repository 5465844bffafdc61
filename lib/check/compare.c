/* compare.c -- step 6 of the gradient check (gradient.c): the gradient
   against the finite differences, element by element.

   Before:  grad {2.0, -1.0}, diff {2.0, -1.5}
   After:   CK_WRONG: element 1, relative error 3.3e-01

   1. S, the kernel's scale, is the largest |R| of all checked elements.
   2. The first element whose gradient is not a number or infinite is
      CK_NOT_FINITE.
   3. Else the first whose relative error |g - R| / max (|R|, CK_FLOOR S)
      is above the tolerance is CK_WRONG.
   4. Else CK_CHECKED with the worst error of each checked shadow.  */

#include <stdio.h>
#include <stdlib.h>

#include "check/check-int.h"

static double
abs_d (double x)
{
  return x < 0 ? -x : x;
}

/* |G - R| / max (|R|, FLOOR), as a double (infinite if either is not a
   number).  */
static double
rel_error (mpfr_srcptr g, mpfr_srcptr r, double floor)
{
  if (!mpfr_number_p (g) || !mpfr_number_p (r))
    return mpfr_equal_p (g, r) ? 0 : __builtin_huge_val ();
  mpfr_t d;
  mpfr_init2 (d, 64);
  mpfr_sub (d, g, r, MPFR_RNDN);
  double num = abs_d (mpfr_get_d (d, MPFR_RNDU));
  double r_d = abs_d (mpfr_get_d (r, MPFR_RNDN));
  double den = r_d > floor ? r_d : floor;
  mpfr_clear (d);
  if (den == 0)
    return num;
  return num / den;
}

/* X with enough digits to show a relative difference ERR, into BUF.  */
static void
format_value (char *buf, size_t size, mpfr_srcptr x, double err)
{
  int digits = 6;
  for (double e = 1e-4; digits < 30 && err < e; e /= 10)
    digits++;
  mpfr_snprintf (buf, size, "%.*Rg", digits, x);
}

/* The name of parameter Q's shadow.  */
static const char *
shadow_name (const ck_state *ck, int q)
{
  return ck->bwd->params[ck->fwd->params[q].shadow].name;
}

/* Steps 2 and 3: the first element of a checked shadow that is not
   finite, else the first whose error against the finite difference is
   above TOL, relative to max (|R|, FLOOR), into the result; true if
   there is one.  */
static bool
first_bad (ck_state *ck, double tol, double floor)
{
  const te_program *p = ck->fwd;
  ck_result *res = ck->res;
  for (int pass = 0; pass < 2; pass++)
    for (int q = 0; q < p->nparams; q++)
      for (int64_t e = 0; ck->par[q].fd && e < ck->par[q].n; e++)
        {
          mpfr_srcptr g = ck->par[q].grad[e], r = ck->par[q].diff[e];
          double err = rel_error (g, r, floor);
          if (pass == 0 ? mpfr_number_p (g) != 0 : err <= tol)
            continue;
          res->status = pass == 0 ? CK_NOT_FINITE : CK_WRONG;
          res->shadow = shadow_name (ck, q);
          res->elem = e;
          res->err = err;
          res->tol = tol;
          format_value (res->grad, sizeof res->grad, g, err);
          format_value (res->diff, sizeof res->diff, r, err);
          return true;
        }
  return false;
}

/* Step 4: the worst relative error of each checked shadow.  */
static void
worst (ck_state *ck, double floor)
{
  const te_program *p = ck->fwd;
  ck_result *res = ck->res;
  res->status = CK_CHECKED;
  res->shadows = ck_alloc (ck, p->nparams, sizeof *res->shadows);
  for (int q = 0; res->shadows && q < p->nparams; q++)
    {
      if (!ck->par[q].fd)
        continue;
      double w = 0;
      for (int64_t e = 0; e < ck->par[q].n; e++)
        {
          double err = rel_error (ck->par[q].grad[e], ck->par[q].diff[e],
                                  floor);
          w = w > err ? w : err;
        }
      res->shadows[res->nshadows].name = shadow_name (ck, q);
      res->shadows[res->nshadows++].worst = w;
    }
}

void
ck_compare (ck_state *ck)
{
  const te_program *p = ck->fwd;
  double tol = ck->opt->tol > 0 ? ck->opt->tol : CK_DEFAULT_TOL;
  for (int t = 0; !(ck->opt->tol > 0) && t < p->ntensors; t++)
    if (p->tensors[t]->type == TE_F32)
      tol = CK_DEFAULT_TOL_FLOAT;
  double scale = 0;
  bool corrupt = ck->opt->corrupt;
  for (int q = 0; q < p->nparams; q++)
    for (int64_t e = 0; ck->par[q].fd && e < ck->par[q].n; e++)
      {
        if (corrupt)
          mpfr_add_ui (ck->par[q].grad[e], ck->par[q].grad[e], 1, MPFR_RNDN);
        corrupt = false;
        if (mpfr_number_p (ck->par[q].diff[e]))
          {
            double d = abs_d (mpfr_get_d (ck->par[q].diff[e], MPFR_RNDN));
            scale = scale > d ? scale : d;
          }
      }
  if (!first_bad (ck, tol, CK_FLOOR * scale))
    worst (ck, CK_FLOOR * scale);
}

/* gradient.c -- the self-check of a synthesized gradient (check.h): step
   1 (sizes) and the entry point, which runs the steps of values.c,
   extent.c, diff.c and compare.c; the plugin runs it at compile time
   (-fplugin-arg-tensorgrad-check, plugin/check.cc).

   Before: a kernel's forward TE program and the backward program
   ad_reverse made of it,
       void scale (int n, double a, const double *x, double *y)
         stage 0: for i < n:  y[i] = a * x[i]
   After: a ck_result that the plugin reports as one note,
       gradient of 'scale' checked at n=3: worst relative error 0.0e+00 in
       'd_a', 0.0e+00 in 'd_x'
   (a linear kernel's differences are exact)
   or the first wrong element and its shadow, or why the kernel was not
   checked.

   1. Sizes.  The integer parameters get small values in parameter order
      (ck_sizes: the first four distinct), unless check-sizes=NAME:n=4,m=3
      names them.
   2. Extents.  Walk every statement of the forward over its loops at
      those sizes, evaluating the integer expressions (indices, extents,
      guards, conditions) as the interpreter would, and record the largest
      element each pointer parameter is accessed at: the tensors get that
      many elements, so any choice of sizes is consistent (a kernel whose
      callers pass oh = h - kh + 1 is checked at unrelated oh, h, kh: the
      gradient of what it computes there).  Element e of an index array
      holds index_value (e): distinct values (a scatter through the array
      writes each element once) below e + 4, known before the array's
      extent is, so arrays indexed through others need no special case.
   3. Values.  Floating inputs, in-out arrays and scalars get pseudo-random
      values in +-[1/8, 1]; if the forward's results are not all finite
      there, values in [1/8, 1] (logarithms, square roots, asin).  Every
      element of an output or in-out array gets a weight c in [-1, 1], and
      so does a returned value: the loss is L = sum c_k out_k + c_ret ret.
   4. Gradient.  Run the forward, then the backward in the same
      environment, with output and in-out shadows c, input shadows 0 and
      d_return c_ret: the input shadows then hold dL/dx, an in-out shadow
      dL/d(its entry value) (DESIGN.md section 2).
   5. Finite differences.  For each element v of each input, in-out array
      and floating scalar: D(h) = (L(v + h) - L(v - h)) / 2h with h a power
      of two 2^-CK_H_BITS relative to v, and the Richardson extrapolation
      R = (4 D(h/2) - D(h)) / 3, exact to O(h^4) (about 1e-48 relative for
      a smooth kernel); rounding at CK_PREC bits adds 2^(CK_H_BITS-CK_PREC).
   6. Compare element by element: the relative error |g - R| / max (|R|,
      1e-20 S), S the largest |R| of the kernel (an element whose
      derivative is zero compares at the kernel's scale).  A non-finite g,
      or an error above check-tol (CK_DEFAULT_TOL, or
      CK_DEFAULT_TOL_FLOAT when the kernel has float data), is an
      error; else the worst error of each shadow is noted.

   Numbers.  Everything runs at CK_PREC bits and is never rounded to the
   C types: the check compares the backward program with the exact
   derivative of the real function the forward program computes.  It
   checks the differentiation, not the rounding of the emitted f_grad.
   Only the constants of the derivative rules are rounded, to the
   kernel's type (2/sqrt(pi) in erf's, ln 2 in exp2's): relative errors
   of a few units of 2^-53 in double, 2^-24 in float.  The default
   tolerances, 1e-8 and 1e-4, stand 10^8 and 10^3 above that (a
   cancellation among the terms of a gradient element amplifies it), and
   far below the O(1) relative error a wrong rule leaves in the elements
   it touches.

   Limits.  Kinks (relu, fabs, max, a compare-select) are passed at random
   points, within h of one with probability about 2^-40.  A kernel whose
   sizes cannot be chosen gets a note and no check: an access at a
   negative index for the chosen sizes and index values, an index that
   depends on floating-point data, an integer division by zero, more
   than CK_MAX_ELEMS elements in a tensor, more than CK_MAX_OPS
   operations in all the runs, a forward that is not finite at either
   kind of values or that the interpreter refuses, a global variable
   without a visible initializer (a global with one is read at its
   initial value; a constant table always is).  The elements of the
   gradient are all checked, so the cost grows as the number of input
   elements times the forward's work: at the default sizes, under 50 ms
   for most of the testsuite's kernels, a quarter second for its 2-D
   convolutions (nine sizes, 150 input elements).  */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* The sizes given to integer parameters in order (then the last two
   alternate): distinct and small, so transposed indices show and the
   check stays fast.  */
static const int64_t ck_sizes[] = { 3, 2, 4, 5, 2, 3 };

/* ---- 1. sizes ----------------------------------------------------------- */

/* A malformed entry SPEC (LEN characters) of the check-sizes option:
   ERR, into the result; returns false.  */
static bool
bad_sizes (ck_state *ck, ck_sizes_error err, const char *spec, size_t len)
{
  ck->res->status = CK_BAD_SIZES;
  ck->res->sizes_error = err;
  ck->res->entry = spec;
  ck->res->entry_len = (int) len;
  return false;
}

/* Parse the entries for kernel NAME in SPEC ("f:n=4,m=3;g:k=2") into
   CK->ints.  False, with CK_BAD_SIZES, on a malformed entry.  */
static bool
parse_sizes (ck_state *ck, const char *name, const char *spec)
{
  const te_program *p = ck->fwd;
  while (spec && *spec)
    {
      const char *end = strchr (spec, ';');
      size_t len = end ? (size_t) (end - spec) : strlen (spec);
      const char *colon = memchr (spec, ':', len);
      if (!colon)
        return bad_sizes (ck, CK_SIZES_FORM, spec, len);
      if ((size_t) (colon - spec) == strlen (name)
          && !strncmp (spec, name, colon - spec))
        for (const char *s = colon + 1; s < spec + len;)
          {
            const char *eq = strchr (s, '=');
            char *stop;
            long long v = eq ? strtoll (eq + 1, &stop, 10) : -1;
            int q = -1;
            for (int i = 0; eq && i < p->nparams; i++)
              if (p->params[i].kind == TE_PK_INT
                  && strlen (p->params[i].name) == (size_t) (eq - s)
                  && !strncmp (p->params[i].name, s, eq - s))
                q = i;
            if (!eq || eq > spec + len || stop == eq + 1 || v < 0
                || (*stop != ',' && stop != spec + len))
              return bad_sizes (ck, CK_SIZES_VALUE, spec, len);
            if (q < 0)
              {
                ck->res->name = s;
                ck->res->name_len = (int) (eq - s);
                return bad_sizes (ck, CK_SIZES_NAME, spec, len);
              }
            ck->ints[q] = v;
            s = *stop == ',' ? stop + 1 : stop;
          }
      spec = end ? end + 1 : NULL;
    }
  return true;
}

/* Step 1: every integer parameter's value, into CK->ints, CK->sizes and
   the result's AT: those the user gave, the others from ck_sizes, or all
   UNIFORM when that is not 0.  */
static bool
choose_sizes (ck_state *ck, int64_t uniform)
{
  const te_program *p = ck->fwd;
  int k = 0;
  for (int q = 0; q < p->nparams; q++)
    ck->ints[q] = -1;
  if (!parse_sizes (ck, ck->name, ck->opt->sizes))
    return false;
  ck->named_sizes = false;
  for (int q = 0; q < p->nparams; q++)
    if (ck->ints[q] >= 0)
      ck->named_sizes = true;
  size_t len = 0;
  int nsizes = sizeof ck_sizes / sizeof ck_sizes[0];
  for (int q = 0; q < p->nparams; q++)
    {
      if (p->params[q].kind != TE_PK_INT)
        continue;
      if (ck->ints[q] < 0)
        ck->ints[q] = uniform ? uniform
                      : k < nsizes ? ck_sizes[k]
                                   : ck_sizes[nsizes - 2 + (k - nsizes) % 2];
      k++;
      if (len < sizeof ck->sizes)
        len += snprintf (ck->sizes + len, sizeof ck->sizes - len, "%s%s=%lld",
                         len ? ", " : "", p->params[q].name,
                         (long long) ck->ints[q]);
    }
  snprintf (ck->res->at, sizeof ck->res->at, "%s%s", len ? " at " : "",
            ck->sizes);
  return true;
}


/* Do the sizes step 1 chose meet what the gradient requires of them
   (te_require)?  If not, and the user named none of this kernel's, every
   size 3 (rows of V entries Vp apart meet Vp - V >= 0 then); false,
   refused, when the sizes still miss one.  */
static bool
sizes_meet_requirements (ck_state *ck)
{
  const te_program *p = ck->fwd;
  for (int pass = 0; p->nrequires && pass < 2; pass++)
    {
      mp_env *env = mp_env_new (p, CK_PREC);
      if (!env)
        return ck_refuse (ck, "the check ran out of memory");
      for (int q = 0; q < p->nparams; q++)
        if (p->params[q].kind == TE_PK_INT)
          mp_env_set_int (env, q, ck->ints[q]);
      memset (&ck->diag, 0, sizeof ck->diag);
      int failed;
      bool ok = mp_requires_failed (env, p, &failed, &ck->diag);
      mp_env_free (env);
      if (!ok)
        return ck_refuse_run (ck);
      if (failed < 0)
        return true;
      if (pass || ck->named_sizes)
        return ck_refuse (ck, "%s",
                          te_require_text (p, &p->requires[failed], "the"));
      if (!choose_sizes (ck, 3))
        return false;
    }
  return true;
}

/* Do the index arrays step 2 filled meet what the gradient requires of
   them (te_require of a GAP that reads one)?  If not, the index arrays
   once more with small values (ck_index_value); false, refused, when
   they still miss one.  */
static void free_params (ck_state *ck);

static bool
indices_meet_requirements (ck_state *ck)
{
  const te_program *b = ck->bwd;
  bool any = false;
  for (int i = 0; i < b->nrequires; i++)
    any |= te_reads (b->requires[i].gap, NULL);
  for (int pass = 0; any && pass < 2; pass++)
    {
      mp_env *env = mp_env_new (b, CK_PREC);
      if (!env)
        return ck_refuse (ck, "the check ran out of memory");
      memset (&ck->diag, 0, sizeof ck->diag);
      int failed = -1;
      bool ok = ck_load_env (ck, env)
                && mp_requires_failed (env, b, &failed, &ck->diag);
      mp_env_free (env);
      if (!ok)
        return ck_refuse_run (ck);
      if (failed < 0)
        return true;
      if (pass)
        return ck_refuse (ck, "the index values it chooses: %s",
                          te_require_text (b, &b->requires[failed], "the"));
      free_params (ck);
      ck->small_index = true;
      if (!ck_find_extents (ck) || !ck_choose_values (ck))
        return false;
    }
  return true;
}

/* ---- the entry point ---------------------------------------------------- */

/* Does the forward give finite results at the entry values?  False,
   refused, when the interpreter refuses it.  */
static bool
forward_finite (ck_state *ck, bool *finite)
{
  mp_env *env = mp_env_new (ck->fwd, CK_PREC);
  mpfr_t l;
  mpfr_init2 (l, CK_PREC);
  memset (&ck->diag, 0, sizeof ck->diag);
  bool ok = (env && ck_load_env (ck, env)) || ck_refuse_run (ck);
  if (ok && !mp_run (env, ck->fwd, &ck->diag))
    ok = ck_refuse_run (ck);
  *finite = ok && ck_loss (ck, env, l);
  mpfr_clear (l);
  mp_env_free (env);
  return ok;
}

/* Free what steps 2 and 3 gave CK's parameters, and forget it.  */
static void
free_params (ck_state *ck)
{
  for (int q = 0; ck->par && q < ck->fwd->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      for (int64_t e = 0; e < cp->n; e++)
        {
          if (cp->entry)
            mpfr_clear (cp->entry[e]);
          if (cp->grad)
            mpfr_clear (cp->grad[e]);
          if (cp->diff)
            mpfr_clear (cp->diff[e]);
        }
      free (cp->entry);
      free (cp->grad);
      free (cp->diff);
      free (cp->c);
      free (cp->idx);
      memset (cp, 0, sizeof *cp);
    }
}

/* Steps 1-6 for CK.  */
static void
check_1 (ck_state *ck)
{
  for (int s = 0; s < ck->fwd->nstages; s++)
    if (ck->fwd->stages[s].call)
      {
        const te_call *c = ck->fwd->stages[s].call;
        if (c->gemm != TE_GEMM_NONE)
          ck_refuse (ck, "option winograd makes it call libtensorgrad's "
                         "`%s' and `%s', which the interpreter does not "
                         "run",
                     c->name, c->grad_name);
        else
          ck_refuse (ck, "it calls `%s', whose gradient `%s' is a function "
                         "of its own (checked where it is defined)",
                     c->name, c->grad_name);
        return;
      }
  for (int i = 0; i < ck->fwd->ntensors; i++)
    if (ck->fwd->tensors[i]->kind == TE_TK_STATIC
        && !ck->fwd->tensors[i]->init)
      {
        ck_refuse (ck, "it reads `%s', whose value is known only when the "
                       "program runs",
                   ck->fwd->tensors[i]->name);
        return;
      }
  if (!choose_sizes (ck, 0) || !sizes_meet_requirements (ck)
      || !ck_find_extents (ck) || !ck_choose_values (ck)
      || !indices_meet_requirements (ck))
    return;
  long nfd = 0;
  for (int q = 0; q < ck->fwd->nparams; q++)
    nfd += ck->par[q].fd ? ck->par[q].n : 0;
  if ((nfd * 4 + 2) * (double) ck->ops > CK_MAX_OPS)
    {
      ck_refuse (ck, "%ld input elements and %ld operations a run%s would "
                 "take too long; give smaller sizes with check-sizes=", nfd,
                 ck->ops, ck->res->at);
      return;
    }
  bool finite;
  if (!forward_finite (ck, &finite))
    return;
  if (!finite)
    {
      ck->positive = true;
      if (!ck_choose_values (ck) || !forward_finite (ck, &finite))
        return;
      if (!finite)
        {
          /* The sizes may be what makes them so (C / NH = 0 for C = 4,
             NH = 5, then 1 / sqrt (C / NH)): every size 3, once.  */
          free_params (ck);
          ck->positive = false;
          if (!choose_sizes (ck, 3) || !ck_find_extents (ck)
              || !ck_choose_values (ck) || !forward_finite (ck, &finite))
            return;
          if (!finite)
            {
              ck->positive = true;
              if (!ck_choose_values (ck) || !forward_finite (ck, &finite))
                return;
            }
        }
      if (!finite)
        {
          ck_refuse (ck, "its results are not finite at the sample inputs");
          return;
        }
    }
  if (ck_run_backward (ck) && ck_run_differences (ck))
    ck_compare (ck);
}

void
ck_gradient (const char *name, const te_program *fwd, const te_program *bwd,
             const ck_options *opt, ck_result *res)
{
  static const ck_options defaults;
  ck_state ck;
  memset (&ck, 0, sizeof ck);
  memset (res, 0, sizeof *res);
  ck.name = name;
  ck.fwd = fwd;
  ck.bwd = bwd;
  ck.opt = opt ? opt : &defaults;
  ck.res = res;
  ck.ints = ck_alloc (&ck, fwd->nparams + 1, sizeof *ck.ints);
  ck.par = ck_alloc (&ck, fwd->nparams + 1, sizeof *ck.par);
  if (ck.ints && ck.par)
    check_1 (&ck);
  free_params (&ck);
  free (ck.par);
  free (ck.ints);
}

void
ck_result_free (ck_result *res)
{
  free (res->shadows);
  res->shadows = NULL;
  res->nshadows = 0;
}

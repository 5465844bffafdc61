/* check.cc -- the compile-time self-check of a synthesized gradient
   (-fplugin-arg-tensorgrad-check).

   Before: a kernel's forward TE program and the backward program
   ad_reverse made of it,
       void scale (int n, double a, const double *x, double *y)
         stage 0: for i < n:  y[i] = a * x[i]
   After: one note,
       gradient of 'scale' checked at n=3: worst relative error 0.0e+00 in
       'd_a', 0.0e+00 in 'd_x'
   (a linear kernel's differences are exact)
   or an error naming the function, the shadow and the first wrong
   element, or a note saying why the kernel was not checked.

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
      or an error above check-tol (CHECK_DEFAULT_TOL, or
      CHECK_DEFAULT_TOL_FLOAT when the kernel has float data), is an
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
   kind of values or that the interpreter refuses.  The elements of the
   gradient are all checked, so the cost grows as the number of input
   elements times the forward's work: at the default sizes, under 50 ms
   for most of the testsuite's kernels, a quarter second for its 2-D
   convolutions (nine sizes, 150 input elements).  */

#include "check.h"

extern "C" {
#include "back/interp.h"
}

#include <string.h>

/* Precision of every run, in bits.  */
#define CK_PREC 256
/* The finite-difference step is 2^-CK_H_BITS times the value.  */
#define CK_H_BITS 40
/* The sizes given to integer parameters in order (then the last two
   alternate): distinct and small, so transposed indices show and the
   check stays fast.  */
static const int64_t ck_sizes[] = { 3, 2, 4, 5, 2, 3 };
/* Refuse tensors of more elements than this at the chosen sizes.  */
#define CK_MAX_ELEMS 100000
/* Refuse when the finite differences would evaluate more nodes than
   this (4 forward runs per input element).  */
#define CK_MAX_OPS 40000000L
/* An element whose derivative is zero compares at this fraction of the
   kernel's largest derivative.  */
#define CK_FLOOR 1e-20

/* ---- options ------------------------------------------------------------ */

/* Every check-sizes= value, joined by ';'.  GCC 12 drops one character
   from the end of a plugin argument's value for each '=' in it after the
   first (parse_plugin_arg_opt), so the values are taken from the command
   line as GCC saved it; VALUE, as the plugin got it, if that fails.  */
static const char *
all_sizes (const char *value)
{
  char *all = NULL;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const char *arg = save_decoded_options[i].arg;
      const char *s = (save_decoded_options[i].opt_index == OPT_fplugin_arg_
                       && arg ? strstr (arg, "-check-sizes=") : NULL);
      if (!s || memchr (arg, '=', s - arg))
        continue;
      s += strlen ("-check-sizes=");
      char *old = all;
      all = old ? concat (old, ";", s, NULL) : xstrdup (s);
      free (old);
    }
  return all ? all : xstrdup (value);
}

bool
check_option (const char *key, const char *value, check_options *opt)
{
  bool flag = !strcmp (key, "check") || !strcmp (key, "check-corrupt");
  if (!flag && strcmp (key, "check-tol") && strcmp (key, "check-sizes"))
    return false;
  if (flag && value)
    {
      error ("tensorgrad: option %qs takes no value", key);
      return true;
    }
  if (!flag && (!value || !*value))
    {
      error ("tensorgrad: option %qs needs a value (%s)", key,
             !strcmp (key, "check-tol") ? "check-tol=1e-8"
                                        : "check-sizes=NAME:n=4,m=3");
      return true;
    }
  if (!strcmp (key, "check"))
    opt->enabled = true;
  else if (!strcmp (key, "check-corrupt"))
    opt->corrupt = true;
  else if (!strcmp (key, "check-tol"))
    {
      char *end;
      double t = strtod (value, &end);
      if (*end || !(t > 0) || t >= 1)
        error ("tensorgrad: %<check-tol=%s%>: the tolerance must be a number "
               "between 0 and 1",
               value);
      else
        opt->tol = t;
    }
  else if (!opt->sizes)
    opt->sizes = all_sizes (value);
  return true;
}

/* ---- the state of one check --------------------------------------------- */

/* What the check does with one parameter of the forward.  */
struct ck_param
{
  int64_t n;        /* elements of a pointer parameter (1 for a scalar) */
  mpfr_t *entry;    /* entry values of a floating array or scalar */
  double *c;        /* weights of an output or in-out array */
  int64_t *idx;     /* values of an index array, once chosen */
  bool fd;          /* its gradient is checked */
  bool weighed;     /* its final values are in the loss */
  mpfr_t *grad;     /* the backward's gradient */
  mpfr_t *diff;     /* the finite differences */
};

struct ck_state
{
  tree fndecl;
  location_t loc;
  const te_program *fwd, *bwd;
  const check_options *opt;
  int64_t *ints;    /* the value of each integer parameter */
  ck_param *par;
  double c_ret;
  bool positive;    /* values in [1/8, 1] rather than +-[1/8, 1] */
  long ops;         /* nodes one forward run evaluates */
  char sizes[256];  /* "n=3, m=2" */
  char at[300];     /* " at n=3, m=2" for the diagnostics, "" without
                       integer parameters */
  char why[300];    /* why the kernel is not checked */
  te_diag diag;
};

/* Record why the kernel is not checked (the first reason counts);
   returns false.  */
static bool
refuse (ck_state *ck, const char *fmt, ...) ATTRIBUTE_PRINTF_2;

static bool
refuse (ck_state *ck, const char *fmt, ...)
{
  if (ck->why[0])
    return false;
  /* `name' in FMT quotes a name as %qs would.  */
  char qfmt[400];
  size_t len = 0;
  for (const char *s = fmt; *s && len + 8 < sizeof qfmt; s++)
    {
      const char *q = *s == '`' ? open_quote : *s == '\'' ? close_quote : NULL;
      if (!q)
        qfmt[len++] = *s;
      for (; q && *q && len + 8 < sizeof qfmt; q++)
        qfmt[len++] = *q;
    }
  qfmt[len] = 0;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ck->why, sizeof ck->why, qfmt, ap);
  va_end (ap);
  return false;
}

/* Refuse with the interpreter's diagnostic.  */
static bool
refuse_run (ck_state *ck)
{
  return refuse (ck, "%s", ck->diag.msg[0] ? ck->diag.msg
                                           : "the interpreter ran out of memory");
}

/* ---- 1. sizes ----------------------------------------------------------- */

/* Parse the entries for kernel NAME in SPEC ("f:n=4,m=3;g:k=2") into
   CK->ints.  False, with an error given, on a malformed entry.  */
static bool
parse_sizes (ck_state *ck, const char *name, const char *spec)
{
  const te_program *p = ck->fwd;
  while (spec && *spec)
    {
      const char *end = strchr (spec, ';');
      size_t len = end ? (size_t) (end - spec) : strlen (spec);
      const char *colon = (const char *) memchr (spec, ':', len);
      if (!colon)
        {
          error_at (ck->loc, "tensorgrad: %<check-sizes=%.*s%> is not of the "
                    "form NAME:n=4,m=3", (int) len, spec);
          return false;
        }
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
              {
                error_at (ck->loc, "tensorgrad: %<check-sizes=%.*s%>: give "
                          "each size as NAME=N, N >= 0", (int) len, spec);
                return false;
              }
            if (q < 0)
              {
                error_at (ck->loc, "tensorgrad: %<check-sizes%>: %qD has no "
                          "integer parameter %<%.*s%>", ck->fndecl,
                          (int) (eq - s), s);
                return false;
              }
            ck->ints[q] = v;
            s = *stop == ',' ? stop + 1 : stop;
          }
      spec = end ? end + 1 : NULL;
    }
  return true;
}

/* Step 1: every integer parameter's value, into CK->ints and CK->sizes.  */
static bool
choose_sizes (ck_state *ck)
{
  const te_program *p = ck->fwd;
  int k = 0;
  for (int q = 0; q < p->nparams; q++)
    ck->ints[q] = -1;
  if (!parse_sizes (ck, IDENTIFIER_POINTER (DECL_NAME (ck->fndecl)),
                    ck->opt->sizes))
    return false;
  size_t len = 0;
  int nsizes = ARRAY_SIZE (ck_sizes);
  for (int q = 0; q < p->nparams; q++)
    {
      if (p->params[q].kind != TE_PK_INT)
        continue;
      if (ck->ints[q] < 0)
        ck->ints[q] = k < nsizes ? ck_sizes[k]
                                 : ck_sizes[nsizes - 2 + (k - nsizes) % 2];
      k++;
      if (len < sizeof ck->sizes)
        len += snprintf (ck->sizes + len, sizeof ck->sizes - len, "%s%s=%lld",
                         len ? ", " : "", p->params[q].name,
                         (long long) ck->ints[q]);
    }
  snprintf (ck->at, sizeof ck->at, "%s%s", len ? " at " : "", ck->sizes);
  return true;
}

/* ---- 2. extents --------------------------------------------------------- */

/* Element E of index array Q: a fixed permutation of the naturals that
   moves each element within its block of four, so that the values are
   distinct (a scatter through the array writes each element once) and
   below E + 4, whatever the array's extent turns out to be.  */
static int64_t
index_value (int q, int64_t e)
{
  static const int perm[3][4]
      = { { 2, 0, 3, 1 }, { 1, 3, 0, 2 }, { 3, 2, 0, 1 } };
  return e - e % 4 + perm[q % 3][e % 4];
}

/* The walk of step 2 over the forward: integer nodes are evaluated (when
   they do not depend on floating-point data), loads and stores of
   pointer parameters recorded.  */
struct xw
{
  ck_state *ck;
  int nslots;
  uint64_t *stamp; /* a node's value is valid when its stamp is TICK */
  int64_t *val;
  bool *known;
  uint64_t tick;   /* advanced whenever a counter changes */
  int64_t *var;
  int unsure;      /* inside a branch that may not run */
  int64_t *hi;     /* by parameter: 1 + the largest index accessed */
  long visits;
};

static bool xw_eval (xw *w, const te_node *n, int64_t *v, bool *known);

/* Access of tensor T at index I (KNOWN: I is known).  */
static bool
xw_access (xw *w, const te_tensor *t, int64_t i, bool known)
{
  if (t->kind != TE_TK_PARAM)
    return true;
  if (!known)
    return w->unsure
           || refuse (w->ck, "an index of `%s' depends on floating-point data",
                      t->name);
  if (i < 0)
    return w->unsure
           || refuse (w->ck, "`%s' is accessed at index %lld%s and the "
                      "chosen index values", t->name, (long long) i,
                      w->ck->at);
  if (i >= CK_MAX_ELEMS)
    return refuse (w->ck, "`%s' has more than %d elements%s; give smaller "
                   "sizes with check-sizes=", t->name, CK_MAX_ELEMS,
                   w->ck->at);
  if (i + 1 > w->hi[t->param])
    w->hi[t->param] = i + 1;
  return true;
}

/* Run FN (W, DATA) at every point of LOOPS[K..NLOOPS-1].  */
static bool
xw_loops (xw *w, int nloops, const te_loop *loops, int k,
          bool (*fn) (xw *, const void *), const void *data)
{
  if (k == nloops)
    return fn (w, data);
  int64_t extent;
  bool known;
  w->tick++;
  if (!xw_eval (w, loops[k].extent, &extent, &known))
    return false;
  if (!known)
    return refuse (w->ck, "the extent of a loop depends on floating-point "
                   "data");
  for (int64_t i = 0; i < extent; i++)
    {
      w->var[loops[k].var] = i;
      w->tick++;
      if (!xw_loops (w, nloops, loops, k + 1, fn, data))
        return false;
    }
  w->tick++;
  return true;
}

/* The body of reduction DATA at one point of its loops.  */
static bool
xw_reduce_body (xw *w, const void *data)
{
  int64_t v;
  bool known;
  return xw_eval (w, ((const te_node *) data)->args[1], &v, &known);
}

/* C's conversion of V to integer type TYPE.  */
static int64_t
xw_wrap (te_type type, int64_t v)
{
  switch (type)
    {
    case TE_BOOL:
      return v != 0;
    case TE_I32:
      return (int32_t) (uint32_t) (uint64_t) v;
    case TE_U32:
      return (int64_t) (uint32_t) (uint64_t) v;
    case TE_I64:
    case TE_F32:
    case TE_F64:
      break;
    }
  return v;
}

/* Integer operation N on known operands A and B, into *V.  False when N
   is not an integer operation (its value stays unknown).  */
static bool
xw_int_op (xw *w, const te_node *n, int64_t a, int64_t b, int64_t *v)
{
  uint64_t ua = (uint64_t) a, ub = (uint64_t) b;
  switch (n->op)
    {
    case TE_NEG: *v = (int64_t) (0 - ua); return true;
    case TE_ADD: *v = (int64_t) (ua + ub); return true;
    case TE_SUB: *v = (int64_t) (ua - ub); return true;
    case TE_MUL: *v = (int64_t) (ua * ub); return true;
    case TE_DIV:
    case TE_MOD:
      if (b == 0 || (a == INT64_MIN && b == -1))
        return refuse (w->ck, "an integer division by zero%s", w->ck->at);
      *v = n->op == TE_DIV ? a / b : a % b;
      return true;
    case TE_MIN: *v = a < b ? a : b; return true;
    case TE_MAX: *v = a > b ? a : b; return true;
    case TE_CAST: *v = a; return true;
    case TE_LT: *v = a < b; return true;
    case TE_LE: *v = a <= b; return true;
    case TE_GT: *v = a > b; return true;
    case TE_GE: *v = a >= b; return true;
    case TE_EQ: *v = a == b; return true;
    case TE_NE: *v = a != b; return true;
    case TE_NOT: *v = !a; return true;
    case TE_CONST: case TE_PARAM: case TE_VAR: case TE_LOAD: case TE_AND:
    case TE_OR: case TE_SELECT: case TE_REDUCE: case TE_EXP: case TE_EXP2:
    case TE_EXPM1: case TE_LOG: case TE_LOG2: case TE_LOG10: case TE_LOG1P:
    case TE_SQRT: case TE_CBRT: case TE_SIN: case TE_COS: case TE_TAN:
    case TE_ASIN: case TE_ACOS: case TE_ATAN: case TE_SINH: case TE_COSH:
    case TE_TANH: case TE_ERF: case TE_ERFC: case TE_FABS: case TE_FLOOR:
    case TE_CEIL: case TE_TRUNC: case TE_ROUND: case TE_POW: case TE_ATAN2:
    case TE_HYPOT: case TE_FMAX: case TE_FMIN: case TE_NUM_OPS:
      break;
    }
  return false;
}

/* Load node N: record the access, and its value when it is an integer
   parameter or an element of an index array already filled.  */
static bool
xw_load (xw *w, const te_node *n, int64_t *v, bool *known)
{
  const te_tensor *t = n->u.tensor;
  int64_t i = 0;
  bool ki = true;
  if (t->kind == TE_TK_SCALAR)
    {
      *known = !te_type_is_float (n->type);
      *v = *known ? w->ck->ints[t->param] : 0;
      return true;
    }
  if (n->args[0] && !xw_eval (w, n->args[0], &i, &ki))
    return false;
  if (!xw_access (w, t, i, ki))
    return false;
  *known = (t->kind == TE_TK_PARAM && !te_type_is_float (t->type) && ki
            && i >= 0);
  *v = *known ? index_value (t->param, i) : 0;
  return true;
}

/* && || or select N: only the operands that run, when the first one is
   known; all of them, as branches that may not run, when it is not.  */
static bool
xw_cond (xw *w, const te_node *n, int64_t *v, bool *known)
{
  int64_t a, b = 0, c = 0;
  bool ka, kb = true, kc = true, ok = xw_eval (w, n->args[0], &a, &ka);
  bool sel = n->op == TE_SELECT;
  /* The second operand runs when the first does not decide.  */
  bool second = !ka || (sel ? a != 0 : n->op == TE_AND ? a != 0 : a == 0);
  w->unsure += !ka;
  if (ok && second)
    ok = xw_eval (w, n->args[1], &b, &kb);
  if (ok && sel && (!ka || !a))
    ok = xw_eval (w, n->args[2], &c, &kc);
  w->unsure -= !ka;
  if (sel)
    {
      *known = ka && (a ? kb : kc);
      *v = a ? b : c;
    }
  else if (second)
    {
      *known = ka && kb;
      *v = n->op == TE_AND ? a && b : a || b;
    }
  else
    {
      *known = ka;
      *v = n->op == TE_OR;
    }
  return ok;
}

/* Evaluate N (recording the accesses it makes) into *V; *KNOWN says
   whether the value is known.  False when the kernel is refused.  */
static bool
xw_eval (xw *w, const te_node *n, int64_t *v, bool *known)
{
  if (n->id < 0 || n->id >= w->nslots)
    return refuse (w->ck, "node %d is not in the program (an internal error "
                   "of tensorgrad)", n->id);
  if (w->stamp[n->id] == w->tick)
    {
      *v = w->val[n->id];
      *known = w->known[n->id];
      return true;
    }
  if (++w->visits > CK_MAX_OPS)
    return refuse (w->ck, "its forward evaluates more than %ld operations%s; "
                   "give smaller sizes with check-sizes=", CK_MAX_OPS,
                   w->ck->at);
  int64_t a = 0, b = 0;
  bool ka = true, ok = true;
  *v = 0;
  *known = false;
  switch (n->op)
    {
    case TE_CONST:
      *known = !te_type_is_float (n->type);
      *v = *known ? n->u.i : 0;
      break;
    case TE_PARAM:
      *known = !te_type_is_float (n->type);
      *v = *known ? w->ck->ints[n->u.index] : 0;
      break;
    case TE_VAR:
      *known = true;
      *v = w->var[n->u.index];
      break;
    case TE_LOAD:
      ok = xw_load (w, n, v, known);
      break;
    case TE_AND:
    case TE_OR:
    case TE_SELECT:
      ok = xw_cond (w, n, v, known);
      break;
    case TE_REDUCE:
      ok = (xw_eval (w, n->args[0], &a, &ka)
            && xw_loops (w, n->u.red.nloops, n->u.red.loops, 0,
                         xw_reduce_body, n));
      break;
    default:
      /* Every other operation: its operands, then xw_int_op, which names
         every case.  */
      for (int k = 0; ok && k < te_op_arity (n->op); k++)
        {
          bool kk;
          ok = xw_eval (w, n->args[k], k ? &b : &a, &kk);
          ka = ka && kk;
        }
      if (ok && ka && !te_type_is_float (n->type)
          && xw_int_op (w, n, a, b, v))
        {
          *v = xw_wrap (n->type, *v);
          *known = true;
        }
      ok = ok && !w->ck->why[0];
      break;
    }
  if (!ok)
    return false;
  w->stamp[n->id] = w->tick;
  w->val[n->id] = *v;
  w->known[n->id] = *known;
  return true;
}

/* Statement DATA at one point of its loops.  */
static bool
xw_stmt (xw *w, const void *data)
{
  const te_stmt *st = (const te_stmt *) data;
  int64_t g = 1, i, v;
  bool kg = true, ki, kv;
  if (st->guard && !xw_eval (w, st->guard, &g, &kg))
    return false;
  if (kg && !g)
    return true;
  w->unsure += !kg;
  bool ok = (xw_eval (w, st->index, &i, &ki)
             && xw_access (w, st->dst, i, ki)
             && xw_eval (w, st->value, &v, &kv));
  w->unsure -= !kg;
  return ok;
}

/* Statement DATA over its own inner loops.  */
static bool
xw_stmt_nest (xw *w, const void *data)
{
  const te_stmt *st = (const te_stmt *) data;
  return xw_loops (w, st->ninner, st->inner, 0, xw_stmt, st);
}

/* Largest node id and counter number of N.  */
static void
xw_count (te_node *n, void *data)
{
  int *m = (int *) data;
  if (n->id > m[0])
    m[0] = n->id;
  if (n->op == TE_VAR && n->u.index > m[1])
    m[1] = n->u.index;
  for (int i = 0; n->op == TE_REDUCE && i < n->u.red.nloops; i++)
    if (n->u.red.loops[i].var > m[1])
      m[1] = n->u.red.loops[i].var;
}

/* The largest node id of P into M[0], its largest counter number into
   M[1].  */
static void
count_nodes (const te_program *p, int *m)
{
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nloops; k++)
        {
          te_walk (st->loops[k].extent, xw_count, m);
          m[1] = MAX (m[1], st->loops[k].var);
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *t = &st->stmts[k];
          for (int l = 0; l < t->ninner; l++)
            {
              te_walk (t->inner[l].extent, xw_count, m);
              m[1] = MAX (m[1], t->inner[l].var);
            }
          te_walk (t->index, xw_count, m);
          te_walk (t->value, xw_count, m);
          if (t->guard)
            te_walk (t->guard, xw_count, m);
        }
    }
}

/* Step 2: the number of elements of every pointer parameter, and the
   values of the index arrays.  */
static bool
find_extents (ck_state *ck)
{
  const te_program *p = ck->fwd;
  int m[2] = { 0, p->nvars };
  count_nodes (p, m);
  xw w;
  memset (&w, 0, sizeof w);
  w.ck = ck;
  w.nslots = m[0] + 1;
  w.stamp = XCNEWVEC (uint64_t, w.nslots);
  w.val = XCNEWVEC (int64_t, w.nslots);
  w.known = XCNEWVEC (bool, w.nslots);
  w.var = XCNEWVEC (int64_t, m[1] + 1);
  w.hi = XCNEWVEC (int64_t, p->nparams);
  w.tick = 1;
  bool ok = true;
  for (int s = 0; ok && s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; ok && k < st->nstmts; k++)
        ok = xw_loops (&w, st->nloops, st->loops, 0, xw_stmt_nest,
                       &st->stmts[k]);
    }
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      te_param_kind kind = p->params[q].kind;
      if (kind != TE_PK_PTR_FLOAT && kind != TE_PK_PTR_INT)
        continue;
      cp->n = w.hi[q] > 0 ? w.hi[q] : 1;
      if (kind == TE_PK_PTR_INT)
        {
          cp->idx = XNEWVEC (int64_t, cp->n);
          for (int64_t e = 0; e < cp->n; e++)
            cp->idx[e] = index_value (q, e);
        }
    }
  ck->ops = w.visits;
  free (w.stamp);
  free (w.val);
  free (w.known);
  free (w.var);
  free (w.hi);
  return ok;
}

/* ---- 3. values ---------------------------------------------------------- */

/* A pseudo-random number in [0, 1) for element E of stream S.  */
static double
ck_random (uint64_t s, uint64_t e)
{
  uint64_t x = s * 0x9e3779b97f4a7c15ull + e * 0xbf58476d1ce4e5b9ull + 1;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return (double) (x >> 11) * 0x1p-53;
}

/* The role of parameter Q's tensor.  */
static te_role
ck_role (const ck_state *ck, int q)
{
  const te_tensor *t = ck->fwd->params[q].tensor;
  return t ? t->role : TE_ROLE_UNUSED;
}

/* Step 3: which parameters are checked and weighed; entry values (in
   [1/8, 1], negated at random unless CK->positive) and weights.  */
static void
choose_values (ck_state *ck)
{
  const te_program *p = ck->fwd;
  for (int q = 0; q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      te_param_kind kind = p->params[q].kind;
      te_role role = ck_role (ck, q);
      if (kind == TE_PK_FLOAT)
        cp->n = 1;
      if (kind == TE_PK_INT || kind == TE_PK_PTR_INT
          || (kind == TE_PK_PTR_FLOAT && !p->params[q].tensor))
        continue;
      cp->weighed = kind == TE_PK_PTR_FLOAT
                    && (role == TE_ROLE_OUTPUT || role == TE_ROLE_INOUT);
      cp->fd = p->params[q].shadow >= 0 && role != TE_ROLE_OUTPUT
               && (kind == TE_PK_FLOAT || role != TE_ROLE_UNUSED);
      if (!cp->entry)
        {
          cp->entry = XNEWVEC (mpfr_t, cp->n);
          for (int64_t e = 0; e < cp->n; e++)
            mpfr_init2 (cp->entry[e], CK_PREC);
        }
      for (int64_t e = 0; e < cp->n; e++)
        {
          double u = 0.125 + 0.875 * ck_random (2 * q, e);
          if (!ck->positive && ck_random (2 * q + 1, e) < 0.5)
            u = -u;
          mpfr_set_d (cp->entry[e], role == TE_ROLE_OUTPUT ? 0 : u,
                      MPFR_RNDN);
        }
      if (cp->weighed && !cp->c)
        {
          cp->c = XNEWVEC (double, cp->n);
          for (int64_t e = 0; e < cp->n; e++)
            cp->c[e] = 2 * ck_random (1000 + q, e) - 1;
        }
    }
  ck->c_ret = 2 * ck_random (999, 0) - 1;
}

/* Give ENV the entry values of every forward parameter.  */
static bool
load_env (ck_state *ck, mp_env *env)
{
  const te_program *p = ck->fwd;
  for (int q = 0; q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      switch (p->params[q].kind)
        {
        case TE_PK_INT:
          mp_env_set_int (env, q, ck->ints[q]);
          break;
        case TE_PK_FLOAT:
          mp_env_set_mpfr (env, q, cp->entry[0]);
          break;
        case TE_PK_PTR_INT:
        case TE_PK_PTR_FLOAT:
          if (p->params[q].tensor)
            {
              mpfr_t *d = mp_env_param_tensor (env, q, cp->n);
              if (!d)
                return false;
              for (int64_t e = 0; e < cp->n; e++)
                if (cp->idx)
                  mpfr_set_si (d[e], cp->idx[e], MPFR_RNDN);
                else
                  mpfr_set (d[e], cp->entry[e], MPFR_RNDN);
            }
          break;
        }
    }
  return true;
}

/* ---- 4. and 5. the gradient and the finite differences ------------------ */

/* After a forward run in ENV: the loss, into L.  False when a result is
   not finite.  */
static bool
loss (ck_state *ck, mp_env *env, mpfr_ptr l)
{
  const te_program *p = ck->fwd;
  bool finite = true;
  mpfr_t t;
  mpfr_init2 (t, CK_PREC);
  mpfr_set_zero (l, 1);
  for (int q = 0; q < p->nparams; q++)
    if (ck->par[q].weighed)
      {
        mpfr_t *d = mp_env_tensor_get (env, p->params[q].tensor, NULL);
        for (int64_t e = 0; d && e < ck->par[q].n; e++)
          {
            finite &= mpfr_number_p (d[e]) != 0;
            mpfr_mul_d (t, d[e], ck->par[q].c[e], MPFR_RNDN);
            mpfr_add (l, l, t, MPFR_RNDN);
          }
      }
  if (p->ret)
    {
      mpfr_t *d = mp_env_tensor_get (env, p->ret, NULL);
      finite &= d && mpfr_number_p (d[0]);
      if (d)
        {
          mpfr_mul_d (t, d[0], ck->c_ret, MPFR_RNDN);
          mpfr_add (l, l, t, MPFR_RNDN);
        }
    }
  mpfr_clear (t);
  return finite;
}

/* L at the entry values, with forward environment ENV, into L.  */
static bool
eval_loss (ck_state *ck, mp_env *env, mpfr_ptr l)
{
  memset (&ck->diag, 0, sizeof ck->diag);
  if (!load_env (ck, env) || !mp_run (env, ck->fwd, &ck->diag))
    return false;
  loss (ck, env, l);
  return true;
}

/* Step 4: run the forward and the backward; copy the gradient of every
   checked parameter into its GRAD.  False (CK->why or an error given)
   when that fails.  */
static bool
run_backward (ck_state *ck)
{
  const te_program *p = ck->fwd, *b = ck->bwd;
  mp_env *env = mp_env_new (b, CK_PREC);
  memset (&ck->diag, 0, sizeof ck->diag);
  bool ok = (env && load_env (ck, env)) || refuse_run (ck);
  if (ok && !mp_run (env, p, &ck->diag))
    ok = refuse_run (ck);
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      int s = p->params[q].shadow;
      if (s < 0 || (!cp->fd && !cp->weighed))
        continue;
      mpfr_t *d = mp_env_param_tensor (env, s, cp->n);
      ok = d != NULL;
      for (int64_t e = 0; ok && e < cp->n; e++)
        mpfr_set_d (d[e], cp->weighed ? cp->c[e] : 0, MPFR_RNDN);
    }
  if (ok && p->ret)
    mp_env_set_float (env, b->nparams - 1, ck->c_ret);
  if (ok && !mp_run (env, b, &ck->diag))
    {
      error_at (ck->loc, "gradient of %qD cannot be evaluated: %s",
                ck->fndecl, ck->diag.msg);
      ok = false;
    }
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      if (!cp->fd)
        continue;
      mpfr_t *d = mp_env_tensor_get (env, b->params[p->params[q].shadow].tensor,
                                     NULL);
      cp->grad = XNEWVEC (mpfr_t, cp->n);
      for (int64_t e = 0; e < cp->n; e++)
        {
          mpfr_init2 (cp->grad[e], CK_PREC);
          mpfr_set (cp->grad[e], d[e], MPFR_RNDN);
        }
    }
  mp_env_free (env);
  return ok;
}

/* The central difference of L in V with step 2^HEXP, into D.  */
static bool
central (ck_state *ck, mp_env *env, mpfr_ptr v, long hexp, mpfr_ptr d)
{
  mpfr_t v0, lm;
  mpfr_inits2 (CK_PREC, v0, lm, (mpfr_ptr) 0);
  mpfr_set (v0, v, MPFR_RNDN);
  mpfr_set_si_2exp (lm, 1, hexp, MPFR_RNDN);
  mpfr_add (v, v0, lm, MPFR_RNDN);
  bool ok = eval_loss (ck, env, d);
  mpfr_set_si_2exp (lm, 1, hexp, MPFR_RNDN);
  mpfr_sub (v, v0, lm, MPFR_RNDN);
  ok = ok && eval_loss (ck, env, lm);
  mpfr_set (v, v0, MPFR_RNDN);
  mpfr_sub (d, d, lm, MPFR_RNDN);
  mpfr_mul_2si (d, d, -hexp - 1, MPFR_RNDN);
  mpfr_clears (v0, lm, (mpfr_ptr) 0);
  return ok;
}

/* Step 5: dL/dV by Richardson-extrapolated central differences, into R.  */
static bool
difference (ck_state *ck, mp_env *env, mpfr_ptr v, mpfr_ptr r)
{
  long e = mpfr_zero_p (v) ? -3 : MAX ((long) mpfr_get_exp (v), -3L);
  long hexp = e - CK_H_BITS;
  mpfr_t half;
  mpfr_init2 (half, CK_PREC);
  bool ok = central (ck, env, v, hexp, r) && central (ck, env, v, hexp - 1, half);
  /* R = (4 D(h/2) - D(h)) / 3  */
  mpfr_mul_2si (half, half, 2, MPFR_RNDN);
  mpfr_sub (r, half, r, MPFR_RNDN);
  mpfr_div_ui (r, r, 3, MPFR_RNDN);
  mpfr_clear (half);
  return ok;
}

/* Step 5 for every checked element.  */
static bool
run_differences (ck_state *ck)
{
  const te_program *p = ck->fwd;
  mp_env *env = mp_env_new (p, CK_PREC);
  bool ok = env != NULL;
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      if (!cp->fd)
        continue;
      cp->diff = XNEWVEC (mpfr_t, cp->n);
      for (int64_t e = 0; e < cp->n; e++)
        mpfr_init2 (cp->diff[e], CK_PREC);
      for (int64_t e = 0; ok && e < cp->n; e++)
        ok = difference (ck, env, cp->entry[e], cp->diff[e]);
    }
  if (!ok)
    refuse_run (ck);
  mp_env_free (env);
  return ok;
}

/* ---- 6. the comparison -------------------------------------------------- */

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
  double den = MAX (abs_d (mpfr_get_d (r, MPFR_RNDN)), floor);
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

/* Report the first element of a checked shadow that is not finite, else
   the first whose error against the finite difference is above TOL,
   relative to max (|R|, FLOOR); true if there is one.  */
static bool
report_first_bad (ck_state *ck, double tol, double floor)
{
  const te_program *p = ck->fwd;
  char gs[64], rs[64], es[32], ts[32];
  const char *at = ck->at;
  for (int pass = 0; pass < 2; pass++)
    for (int q = 0; q < p->nparams; q++)
      for (int64_t e = 0; ck->par[q].fd && e < ck->par[q].n; e++)
        {
          mpfr_srcptr g = ck->par[q].grad[e], r = ck->par[q].diff[e];
          double err = rel_error (g, r, floor);
          if (pass == 0 ? mpfr_number_p (g) != 0 : err <= tol)
            continue;
          format_value (gs, sizeof gs, g, err);
          format_value (rs, sizeof rs, r, err);
          if (pass == 0)
            {
              error_at (ck->loc, "gradient of %qD is not finite%s: %qs[%lld] "
                        "is %s", ck->fndecl, at, shadow_name (ck, q),
                        (long long) e, gs);
              inform (ck->loc, "finite differences give %s there", rs);
              return true;
            }
          error_at (ck->loc, "gradient of %qD is wrong%s: %qs[%lld] is %s "
                    "where finite differences give %s", ck->fndecl, at,
                    shadow_name (ck, q), (long long) e, gs, rs);
          snprintf (es, sizeof es, "%.1e", err);
          snprintf (ts, sizeof ts, "%.1e", tol);
          inform (ck->loc, "relative error %s, above the tolerance %s "
                  "(check-tol=)", es, ts);
          return true;
        }
  return false;
}

/* Note the worst relative error of each checked shadow.  */
static void
report_worst (ck_state *ck, double floor)
{
  const te_program *p = ck->fwd;
  char list[1024];
  const char *at = ck->at;
  size_t len = 0;
  for (int q = 0; q < p->nparams; q++)
    {
      double worst = 0;
      for (int64_t e = 0; ck->par[q].fd && e < ck->par[q].n; e++)
        worst = MAX (worst, rel_error (ck->par[q].grad[e],
                                       ck->par[q].diff[e], floor));
      if (ck->par[q].fd && len < sizeof list)
        len += snprintf (list + len, sizeof list - len, "%s%.1e in %s%s%s",
                         len ? ", " : "", worst, open_quote,
                         shadow_name (ck, q), close_quote);
    }
  if (!len)
    inform (ck->loc, "gradient of %qD checked%s: it has no floating input",
            ck->fndecl, at);
  else
    inform (ck->loc, "gradient of %qD checked%s: worst relative error %s",
            ck->fndecl, at, list);
}

/* Step 6: compare and report.  */
static void
compare (ck_state *ck)
{
  const te_program *p = ck->fwd;
  double tol = ck->opt->tol > 0 ? ck->opt->tol : CHECK_DEFAULT_TOL;
  for (int t = 0; !(ck->opt->tol > 0) && t < p->ntensors; t++)
    if (p->tensors[t]->type == TE_F32)
      tol = CHECK_DEFAULT_TOL_FLOAT;
  double scale = 0;
  bool corrupt = ck->opt->corrupt;
  for (int q = 0; q < p->nparams; q++)
    for (int64_t e = 0; ck->par[q].fd && e < ck->par[q].n; e++)
      {
        if (corrupt)
          mpfr_add_ui (ck->par[q].grad[e], ck->par[q].grad[e], 1, MPFR_RNDN);
        corrupt = false;
        if (mpfr_number_p (ck->par[q].diff[e]))
          scale = MAX (scale, abs_d (mpfr_get_d (ck->par[q].diff[e],
                                                 MPFR_RNDN)));
      }
  if (!report_first_bad (ck, tol, CK_FLOOR * scale))
    report_worst (ck, CK_FLOOR * scale);
}

/* ---- the entry point ---------------------------------------------------- */

/* Does the forward give finite results at the entry values?  False with
   CK->why when the interpreter refuses it.  */
static bool
forward_finite (ck_state *ck, bool *finite)
{
  mp_env *env = mp_env_new (ck->fwd, CK_PREC);
  mpfr_t l;
  mpfr_init2 (l, CK_PREC);
  memset (&ck->diag, 0, sizeof ck->diag);
  bool ok = (env && load_env (ck, env)) || refuse_run (ck);
  if (ok && !mp_run (env, ck->fwd, &ck->diag))
    ok = refuse_run (ck);
  *finite = ok && loss (ck, env, l);
  mpfr_clear (l);
  mp_env_free (env);
  return ok;
}

/* Steps 1-6 for CK.  */
static void
check_1 (ck_state *ck)
{
  for (int s = 0; s < ck->fwd->nstages; s++)
    if (ck->fwd->stages[s].call)
      {
        const te_call *c = ck->fwd->stages[s].call;
        refuse (ck, "it calls `%s', whose gradient `%s' is a function "
                    "of its own (checked where it is defined)",
                c->name, c->grad_name);
        return;
      }
  if (!choose_sizes (ck) || !find_extents (ck))
    return;
  long nfd = 0;
  choose_values (ck);
  for (int q = 0; q < ck->fwd->nparams; q++)
    nfd += ck->par[q].fd ? ck->par[q].n : 0;
  if ((nfd * 4 + 2) * (double) ck->ops > CK_MAX_OPS)
    {
      refuse (ck, "%ld input elements and %ld operations a run%s would "
              "take too long; give smaller sizes with check-sizes=", nfd,
              ck->ops, ck->at);
      return;
    }
  bool finite;
  if (!forward_finite (ck, &finite))
    return;
  if (!finite)
    {
      ck->positive = true;
      choose_values (ck);
      if (!forward_finite (ck, &finite))
        return;
      if (!finite)
        {
          refuse (ck, "its results are not finite at the sample inputs");
          return;
        }
    }
  if (run_backward (ck) && run_differences (ck))
    compare (ck);
}

void
check_gradient (tree fndecl, const te_program *fwd, const te_program *bwd,
                const check_options *opt)
{
  ck_state ck;
  memset (&ck, 0, sizeof ck);
  ck.fndecl = fndecl;
  ck.loc = DECL_SOURCE_LOCATION (fndecl);
  ck.fwd = fwd;
  ck.bwd = bwd;
  ck.opt = opt;
  ck.ints = XCNEWVEC (int64_t, fwd->nparams + 1);
  ck.par = XCNEWVEC (ck_param, fwd->nparams + 1);
  /* GCC's constant folding shares MPFR's flags; the interpreter keeps its
     exponent range to itself.  */
  mpfr_flags_t flags = mpfr_flags_save ();
  check_1 (&ck);
  mpfr_flags_restore (flags, MPFR_FLAGS_ALL);
  if (ck.why[0])
    inform (ck.loc, "gradient of %qD not checked: %s", fndecl, ck.why);
  for (int q = 0; q < fwd->nparams; q++)
    {
      ck_param *cp = &ck.par[q];
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
    }
  free (ck.par);
  free (ck.ints);
}

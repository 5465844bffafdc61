/* interp.c -- an MPFR interpreter of TE programs (interp.h).

   Before:  stage 0: for i < n:  y[i] = tanh (x[i]) * a;
            x = {0.5, 2}, a = 3, n = 2
   After:   y = {3 tanh 0.5, 3 tanh 2}, each correctly rounded to 256 bits
            (or, rounding to the C types, what C would compute).

   1. mp_run checks that the environment serves the program, saves MPFR's
      flags and exponent range and sets the default range, and gives
      every node of the program a slot (indexed by node id, interp-env.c)
      that holds its value: an int64_t for integer and boolean nodes, an
      mpfr_t for floating ones.
   2. It allocates the locals (zeroed) and the return value, then runs
      each stage: each statement over the whole nest in turn (or, fused
      or recurrent, all statements per iteration, those of a run of
      lib/back/lower.c's in one nest of their loops), counters bound in an
      array indexed by counter number; per execution: guard, index,
      value, store.  Which statements a NULL nullable tensor skips is
      decided once per stage.
   3. Nodes are evaluated recursively over the DAG.  A slot is reused
      while it is valid: its stamp is one of the stamps of the scopes
      open now.  Each statement execution opens a fresh outer scope (the
      tensors may have changed); each iteration of a reduction opens a
      fresh inner scope, so a node that depends on a reduction counter is
      recomputed for every term and one that does not is reused from the
      outer scope.
   4. Floating results are computed directly at the slot's precision: the
      environment's, or with rounding to the C types 24 or 53 bits, then
      brought into binary32 or binary64's exponent range, subnormals
      included, with mpfr_check_range and mpfr_subnormalize (no double
      rounding).
   5. The flags and the exponent range are restored on every return.

   The environments and the memory of a run (parameter values, tensors'
   storage, slots) are in interp-env.c, which never evaluates; a probe's
   nodes and statements (mp_probe_run) in interp-probe.c; the types the
   files share in interp-env.h.

   Limits: te_program's REDUCE nesting is bounded by MP_MAX_DEPTH; integer
   signed overflow wraps (C leaves it undefined); a floating % is refused
   (TE's % is for integers only).  */

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "back/interp-env.h"
#include "back/lower.h"

/* MPFR's documented default exponent range, used while mp_run runs.  */
#define MP_EMIN (1 - ((mpfr_exp_t) 1 << 30))
#define MP_EMAX (((mpfr_exp_t) 1 << 30) - 1)

/* ---- the state of one run ---------------------------------------------- */

/* Fill R's diagnostic at the current location; returns false.  */
bool
ip_fail (run *r, te_diag_kind kind, const char *fmt, ...)
{
  char buf[400];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  return te_diag_set (r->diag, kind, r->loc, "interpreter: %s", buf);
}

static mpfr_prec_t
type_prec (const run *r, te_type type)
{
  if (!r->env->round)
    return r->env->prec;
  return type == TE_F32 ? 24 : 53;
}

/* With rounding to the C types: bring X, correctly rounded to TYPE's
   precision with ternary value INEX, into TYPE's exponent range
   (overflow, underflow, subnormals).  Returns the new ternary value.  */
static int
fit_type (const run *r, mpfr_ptr x, int inex, te_type type)
{
  if (!r->env->round)
    return inex;
  mpfr_set_emin (type == TE_F32 ? -148 : -1073);
  mpfr_set_emax (type == TE_F32 ? 128 : 1024);
  inex = mpfr_check_range (x, inex, MPFR_RNDN);
  inex = mpfr_subnormalize (x, inex, MPFR_RNDN);
  mpfr_set_emin (MP_EMIN);
  mpfr_set_emax (MP_EMAX);
  return inex;
}

static int64_t
wrap_int (te_type type, int64_t v)
{
  switch (type)
    {
    case TE_BOOL:
      return v != 0;
    case TE_I32:
      return (int32_t) (uint32_t) (uint64_t) v; /* GCC: modulo 2^32 */
    case TE_U32:
      return (int64_t) (uint32_t) (uint64_t) v;
    case TE_I64:
    case TE_F32:
    case TE_F64:
      break;
    }
  return v;
}

static bool eval (run *r, const te_node *n);

/* Evaluate the operands of N; each must be floating (FL) or not.  */
bool
ip_eval_args (run *r, const te_node *n, bool fl)
{
  for (int k = 0; k < te_op_arity (n->op); k++)
    {
      if (!eval (r, n->args[k]))
        return false;
      if (te_type_is_float (n->args[k]->type) != fl)
        return ip_fail (r, TE_DIAG_INTERNAL, "operand %d of '%s' is %s, not %s", k,
                        te_op_name (n->op), te_type_name (n->args[k]->type),
                        fl ? "floating" : "an integer");
    }
  return true;
}

/* ---- reads ------------------------------------------------------------- */

/* Element IDX of T, bounds-checked: in *E, or NULL in *E for a NULL
   nullable tensor (read as zeros).  */
static bool
element (run *r, const te_tensor *t, int64_t idx, mpfr_ptr *e)
{
  storage *s = ip_find_storage (r->env, t);
  *e = NULL;
  if (!s)
    return t->nullable
           || ip_fail (r, TE_DIAG_USER, "tensor '%s' has no elements",
                       t->name);
  if (idx < 0 || (uint64_t) idx >= s->n)
    return ip_fail (r, TE_DIAG_USER, "index %lld out of the bounds of '%s' "
                    "(%zu elements)", (long long) idx, t->name, s->n);
  *e = s->data[idx];
  return true;
}

/* The value of parameter Q read by node N, into F (floating N) or *IV.  */
bool
ip_param_value (run *r, const te_node *n, int q, mpfr_ptr f, int64_t *iv,
                int *inex)
{
  if (q < 0 || q >= r->p->nparams)
    return ip_fail (r, TE_DIAG_INTERNAL, "no parameter number %d", q);
  const param_val *v = &r->env->params[q];
  const char *name = r->p->params[q].name;
  te_param_kind k = r->p->params[q].kind;
  if (k != TE_PK_INT && k != TE_PK_FLOAT && te_is_nonnull (n) && iv)
    {
      /* Its test against NULL: whether the caller gave its elements;
         a probe takes every optional array as passed.  */
      const te_tensor *t = te_param_tensor (r->p, q);
      *iv = r->probe || (t && ip_find_storage (r->env, t) != NULL);
      return true;
    }
  if (k != TE_PK_INT && k != TE_PK_FLOAT)
    return ip_fail (r, TE_DIAG_INTERNAL, "pointer parameter '%s' read as a "
                    "value", name);
  if (!v->has)
    return ip_fail (r, TE_DIAG_USER, "parameter '%s' has no value", name);
  if (!te_type_is_float (n->type))
    {
      if (v->is_float)
        return ip_fail (r, TE_DIAG_INTERNAL, "floating parameter '%s' read as "
                        "an integer", name);
      *iv = v->i;
      return true;
    }
  *inex = v->is_float ? mpfr_set (f, v->f, MPFR_RNDN)
                      : mpfr_set_sj (f, v->i, MPFR_RNDN);
  return true;
}

/* Load node N into F (floating) or *IV.  */
static bool
load (run *r, const te_node *n, mpfr_ptr f, int64_t *iv, int *inex)
{
  const te_tensor *t = n->u.tensor;
  if (t->kind == TE_TK_SCALAR)
    return ip_param_value (r, n, t->param, f, iv, inex);
  if (!ip_eval_args (r, n, false))
    return false;
  mpfr_ptr e;
  if (!element (r, t, I (n->args[0]), &e))
    return false;
  if (te_type_is_float (n->type))
    {
      if (e)
        *inex = mpfr_set (f, e, MPFR_RNDN);
      else
        mpfr_set_zero (f, 1);
      return true;
    }
  *iv = 0;
  if (!e)
    return true;
  if (!mpfr_integer_p (e) || !mpfr_fits_intmax_p (e, MPFR_RNDZ))
    return ip_fail (r, TE_DIAG_USER, "element %lld of integer array '%s' is not an "
                    "integer", (long long) I (n->args[0]), t->name);
  *iv = mpfr_get_sj (e, MPFR_RNDZ);
  return true;
}

/* ---- reductions -------------------------------------------------------- */

/* The extent of loop L, about to run, into *EXTENT (WHAT names the
   loop's kind in an internal error); its counter must be free.  */
static bool
loop_extent (run *r, const te_loop *l, const char *what, int64_t *extent)
{
  if (!eval (r, l->extent))
    return false;
  if (te_type_is_float (l->extent->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "floating loop extent");
  if (r->probe && !r->slots[l->extent->id].known)
    return ip_probe_stop (r, MP_PROBE_FLOAT_EXTENT);
  if (l->var < 0 || l->var >= r->nvars || r->bound[l->var])
    return ip_fail (r, TE_DIAG_INTERNAL, "bad %s counter %d", what, l->var);
  *extent = I (l->extent);
  return true;
}

/* Fold the body of reduction N into the accumulator S over its loops
   number K and inward.  */
static bool
reduce_level (run *r, const te_node *n, slot *s, int k)
{
  const te_reduce *red = &n->u.red;
  const te_node *body = n->args[1];
  r->scope[r->depth] = ++r->tick;
  if (k == red->nloops)
    {
      if (!eval (r, body))
        return false;
      if (r->probe)
        return true;
      if (!te_type_is_float (n->type))
        {
          int64_t a = s->i, b = I (body);
          switch (red->kind)
            {
            case TE_RED_SUM:
              s->i = wrap_int (n->type, (int64_t) ((uint64_t) a + (uint64_t) b));
              break;
            case TE_RED_PROD:
              s->i = wrap_int (n->type, (int64_t) ((uint64_t) a * (uint64_t) b));
              break;
            case TE_RED_MAX:
              s->i = b > a ? b : a;
              break;
            case TE_RED_MIN:
              s->i = b < a ? b : a;
              break;
            }
          return true;
        }
      switch (red->kind)
        {
        case TE_RED_SUM:
          fit_type (r, s->f, mpfr_add (s->f, s->f, F (body), MPFR_RNDN),
                    n->type);
          break;
        case TE_RED_PROD:
          fit_type (r, s->f, mpfr_mul (s->f, s->f, F (body), MPFR_RNDN),
                    n->type);
          break;
        case TE_RED_MAX:
          if (mpfr_greater_p (F (body), s->f))
            mpfr_set (s->f, F (body), MPFR_RNDN);
          break;
        case TE_RED_MIN:
          if (mpfr_less_p (F (body), s->f))
            mpfr_set (s->f, F (body), MPFR_RNDN);
          break;
        }
      return true;
    }
  const te_loop *l = &red->loops[k];
  int64_t extent;
  if (!loop_extent (r, l, "reduction", &extent))
    return false;
  bool ok = true;
  r->bound[l->var] = true;
  for (int64_t v = 0; ok && v < extent; v++)
    {
      r->var[l->var] = v;
      ok = reduce_level (r, n, s, k + 1);
    }
  r->bound[l->var] = false;
  r->tick++; /* a probe's slots are stale */
  return ok;
}

/* Reduction N into its slot S.  */
static bool
reduce (run *r, const te_node *n, slot *s)
{
  const te_node *init = n->args[0], *body = n->args[1];
  bool fl = te_type_is_float (n->type);
  if (!eval (r, init))
    return false;
  if (te_type_is_float (init->type) != fl || te_type_is_float (body->type) != fl)
    return ip_fail (r, TE_DIAG_INTERNAL, "reduction of mixed types");
  if (fl)
    fit_type (r, s->f, mpfr_set (s->f, F (init), MPFR_RNDN), n->type);
  else
    s->i = I (init);
  return ip_reduce_loops (r, n, s);
}

/* Fold the body of reduction N over its loops into S (in a probe, only
   evaluate it).  */
bool
ip_reduce_loops (run *r, const te_node *n, slot *s)
{
  if (r->depth == MP_MAX_DEPTH)
    return ip_fail (r, TE_DIAG_INTERNAL, "reductions nested deeper than %d",
                    MP_MAX_DEPTH);
  r->depth++;
  bool ok = reduce_level (r, n, s, 0);
  r->depth--;
  return ok;
}

/* ---- floating nodes ---------------------------------------------------- */

typedef int (*fn1) (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*fn2) (mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

/* mpfr_floor and co. return 2 or -2 for a non-integer operand even when
   the integer result is exact; the result is always exact here (same
   precision as the operand).  */
static int
exact_int (int t)
{
  return t == 2 || t == -2 ? 0 : t;
}

static int
m_floor (mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
  (void) rnd;
  return exact_int (mpfr_floor (y, x));
}

static int
m_ceil (mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
  (void) rnd;
  return exact_int (mpfr_ceil (y, x));
}

static int
m_trunc (mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
  (void) rnd;
  return exact_int (mpfr_trunc (y, x));
}

static int
m_round (mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
  (void) rnd;
  return exact_int (mpfr_round (y, x)); /* half away from zero */
}

static bool
unary (run *r, const te_node *n, mpfr_ptr f, fn1 fn, int *inex)
{
  if (!ip_eval_args (r, n, true))
    return false;
  *inex = fn (f, F (n->args[0]), MPFR_RNDN);
  return true;
}

static bool
binary (run *r, const te_node *n, mpfr_ptr f, fn2 fn, int *inex)
{
  if (!ip_eval_args (r, n, true))
    return false;
  *inex = fn (f, F (n->args[0]), F (n->args[1]), MPFR_RNDN);
  return true;
}

/* min, max, fmin, fmax of N: the first operand A when FIRST (A, B), or
   when B is a NaN and NAN_IGNORING; else B.  */
static bool
choose (run *r, const te_node *n, mpfr_ptr f,
        int (*first) (mpfr_srcptr, mpfr_srcptr), bool nan_ignoring,
        int *inex)
{
  if (!ip_eval_args (r, n, true))
    return false;
  mpfr_srcptr a = F (n->args[0]), b = F (n->args[1]);
  bool pick_a = first (a, b) || (nan_ignoring && mpfr_nan_p (b));
  *inex = mpfr_set (f, pick_a ? a : b, MPFR_RNDN);
  return true;
}

/* Casts to a floating type.  */
static bool
cast_to_float (run *r, const te_node *n, mpfr_ptr f, int *inex)
{
  const te_node *a = n->args[0];
  if (!eval (r, a))
    return false;
  *inex = te_type_is_float (a->type) ? mpfr_set (f, F (a), MPFR_RNDN)
                                     : mpfr_set_sj (f, I (a), MPFR_RNDN);
  return true;
}

static bool
select_float (run *r, const te_node *n, mpfr_ptr f, int *inex)
{
  const te_node *c = n->args[0];
  if (!eval (r, c))
    return false;
  if (te_type_is_float (c->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "floating condition of a select");
  const te_node *arm = n->args[I (c) ? 1 : 2];
  if (!eval (r, arm))
    return false;
  if (!te_type_is_float (arm->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "integer arm of a floating select");
  *inex = mpfr_set (f, F (arm), MPFR_RNDN);
  return true;
}

/* Floating node N into its slot S.  */
static bool
eval_float (run *r, const te_node *n, slot *s)
{
  mpfr_ptr f = s->f;
  int inex = 0;
  bool ok = false;
  if (n->op >= TE_NUM_OPS)
    return ip_fail (r, TE_DIAG_INTERNAL, "no operation %d", (int) n->op);
  switch (n->op)
    {
    case TE_CONST: inex = mpfr_set_d (f, n->u.f, MPFR_RNDN); ok = true; break;
    case TE_PARAM:
      ok = ip_param_value (r, n, n->u.index, f, NULL, &inex);
      break;
    case TE_LOAD: ok = load (r, n, f, NULL, &inex); break;
    case TE_NEG: ok = unary (r, n, f, mpfr_neg, &inex); break;
    case TE_ADD: ok = binary (r, n, f, mpfr_add, &inex); break;
    case TE_SUB: ok = binary (r, n, f, mpfr_sub, &inex); break;
    case TE_MUL: ok = binary (r, n, f, mpfr_mul, &inex); break;
    case TE_DIV: ok = binary (r, n, f, mpfr_div, &inex); break;
    /* a < b ? a : b and a > b ? a : b: ties and NaNs as C's ?: */
    case TE_MIN: ok = choose (r, n, f, mpfr_lessequal_p, false, &inex); break;
    case TE_MAX: ok = choose (r, n, f, mpfr_greaterequal_p, false, &inex); break;
    /* NaN-ignoring; ties give the first operand */
    case TE_FMIN: ok = choose (r, n, f, mpfr_lessequal_p, true, &inex); break;
    case TE_FMAX: ok = choose (r, n, f, mpfr_greaterequal_p, true, &inex); break;
    case TE_CAST: ok = cast_to_float (r, n, f, &inex); break;
    case TE_SELECT: ok = select_float (r, n, f, &inex); break;
    case TE_EXP: ok = unary (r, n, f, mpfr_exp, &inex); break;
    case TE_EXP2: ok = unary (r, n, f, mpfr_exp2, &inex); break;
    case TE_EXPM1: ok = unary (r, n, f, mpfr_expm1, &inex); break;
    case TE_LOG: ok = unary (r, n, f, mpfr_log, &inex); break;
    case TE_LOG2: ok = unary (r, n, f, mpfr_log2, &inex); break;
    case TE_LOG10: ok = unary (r, n, f, mpfr_log10, &inex); break;
    case TE_LOG1P: ok = unary (r, n, f, mpfr_log1p, &inex); break;
    case TE_SQRT: ok = unary (r, n, f, mpfr_sqrt, &inex); break;
    case TE_CBRT: ok = unary (r, n, f, mpfr_cbrt, &inex); break;
    case TE_SIN: ok = unary (r, n, f, mpfr_sin, &inex); break;
    case TE_COS: ok = unary (r, n, f, mpfr_cos, &inex); break;
    case TE_TAN: ok = unary (r, n, f, mpfr_tan, &inex); break;
    case TE_ASIN: ok = unary (r, n, f, mpfr_asin, &inex); break;
    case TE_ACOS: ok = unary (r, n, f, mpfr_acos, &inex); break;
    case TE_ATAN: ok = unary (r, n, f, mpfr_atan, &inex); break;
    case TE_SINH: ok = unary (r, n, f, mpfr_sinh, &inex); break;
    case TE_COSH: ok = unary (r, n, f, mpfr_cosh, &inex); break;
    case TE_TANH: ok = unary (r, n, f, mpfr_tanh, &inex); break;
    case TE_ERF: ok = unary (r, n, f, mpfr_erf, &inex); break;
    case TE_ERFC: ok = unary (r, n, f, mpfr_erfc, &inex); break;
    case TE_FABS: ok = unary (r, n, f, mpfr_abs, &inex); break;
    case TE_FLOOR: ok = unary (r, n, f, m_floor, &inex); break;
    case TE_CEIL: ok = unary (r, n, f, m_ceil, &inex); break;
    case TE_TRUNC: ok = unary (r, n, f, m_trunc, &inex); break;
    case TE_ROUND: ok = unary (r, n, f, m_round, &inex); break;
    case TE_POW: ok = binary (r, n, f, mpfr_pow, &inex); break;
    case TE_ATAN2: ok = binary (r, n, f, mpfr_atan2, &inex); break;
    case TE_HYPOT: ok = binary (r, n, f, mpfr_hypot, &inex); break;
    case TE_REDUCE: return reduce (r, n, s); /* rounds as it goes */
    case TE_VAR:
    case TE_MOD:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    case TE_NUM_OPS:
      return ip_fail (r, TE_DIAG_INTERNAL, "cannot evaluate '%s' of type %s",
                      te_op_name (n->op), te_type_name (n->type));
    }
  if (ok)
    fit_type (r, f, inex, n->type);
  return ok;
}

/* ---- integer and boolean nodes ----------------------------------------- */

/* Evaluate the integer operands of N into *A and *B (0 if absent).  */
static bool
int_args (run *r, const te_node *n, int64_t *a, int64_t *b)
{
  *a = *b = 0;
  if (!ip_eval_args (r, n, false))
    return false;
  *a = I (n->args[0]);
  if (te_op_arity (n->op) > 1)
    *b = I (n->args[1]);
  return true;
}

/* Three-way comparison of the operands of N, both floating or both
   integer: -1, 0, 1, or 2 when unordered (a NaN).  */
static bool
compare (run *r, const te_node *n, int *c)
{
  const te_node *a = n->args[0], *b = n->args[1];
  if (!eval (r, a) || !eval (r, b))
    return false;
  bool fl = te_type_is_float (a->type);
  if (fl != te_type_is_float (b->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "comparison of mixed types");
  if (fl)
    *c = mpfr_unordered_p (F (a), F (b)) ? 2 : mpfr_cmp (F (a), F (b));
  else
    *c = I (a) < I (b) ? -1 : I (a) > I (b);
  if (*c != 2)
    *c = *c < 0 ? -1 : *c > 0;
  return true;
}

/* Evaluate N's operand number K, a condition or an integer, into *V.  */
static bool
int_operand (run *r, const te_node *n, int k, int64_t *v)
{
  const te_node *a = n->args[k];
  if (!eval (r, a))
    return false;
  if (te_type_is_float (a->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "floating operand of '%s'",
                    te_op_name (n->op));
  *v = I (a);
  return true;
}

/* Integer division or remainder of N: C's, truncating.  */
static bool
int_divide (run *r, const te_node *n, int64_t *v)
{
  int64_t a, b;
  if (!int_args (r, n, &a, &b))
    return false;
  if (b == 0 || (a == INT64_MIN && b == -1))
    return r->probe ? ip_probe_stop (r, MP_PROBE_DIVIDE)
           : ip_fail (r, TE_DIAG_USER, "integer %s overflows or divides by zero",
                    n->op == TE_DIV ? "division" : "remainder");
  *v = n->op == TE_DIV ? a / b : a % b;
  return true;
}

/* A cast of N's operand to integer type N->type: C's conversions.  */
static bool
cast_to_int (run *r, const te_node *n, int64_t *v)
{
  const te_node *a = n->args[0];
  if (!eval (r, a))
    return false;
  if (!te_type_is_float (a->type))
    {
      *v = I (a);
      return true;
    }
  mpfr_srcptr x = F (a);
  if (n->type == TE_BOOL)
    {
      *v = !mpfr_zero_p (x);
      return true;
    }
  int64_t lo = n->type == TE_I32 ? INT32_MIN : n->type == TE_U32 ? 0
                                                                  : INT64_MIN;
  int64_t hi = n->type == TE_I32 ? INT32_MAX : n->type == TE_U32 ? UINT32_MAX
                                                                  : INT64_MAX;
  if (mpfr_nan_p (x) || !mpfr_fits_intmax_p (x, MPFR_RNDZ)
      || mpfr_get_sj (x, MPFR_RNDZ) < lo || mpfr_get_sj (x, MPFR_RNDZ) > hi)
    return ip_fail (r, TE_DIAG_USER, "conversion of %g to %s out of range",
                    mpfr_get_d (x, MPFR_RNDN), te_type_name (n->type));
  *v = mpfr_get_sj (x, MPFR_RNDZ);
  return true;
}

/* Integer or boolean node N into its slot S.  && || and select evaluate
   only the operands they need.  */
bool
ip_eval_int (run *r, const te_node *n, slot *s)
{
  int64_t v = 0, a = 0, b = 0;
  int inex, c = 0;
  bool ok = false;
  if (n->op >= TE_NUM_OPS)
    return ip_fail (r, TE_DIAG_INTERNAL, "no operation %d", (int) n->op);
  switch (n->op)
    {
    case TE_CONST: v = n->u.i; ok = true; break;
    case TE_PARAM:
      ok = ip_param_value (r, n, n->u.index, NULL, &v, &inex);
      break;
    case TE_VAR:
      if (n->u.index < 0 || n->u.index >= r->nvars || !r->bound[n->u.index])
        return ip_fail (r, TE_DIAG_INTERNAL, "loop counter %d used outside "
                        "its loop", n->u.index);
      v = r->var[n->u.index];
      ok = true;
      break;
    case TE_LOAD: ok = load (r, n, NULL, &v, &inex); break;
    /* Wrapping: 64-bit two's complement, then the node's type.  */
    case TE_NEG: ok = int_args (r, n, &a, &b); v = (int64_t) (0 - (uint64_t) a); break;
    case TE_ADD: ok = int_args (r, n, &a, &b); v = (int64_t) ((uint64_t) a + (uint64_t) b); break;
    case TE_SUB: ok = int_args (r, n, &a, &b); v = (int64_t) ((uint64_t) a - (uint64_t) b); break;
    case TE_MUL: ok = int_args (r, n, &a, &b); v = (int64_t) ((uint64_t) a * (uint64_t) b); break;
    case TE_DIV:
    case TE_MOD: ok = int_divide (r, n, &v); break;
    case TE_MIN: ok = int_args (r, n, &a, &b); v = a < b ? a : b; break;
    case TE_MAX: ok = int_args (r, n, &a, &b); v = a > b ? a : b; break;
    case TE_CAST: ok = cast_to_int (r, n, &v); break;
    case TE_LT: ok = compare (r, n, &c); v = c == -1; break;
    case TE_LE: ok = compare (r, n, &c); v = c == -1 || c == 0; break;
    case TE_GT: ok = compare (r, n, &c); v = c == 1; break;
    case TE_GE: ok = compare (r, n, &c); v = c == 1 || c == 0; break;
    case TE_EQ: ok = compare (r, n, &c); v = c == 0; break;
    case TE_NE: ok = compare (r, n, &c); v = c != 0; break;
    case TE_NOT: ok = int_operand (r, n, 0, &a); v = !a; break;
    case TE_AND:
      ok = int_operand (r, n, 0, &a) && (!a || int_operand (r, n, 1, &b));
      v = a && b;
      break;
    case TE_OR:
      ok = int_operand (r, n, 0, &a) && (a || int_operand (r, n, 1, &b));
      v = a || b;
      break;
    case TE_SELECT:
      ok = int_operand (r, n, 0, &a) && int_operand (r, n, a ? 1 : 2, &v);
      break;
    case TE_REDUCE: return reduce (r, n, s);
    TE_CASE_MATH:
    case TE_NUM_OPS:
      return ip_fail (r, TE_DIAG_INTERNAL, "cannot evaluate '%s' of type %s",
                      te_op_name (n->op), te_type_name (n->type));
    }
  if (ok)
    s->i = wrap_int (n->type, v);
  return ok;
}

/* Is the slot of N computed in one of the open scopes?  */
static bool
valid (const run *r, const slot *s)
{
  for (int d = r->depth; d >= 0; d--)
    if (s->stamp == r->scope[d])
      return true;
  return false;
}

/* Evaluate N (and what it needs) into its slot, unless it is valid.  */
static bool
eval (run *r, const te_node *n)
{
  if (n->id < 0 || n->id >= r->nslots)
    return ip_fail (r, TE_DIAG_INTERNAL, "node %d was not seen before the run", n->id);
  slot *s = &r->slots[n->id];
  if (r->probe)
    {
      /* A probe's slot is valid until a counter changes.  */
      if (s->stamp == r->tick)
        return true;
      if (r->probe->max_ops && r->probe->ops >= r->probe->max_ops)
        return ip_probe_stop (r, MP_PROBE_TOO_LONG);
      r->probe->ops++;
      te_walk_count (n->ctx, TE_WALK_INTERP, 1);
      if (!r->hooks->node (r, n, s))
        return false;
      s->stamp = r->tick;
      return true;
    }
  if (valid (r, s))
    return true;
  te_walk_count (n->ctx, TE_WALK_INTERP, 1);
  bool ok;
  if (te_type_is_float (n->type))
    {
      if (!s->has_f)
        {
          mpfr_init2 (s->f, type_prec (r, n->type));
          s->has_f = true;
        }
      ok = eval_float (r, n, s);
    }
  else
    ok = ip_eval_int (r, n, s);
  if (ok)
    s->stamp = r->scope[r->depth];
  return ok;
}

bool
ip_eval (run *r, const te_node *n)
{
  return eval (r, n);
}

/* ---- statements and stages --------------------------------------------- */

/* Store VALUE (node) into element E of tensor T per OP.  */
static bool
store (run *r, const te_tensor *t, mpfr_ptr e, te_store op,
       const te_node *value)
{
  bool vf = te_type_is_float (value->type);
  mpfr_srcptr v = vf ? F (value) : r->conv;
  if (!vf)
    mpfr_set_sj (r->conv, I (value), MPFR_RNDN);
  if (!te_type_is_float (t->type))
    {
      if (vf)
        return ip_fail (r, TE_DIAG_INTERNAL, "floating value stored to integer array "
                        "'%s'", t->name);
      return op == TE_SET ? (mpfr_set (e, v, MPFR_RNDN), true)
                          : (mpfr_add (e, e, v, MPFR_RNDN), true);
    }
  if (!r->env->round)
    {
      if (op == TE_SET)
        mpfr_set (e, v, MPFR_RNDN);
      else
        mpfr_add (e, e, v, MPFR_RNDN);
      return true;
    }
  mpfr_ptr x = t->type == TE_F32 ? r->tmp24 : r->tmp53;
  int inex = op == TE_SET ? mpfr_set (x, v, MPFR_RNDN)
                          : mpfr_add (x, e, v, MPFR_RNDN);
  fit_type (r, x, inex, t->type);
  mpfr_set (e, x, MPFR_RNDN);
  return true;
}

static bool
exec_stmt (run *r, const te_stmt *st)
{
  r->loc = st->loc;
  if (r->probe)
    return r->hooks->stmt (r, st);
  r->scope[0] = ++r->tick;
  if (st->guard)
    {
      if (!eval (r, st->guard))
        return false;
      if (te_type_is_float (st->guard->type))
        return ip_fail (r, TE_DIAG_INTERNAL, "floating guard");
      if (!I (st->guard))
        return true;
    }
  if (!eval (r, st->index) || !eval (r, st->value))
    return false;
  if (te_type_is_float (st->index->type))
    return ip_fail (r, TE_DIAG_INTERNAL, "floating index");
  if (st->dst->kind == TE_TK_SCALAR)
    return ip_fail (r, TE_DIAG_INTERNAL, "store to by-value parameter '%s'",
                    st->dst->name);
  mpfr_ptr e;
  if (!element (r, st->dst, I (st->index), &e))
    return false;
  return !e || store (r, st->dst, e, st->op, st->value);
}

/* Run BODY (R, DATA) for every point of LOOPS[K..NLOOPS-1], outermost
   first, from the last value down when REVERSED.  */
static bool
run_loops (run *r, int nloops, const te_loop *loops, int k, bool reversed,
           bool (*body) (run *, const void *), const void *data)
{
  if (k == nloops)
    return body (r, data);
  const te_loop *l = &loops[k];
  r->scope[0] = ++r->tick;
  int64_t extent, start = 0;
  if (!loop_extent (r, l, "loop", &extent))
    return false;
  if (l->start)
    {
      /* clip.c's first iteration (never on a reversed loop).  */
      if (reversed)
        return ip_fail (r, TE_DIAG_INTERNAL, "a reversed loop with a start");
      if (!eval (r, l->start))
        return false;
      if (r->probe && !r->slots[l->start->id].known)
        return ip_probe_stop (r, MP_PROBE_FLOAT_EXTENT);
      start = I (l->start);
    }
  bool ok = true;
  r->bound[l->var] = true;
  for (int64_t i = start; ok && i < extent; i++)
    {
      r->var[l->var] = reversed ? extent - 1 - i : i;
      r->tick++; /* a probe's slots are stale */
      ok = run_loops (r, nloops, loops, k + 1, reversed, body, data);
    }
  r->bound[l->var] = false;
  r->tick++;
  return ok;
}

static bool
exec_body (run *r, const void *data)
{
  return exec_stmt (r, data);
}

/* Statement ST over its own inner loops.  */
static bool
stmt_nest (run *r, const void *data)
{
  const te_stmt *st = data;
  return run_loops (r, st->ninner, st->inner, 0, false, exec_body, st);
}

/* Statements FIRST .. FIRST + N - 1 of stage S, one nest of their loops
   (te_lower_run).  */
typedef struct stmt_run
{
  const te_stage *s;
  int first, n;
} stmt_run;

/* One iteration of the nest of run DATA: each statement not skipped.  */
static bool
run_body (run *r, const void *data)
{
  const stmt_run *x = data;
  for (int i = x->first; i < x->first + x->n; i++)
    if (!r->skip[i] && !exec_stmt (r, &x->s->stmts[i]))
      return false;
  return true;
}

/* Every statement of stage DATA not skipped, in order, those of a run in
   one nest of their loops, as the lowering has them.  */
static bool
all_stmts (run *r, const void *data)
{
  const te_stage *s = data;
  for (int i = 0; i < s->nstmts; i += r->runs[i])
    {
      const te_stmt *st = &s->stmts[i];
      stmt_run x = { s, i, r->runs[i] };
      if (x.n > 1
              ? !run_loops (r, st->ninner, st->inner, 0, false, run_body, &x)
              : !r->skip[i] && !stmt_nest (r, st))
        return false;
    }
  return true;
}


/* Should statement ST be skipped for a NULL nullable tensor?  */
typedef struct null_query
{
  const mp_env *env;
  const te_stmt *st;
  bool skip;
} null_query;

static void
null_read_fn (te_node *n, void *data)
{
  null_query *q = data;
  const te_tensor *t = n->op == TE_LOAD ? n->u.tensor : NULL;
  if (t && t->nullable && !ip_find_storage (q->env, t)
      && te_lower_skips (q->st, t))
    q->skip = true;
}

/* Stage S: each statement over the whole nest in turn, or, when the
   stage is fused or recurrent, every statement in each iteration.  */
static bool
run_stage (run *r, const te_stage *s)
{
  if (s->call)
    return ip_fail (r, TE_DIAG_USER, "cannot interpret a call of '%s'",
                    s->call->grad ? s->call->grad_name : s->call->name);
  if (r->probe)
    {
      /* Each statement on its own, upwards, none skipped (interp.h).  */
      bool ok = true;
      r->loc = s->loc;
      for (int i = 0; ok && i < s->nstmts; i++)
        ok = run_loops (r, s->nloops, s->loops, 0, false, stmt_nest,
                        &s->stmts[i]);
      return ok;
    }
  bool *skip = calloc (s->nstmts ? s->nstmts : 1, sizeof *skip);
  int *runs = calloc (s->nstmts ? s->nstmts : 1, sizeof *runs);
  if (!skip || !runs)
    {
      free (skip);
      free (runs);
      return ip_fail (r, TE_DIAG_INTERNAL, "out of memory");
    }
  for (int i = 0; i < s->nstmts; i += runs[i])
    runs[i] = te_lower_run (s, i);
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *st = &s->stmts[i];
      null_query q = { r->env, st,
                       (st->dst->nullable
                        && !ip_find_storage (r->env, st->dst))
                           || (st->dst->primal
                               && !ip_find_storage (r->env,
                                                    st->dst->primal)) };
      te_walk (st->value, null_read_fn, &q);
      if (st->guard)
        te_walk (st->guard, null_read_fn, &q);
      skip[i] = q.skip;
    }
  r->skip = skip;
  r->runs = runs;
  r->loc = s->loc;
  bool ok = true;
  if (s->fused || s->recurrent)
    ok = run_loops (r, s->nloops, s->loops, 0, s->reversed, all_stmts, s);
  else
    for (int i = 0; ok && i < s->nstmts; i++)
      if (!skip[i])
        ok = run_loops (r, s->nloops, s->loops, 0, s->reversed, stmt_nest,
                        &s->stmts[i]);
  r->skip = NULL;
  r->runs = NULL;
  free (skip);
  free (runs);
  return ok;
}

/* Stages FIRST..FIRST + N - 1 of a group (te_stage.group).  */
typedef struct group_run
{
  const te_stage *first;
  int n;
} group_run;

/* One iteration of a group's loop: each stage with its other loops.  */
static bool
group_body (run *r, const void *data)
{
  const group_run *g = data;
  bool ok = true;
  for (int i = 0; ok && i < g->n; i++)
    {
      te_stage s = te_stage_in_group (&g->first[i]);
      ok = run_stage (r, &s);
    }
  return ok;
}

/* The group of stages from S[0] on, N of them: their first loop once
   around them all.  */
static bool
run_group (run *r, const te_stage *s, int n)
{
  group_run g = { s, n };
  r->loc = s->loc;
  return run_loops (r, 1, s->loops, 0, false, group_body, &g);
}

/* ---- the run ----------------------------------------------------------- */

/* The elements of static variable T, from its initializer, unless the
   caller gave them.  */
static bool
allocate_static (run *r, const te_tensor *t)
{
  if (ip_find_storage (r->env, t))
    return true;
  if (!t->init)
    return ip_fail (r, TE_DIAG_USER, "the value of '%s' is known only when "
                    "the program runs", t->name);
  size_t n = (size_t) t->size->u.i;
  mpfr_t *d = mp_env_tensor (r->env, t, n);
  if (!d)
    return ip_fail (r, TE_DIAG_INTERNAL, "out of memory");
  for (size_t k = 0; k < n; k++)
    mpfr_set_d (d[k], t->init[k], MPFR_RNDN);
  return true;
}

/* Step 2: allocate the locals (zeroed), the return value and the static
   variables (their initial values) of P.  */
static bool
allocate (run *r, const te_program *p)
{
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      r->loc = t->loc;
      if (t->kind == TE_TK_RETURN && !ip_find_storage (r->env, t)
          && !mp_env_tensor (r->env, t, 1))
        return ip_fail (r, TE_DIAG_INTERNAL, "out of memory");
      if (t->kind == TE_TK_STATIC && !allocate_static (r, t))
        return false;
      if (t->kind != TE_TK_LOCAL)
        continue;
      if (!t->size)
        return ip_fail (r, TE_DIAG_INTERNAL, "local array '%s' has no size", t->name);
      r->scope[0] = ++r->tick;
      if (!eval (r, t->size))
        return false;
      if (te_type_is_float (t->size->type) || I (t->size) < 0)
        return ip_fail (r, TE_DIAG_USER, "local array '%s' has a bad size", t->name);
      size_t n = (size_t) I (t->size);
      mpfr_t *d = mp_env_tensor (r->env, t, n);
      if (!d)
        return ip_fail (r, TE_DIAG_INTERNAL, "out of memory");
      for (size_t k = 0; k < n; k++)
        mpfr_set_zero (d[k], 1);
    }
  return true;
}

/* Does ENV serve P: same context, P's parameters a prefix of its own?  */
static bool
serves (const mp_env *env, const te_program *p)
{
  if (p->ctx != env->prog->ctx || p->nparams > env->nparams)
    return false;
  for (int i = 0; i < p->nparams; i++)
    if (p->params[i].kind != env->prog->params[i].kind)
      return false;
  return true;
}

/* The first of P's requirements of its sizes (te_require) that does not
   hold at R's integer parameters into *FAILED, or -1; false on an error
   of R.  */
static bool
requires_failed (run *r, const te_program *p, int *failed)
{
  r->scope[0] = ++r->tick;
  *failed = -1;
  for (int i = 0; i < p->nrequires && *failed < 0; i++)
    {
      if (!eval (r, p->requires[i].gap))
        return false;
      if (I (p->requires[i].gap) < 0)
        *failed = i;
    }
  return true;
}

/* Do they all hold?  If not, R fails as f_grad would.  */
static bool
requires_met (run *r, const te_program *p)
{
  int failed;
  if (!requires_failed (r, p, &failed))
    return false;
  if (failed < 0)
    return true;
  const te_require *q = &p->requires[failed];
  return ip_fail (r, TE_DIAG_USER, "%s", te_require_text (p, q, "the"));
}

bool
mp_requires_failed (mp_env *env, const te_program *p, int *failed,
                    te_diag *diag)
{
  run r;
  memset (&r, 0, sizeof r);
  r.env = env;
  r.p = p;
  r.diag = diag;
  r.tick = 1;
  if (!serves (env, p))
    return te_diag_set (diag, TE_DIAG_INTERNAL, 0,
                        "interpreter: the environment of '%s' cannot run "
                        "'%s'",
                        env->prog->name, p->name);
  mpfr_inits2 (24, r.tmp24, (mpfr_ptr) 0);
  mpfr_inits2 (53, r.tmp53, (mpfr_ptr) 0);
  mpfr_inits2 (64, r.conv, (mpfr_ptr) 0);
  bool ok = (ip_run_alloc (&r, p)
             || ip_fail (&r, TE_DIAG_INTERNAL, "out of memory"))
            && requires_failed (&r, p, failed);
  ip_run_free (&r);
  return ok;
}

bool
ip_run_program (mp_env *env, const te_program *p, te_diag *diag,
                mp_probe *probe, const ip_probe_hooks *hooks,
                mp_probe_stop *stop)
{
  run r;
  memset (&r, 0, sizeof r);
  r.env = env;
  r.p = p;
  r.diag = diag;
  r.probe = probe;
  r.hooks = hooks;
  r.tick = 1; /* no slot is valid */
  if (!serves (env, p))
    return te_diag_set (diag, TE_DIAG_INTERNAL, 0,
                        "interpreter: the environment of '%s' cannot run "
                        "'%s'",
                        env->prog->name, p->name);
  mpfr_flags_t flags = mpfr_flags_save ();
  mpfr_exp_t emin = mpfr_get_emin (), emax = mpfr_get_emax ();
  mpfr_set_emin (MP_EMIN);
  mpfr_set_emax (MP_EMAX);
  mpfr_inits2 (24, r.tmp24, (mpfr_ptr) 0);
  mpfr_inits2 (53, r.tmp53, (mpfr_ptr) 0);
  mpfr_inits2 (64, r.conv, (mpfr_ptr) 0);
  bool ok = (ip_run_alloc (&r, p)
             || ip_fail (&r, TE_DIAG_INTERNAL, "out of memory"));
  ok = ok && (probe || (requires_met (&r, p) && allocate (&r, p)));
  for (int s = 0; ok && s < p->nstages; s++)
    {
      /* A probe runs each statement on its own (interp.h).  */
      int n = probe ? 1 : te_program_group (p, s);
      ok = p->stages[s].group && !probe ? run_group (&r, &p->stages[s], n)
                                        : run_stage (&r, &p->stages[s]);
      s += n - 1;
    }
  ip_run_free (&r);
  mpfr_set_emin (emin);
  mpfr_set_emax (emax);
  mpfr_flags_restore (flags, MPFR_FLAGS_ALL);
  if (stop)
    *stop = ok ? MP_PROBE_DONE
               : r.stop != MP_PROBE_DONE ? r.stop : MP_PROBE_ERROR;
  return ok;
}

bool
mp_run (mp_env *env, const te_program *p, te_diag *diag)
{
  return ip_run_program (env, p, diag, NULL, NULL, NULL);
}

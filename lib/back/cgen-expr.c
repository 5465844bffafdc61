/* cgen-expr.c -- TE expressions as C expressions, for the C writer
   (cgen.c, steps 4 and 5 of its design).

   Before:  v2[i] = sum (j < m) x[j] * w[j + i*m]
   After:   statements before the store, and the expression acc:
                double acc = 0.0;
                for (long j = 0; j < m; j++)
                  acc += x[j] * w[j + i * m];
            v2[i] = acc;

   1. cg_render gives a node's text with its C precedence and C type (a
      cx).  An operand is parenthesized when C's precedence or
      -Wparentheses asks for it, and cast when C's conversions would not
      compute in the node's type.
   2. A reduction is printed as statements into the enclosing block (an
      accumulator and its loop nest, cg_emit_loops) and rendered as the
      accumulator's name, remembered for the rest of the scope.
   3. A select whose arm needs statements becomes if/else into a
      temporary, so that only the chosen arm runs.

   Limits: an operation with no C spelling (a floating %, an integer
   math function) fails the whole print with a diagnostic that names
   it.  */

#include "back/cgen-expr.h"

#include <stdint.h>

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- C expressions ----------------------------------------------------- */

cx
cx_make (int prec, int ctype, const char *fmt, ...)
{
  sbuf b = { 0 };
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (&b, fmt, ap);
  va_end (ap);
  cx e = { sb_take (&b), prec, ctype };
  return e;
}

/* Parenthesize E unless its precedence is at least MIN.  */
void
cx_paren (cx *e, int min)
{
  if (e->prec >= min)
    return;
  cx p = cx_make (P_PRIMARY, e->ctype, "(%s)", e->s);
  free (e->s);
  *e = p;
}

/* The type in declarations and casts.  */
const char *
cg_c_type (te_type t, bool cast)
{
  switch (t)
    {
    case TE_BOOL:
      return cast ? "_Bool" : "int";
    case TE_I32:
      return "int";
    case TE_U32:
      return "unsigned int";
    case TE_I64:
      return "long";
    case TE_F32:
      return "float";
    case TE_F64:
      return "double";
    }
  return "int";
}

/* Does C convert a value of C type FROM to TO without changing it?  */
bool
cg_widens (int from, int to)
{
  return from == to || from == CT_ADAPT
         || ((from == TE_I32 || from == TE_BOOL) && to == TE_I64)
         || (from == TE_BOOL && to == TE_I32);
}

/* E converted to type WANT: as it is when it has that type (or, if
   IMPLICIT, when C's conversions keep its value), else cast.  */
void
cx_conform (cx *e, te_type want, bool implicit)
{
  if (e->ctype == (int) want || e->ctype == CT_ADAPT
      || (implicit && cg_widens (e->ctype, want)))
    return;
  cx_paren (e, P_UNARY);
  cx c = cx_make (P_UNARY, want, "(%s) %s", cg_c_type (want, true), e->s);
  free (e->s);
  *e = c;
}

/* ---- expressions ------------------------------------------------------- */

static cx
float_const (te_type t, double v)
{
  if (isnan (v))
    return t == TE_F32 ? cx_make (P_PRIMARY, t, "NAN")
                       : cx_make (P_UNARY, t, "(double) NAN");
  if (isinf (v))
    return cx_make (v < 0 ? P_UNARY : P_PRIMARY, t, "%s%s", v < 0 ? "-" : "",
                    t == TE_F32 ? "INFINITY" : "HUGE_VAL");
  char buf[64];
  for (int d = 1; d <= 17; d++)
    {
      snprintf (buf, sizeof buf, "%.*g", d, v);
      if (t == TE_F32 ? strtof (buf, NULL) == (float) v
                      : strtod (buf, NULL) == v)
        break;
    }
  bool point = strpbrk (buf, ".e") != NULL;
  return cx_make (v < 0 || signbit (v) ? P_UNARY : P_PRIMARY, t, "%s%s%s",
                  buf, point ? "" : ".0", t == TE_F32 ? "f" : "");
}

static cx
int_const (te_type t, int64_t v)
{
  int prec = v < 0 ? P_UNARY : P_PRIMARY;
  switch (t)
    {
    case TE_BOOL:
      return cx_make (P_PRIMARY, CT_ADAPT, "%d", v != 0);
    case TE_U32:
      return cx_make (P_PRIMARY, t, "%" PRIu32 "u", (uint32_t) v);
    case TE_I32:
    case TE_I64:
      if (v == INT32_MIN && t == TE_I32)
        return cx_make (P_PRIMARY, t, "(-2147483647 - 1)");
      if (v >= INT_MIN && v <= INT_MAX)
        return cx_make (prec, t == TE_I32 ? (int) t : CT_ADAPT, "%" PRId64, v);
      if (v == INT64_MIN)
        return cx_make (P_PRIMARY, t, "(-9223372036854775807L - 1)");
      return cx_make (prec, t, "%" PRId64 "L", v);
    case TE_F32:
    case TE_F64:
      break;
    }
  return float_const (t, (double) v);
}

static cx
leaf (cgen *g, const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
      return te_type_is_float (n->type) ? float_const (n->type, n->u.f)
                                        : int_const (n->type, n->u.i);
    case TE_PARAM:
      {
        int k = n->u.index;
        if (k < 0 || k >= g->p->nparams)
          return cg_fail (g, "reference to a parameter", "?");
        g->used[k] = true;
        cx e = cx_make (P_PRIMARY, cg_param_ctype (g, k), "%s", g->pname[k]);
        cx_conform (&e, n->type, true);
        return e;
      }
    case TE_VAR:
      if (n->u.index < 0 || n->u.index >= g->p->nvars
          || !g->bound[n->u.index])
        return cg_fail (g, "counter outside its loop", "?");
      return cx_make (P_PRIMARY, TE_I64, "%s", cg_var_name (g, n->u.index));
    default:
      return cg_fail (g, "operation", te_op_name (n->op));
    }
}

static cx
load (cgen *g, block *out, const te_node *n)
{
  const te_tensor *t = n->u.tensor;
  if (t->kind == TE_TK_SCALAR)
    {
      if (t->param < 0 || t->param >= g->p->nparams)
        return cg_fail (g, "scalar without a parameter", t->name);
      g->used[t->param] = true;
      return cx_make (P_PRIMARY, t->type, "%s", g->pname[t->param]);
    }
  const char *base = cg_tensor_base (g, t);
  if (!base)
    return cg_fail (g, "tensor without storage", t->name);
  cx i = cg_render (g, out, n->args[0]);
  cx e = cx_make (P_PRIMARY, t->type, "%s[%s]", base, i.s);
  free (i.s);
  for (int k = 0; k < g->ncond; k++)
    if (g->cond[k] == t)
      {
        cx z = float_const (t->type, 0);
        cx c = cx_make (P_COND, t->type, "%s ? %s : %s", base, e.s, z.s);
        free (z.s);
        free (e.s);
        return c;
      }
  return e;
}

/* A binary operator SYM of precedence PREC, left-associative.  */
static cx
infix (cgen *g, block *out, const te_node *n, const char *sym, int prec)
{
  cx a = cg_render (g, out, n->args[0]), b = cg_render (g, out, n->args[1]);
  bool arith = prec >= P_ADD && !te_type_is_float (n->type);
  if (arith && a.ctype != (int) n->type && b.ctype != (int) n->type)
    {
      /* Compute in the node's type, not in a narrower one.  */
      if (a.ctype != CT_ADAPT || b.ctype == CT_ADAPT)
        cx_conform (&a, n->type, false);
      else
        cx_conform (&b, n->type, false);
    }
  int min = prec;
  if (prec == P_EQ || prec == P_REL)
    min = P_ADD; /* -Wparentheses: no comparison of comparisons */
  else if (prec == P_AND || prec == P_OR)
    min = P_EQ;  /* -Wparentheses: && inside || */
  if (n->args[0]->op == TE_NOT && min == P_ADD)
    a.prec = 0;  /* -Wlogical-not-parentheses */
  bool same_left = (prec == P_AND || prec == P_OR)
                   && n->args[0]->op == n->op;
  if (!same_left)
    cx_paren (&a, min);
  cx_paren (&b, min + (min == prec));
  int ct = prec <= P_REL ? TE_BOOL : (int) n->type;
  cx e = cx_make (prec, ct, "%s %s %s", a.s, sym, b.s);
  free (a.s);
  free (b.s);
  return e;
}

/* The C type of C ? A : B.  */
static int
cond_ctype (te_type t, const cx *a, const cx *b)
{
  if (a->ctype == (int) t || b->ctype == (int) t)
    return t;
  if (a->ctype == b->ctype || b->ctype == CT_ADAPT)
    return a->ctype;
  return a->ctype == CT_ADAPT ? b->ctype : (int) t;
}

/* min and max as emit.cc's: a <= b ? a : b, a >= b ? a : b.  */
static cx
choose (cgen *g, block *out, const te_node *n, const char *cmp)
{
  cx a = cg_render (g, out, n->args[0]), b = cg_render (g, out, n->args[1]);
  cx_paren (&a, P_ADD);
  cx_paren (&b, P_ADD);
  cx e = cx_make (P_COND, cond_ctype (n->type, &a, &b), "%s %s %s ? %s : %s",
                  a.s, cmp, b.s, a.s, b.s);
  free (a.s);
  free (b.s);
  return e;
}

typedef struct red_query
{
  const cgen *g;
  bool found;
} red_query;

static void
new_red_fn (te_node *n, void *data)
{
  red_query *q = data;
  if (n->op == TE_REDUCE && !cg_memo_find (q->g, n))
    q->found = true;
}

/* Does printing N need statements before it (a reduction not yet
   computed)?  */
static bool
needs_stmts (const cgen *g, const te_node *n)
{
  red_query q = { g, false };
  te_walk ((te_node *) n, new_red_fn, &q);
  return q.found;
}

/* One arm of a select printed as statements: T = value.  */
static block
arm (cgen *g, const te_node *n, const char *t)
{
  block b = { { 0 }, 0 };
  cg_scope_enter (g);
  cg_bind_shared (g, &b, &n, 1, false);
  cx x = cg_render (g, &b, n);
  blk_stmt (&b, "%s = %s;", t, x.s);
  free (x.s);
  cg_scope_leave (g);
  return b;
}

/* C ? A : B, evaluating only the chosen arm.  */
static cx
select_expr (cgen *g, block *out, const te_node *n)
{
  cx c = cg_render (g, out, n->args[0]);
  /* An arm with subexpressions of its own to share is printed as
     statements, so that they are computed once and only there.  */
  if (!needs_stmts (g, n->args[1]) && !needs_stmts (g, n->args[2])
      && !cg_bind_shared (g, out, (const te_node *const *) &n->args[1], 1, true)
      && !cg_bind_shared (g, out, (const te_node *const *) &n->args[2], 1, true))
    {
      g->inline_arms++;
      cx a = cg_render (g, out, n->args[1]);
      cx b = cg_render (g, out, n->args[2]);
      g->inline_arms--;
      cx_paren (&c, P_OR);
      cx_paren (&a, P_OR);
      cx_paren (&b, P_OR);
      cx e = cx_make (P_COND, cond_ctype (n->type, &a, &b), "%s ? %s : %s",
                      c.s, a.s, b.s);
      free (a.s);
      free (b.s);
      free (c.s);
      return e;
    }
  const char *t = cg_take_name (g, "t");
  blk_stmt (out, "%s %s;", cg_c_type (n->type, false), t);
  block a = arm (g, n->args[1], t), b = arm (g, n->args[2], t);
  blk_if_else (out, c.s, &a, &b);
  free (c.s);
  return cx_make (P_PRIMARY, n->type, "%s", t);
}

static cx
unary (cgen *g, block *out, const te_node *n, const char *sym)
{
  cx a = cg_render (g, out, n->args[0]);
  if (n->op == TE_NEG && !te_type_is_float (n->type))
    cx_conform (&a, n->type, false);
  cx_paren (&a, P_UNARY);
  if (n->op == TE_NEG && a.s[0] == '-')
    {
      a.prec = 0;
      cx_paren (&a, P_UNARY); /* not --x */
    }
  cx e = cx_make (P_UNARY, n->op == TE_NOT ? TE_BOOL : a.ctype, "%s%s", sym,
                  a.s);
  free (a.s);
  return e;
}

static cx
cast (cgen *g, block *out, const te_node *n)
{
  cx a = cg_render (g, out, n->args[0]);
  if (a.ctype == (int) n->type)
    return a;
  cx_paren (&a, P_UNARY);
  cx e = cx_make (P_UNARY, n->type, "(%s) %s", cg_c_type (n->type, true), a.s);
  free (a.s);
  return e;
}

static cx
math_call (cgen *g, block *out, const te_node *n)
{
  if (!te_type_is_float (n->type))
    return cg_fail (g, "integer math function", te_op_name (n->op));
  const char *f = n->type == TE_F32 ? "f" : "";
  cx a = cg_render (g, out, n->args[0]);
  cx e;
  if (te_op_arity (n->op) == 1)
    e = cx_make (P_PRIMARY, n->type, "%s%s (%s)", te_op_name (n->op), f, a.s);
  else
    {
      cx b = cg_render (g, out, n->args[1]);
      e = cx_make (P_PRIMARY, n->type, "%s%s (%s, %s)", te_op_name (n->op), f,
                   a.s, b.s);
      free (b.s);
    }
  free (a.s);
  return e;
}

/* ---- loops and reductions ---------------------------------------------- */

/* NLOOPS LOOPS, outermost first, around what FN prints; the extents are
   evaluated where emit.cc evaluates them, before each loop.  */
void
cg_emit_loops (cgen *g, block *out, int nloops, const te_loop *loops,
               bool reversed, body_fn fn, const void *arg)
{
  if (nloops == 0)
    {
      fn (g, out, arg);
      return;
    }
  int v = loops[0].var;
  if (v < 0 || v >= g->p->nvars)
    {
      cg_fail (g, "loop counter", "?");
      return;
    }
  cx ext = cg_render (g, out, loops[0].extent);
  if (!cg_widens (ext.ctype, TE_I64))
    cx_conform (&ext, TE_I64, false);
  cx_paren (&ext, P_ADD);
  const char *name = cg_var_name (g, v);
  block body = { { 0 }, 0 };
  cg_scope_enter (g);
  g->bound[v] = true;
  cg_emit_loops (g, &body, nloops - 1, loops + 1, reversed, fn, arg);
  g->bound[v] = false;
  cg_scope_leave (g);
  sbuf head = { 0 };
  if (reversed)
    sb_printf (&head, "for (long %s = %s - 1; %s >= 0; %s--)", name, ext.s,
               name, name);
  else
    sb_printf (&head, "for (long %s = 0; %s < %s; %s++)", name, name, ext.s,
               name);
  blk_compound (out, head.s, &body);
  free (head.s);
  free (ext.s);
}

typedef struct red_arg
{
  const te_node *n;
  const char *acc;
} red_arg;

/* One step of a reduction: acc = acc op t.  */
static void
red_step (cgen *g, block *out, const void *arg)
{
  const red_arg *r = arg;
  const te_node *n = r->n, *body = n->args[1];
  cg_bind_shared (g, out, &body, 1, false);
  cx t = cg_render (g, out, body);
  switch (n->u.red.kind)
    {
    case TE_RED_SUM:
      blk_stmt (out, "%s += %s;", r->acc, t.s);
      break;
    case TE_RED_PROD:
      blk_stmt (out, "%s *= %s;", r->acc, t.s);
      break;
    case TE_RED_MAX:
    case TE_RED_MIN:
      {
        const char *v = t.s;
        bool simple = t.prec == P_PRIMARY
                      && (body->op == TE_LOAD || body->op == TE_VAR
                          || body->op == TE_PARAM || body->op == TE_CONST);
        if (!simple)
          {
            v = cg_take_name (g, "t");
            blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), v, t.s);
          }
        block then = { { 0 }, 0 };
        blk_stmt (&then, "%s = %s;", r->acc, v);
        sbuf head = { 0 };
        sb_printf (&head, "if (%s %s %s)", v,
                   n->u.red.kind == TE_RED_MAX ? ">" : "<", r->acc);
        blk_compound (out, head.s, &then);
        free (head.s);
        break;
      }
    }
  free (t.s);
}

/* Reduction N as an accumulator computed by statements in OUT.  */
static cx
reduction (cgen *g, block *out, const te_node *n)
{
  const char *done = cg_memo_find (g, n);
  if (done)
    return cx_make (P_PRIMARY, n->type, "%s", done);
  cx init = cg_render (g, out, n->args[0]);
  const char *acc = cg_take_name (g, "acc");
  blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), acc, init.s);
  free (init.s);
  red_arg r = { n, acc };
  cg_emit_loops (g, out, n->u.red.nloops, n->u.red.loops, false, red_step, &r);
  cg_memo_add (g, n, acc);
  return cx_make (P_PRIMARY, n->type, "%s", acc);
}

/* Is N a negative constant whose negation is exact?  */
static bool
negative_const (const te_node *n)
{
  if (n->op != TE_CONST)
    return false;
  if (te_type_is_float (n->type))
    return !isnan (n->u.f) && signbit (n->u.f) && n->u.f != 0;
  return n->u.i < 0 && n->u.i > INT32_MIN;
}

/* A + C for a negative constant C, as A - -C: the same in IEEE
   arithmetic (x - y is x + -y) and in integers.  */
static cx
minus_const (cgen *g, block *out, const te_node *n)
{
  const te_node *c = n->args[1];
  cx a = cg_render (g, out, n->args[0]);
  cx b = te_type_is_float (c->type) ? float_const (c->type, -c->u.f)
                                    : int_const (c->type, -c->u.i);
  if (!te_type_is_float (n->type) && a.ctype != (int) n->type
      && b.ctype != (int) n->type)
    cx_conform (&a, n->type, false);
  cx_paren (&a, P_ADD);
  cx_paren (&b, P_ADD + 1);
  cx e = cx_make (P_ADD, n->type, "%s - %s", a.s, b.s);
  free (a.s);
  free (b.s);
  return e;
}

/* N as a C expression, N not bound to a local.  */
static cx
render_1 (cgen *g, block *out, const te_node *n)
{
  te_walk_count (n->ctx, TE_WALK_CGEN, 1);
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
      return leaf (g, n);
    case TE_LOAD:
      return load (g, out, n);
    case TE_NEG:
      return unary (g, out, n, "-");
    case TE_NOT:
      return unary (g, out, n, "!");
    case TE_ADD:
      if (negative_const (n->args[1]))
        return minus_const (g, out, n);
      return infix (g, out, n, "+", P_ADD);
    case TE_SUB:
      return infix (g, out, n, "-", P_ADD);
    case TE_MUL:
      return infix (g, out, n, "*", P_MUL);
    case TE_DIV:
      return infix (g, out, n, "/", P_MUL);
    case TE_MOD:
      if (te_type_is_float (n->type))
        return cg_fail (g, "operation", "floating %");
      return infix (g, out, n, "%", P_MUL);
    case TE_LT:
      return infix (g, out, n, "<", P_REL);
    case TE_LE:
      return infix (g, out, n, "<=", P_REL);
    case TE_GT:
      return infix (g, out, n, ">", P_REL);
    case TE_GE:
      return infix (g, out, n, ">=", P_REL);
    case TE_EQ:
      return infix (g, out, n, "==", P_EQ);
    case TE_NE:
      return infix (g, out, n, "!=", P_EQ);
    case TE_AND:
      return infix (g, out, n, "&&", P_AND);
    case TE_OR:
      return infix (g, out, n, "||", P_OR);
    case TE_MIN:
      return choose (g, out, n, "<=");
    case TE_MAX:
      return choose (g, out, n, ">=");
    case TE_CAST:
      return cast (g, out, n);
    case TE_SELECT:
      return select_expr (g, out, n);
    TE_CASE_MATH:
      return math_call (g, out, n);
    case TE_REDUCE:
      return reduction (g, out, n);
    case TE_NUM_OPS:
      break;
    }
  return cg_fail (g, "operation", te_op_name (n->op));
}

/* The longest expression cg_render returns as text, in characters.  */
#define LONG_EXPR 2000

/* N as a C expression; statements it needs first go to OUT.  */
cx
cg_render (cgen *g, block *out, const te_node *n)
{
  if (n->op != TE_REDUCE && n->op != TE_CONST && n->op != TE_PARAM
      && n->op != TE_VAR)
    {
      const char *name = cg_memo_find (g, n);
      if (name)
        return cx_make (P_PRIMARY, n->type, "%s", name);
    }
  cx x = render_1 (g, out, n);
  /* A long expression goes into a local: a chain of thousands of terms
     printed as one expression would copy its text once per term.  */
  if (strlen (x.s) > LONG_EXPR && !g->inline_arms && n->op != TE_REDUCE
      && n->type != TE_BOOL && !g->failed)
    {
      if (x.ctype != (int) n->type)
        cx_conform (&x, n->type, false);
      const char *name = cg_take_name (g, "s");
      blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), name, x.s);
      free (x.s);
      cg_memo_add (g, n, name);
      return cx_make (P_PRIMARY, n->type, "%s", name);
    }
  return x;
}

/* Nothing to compute for N: a leaf, or computed already.  */
static bool
bound_leaf (const cgen *g, const te_node *n)
{
  return !n || n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR
         || cg_memo_find (g, n);
}

/* Walk of cg_bind_shared: count the uses of the distinct nodes below N
   in USES (value: count plus one), list them in post-order.  */
static void
count_shared (const cgen *g, const te_node *n, te_memo *uses,
              const te_node ***order, int *norder, int *cap)
{
  if (bound_leaf (g, n))
    return;
  intptr_t u = (intptr_t) te_memo_get (uses, n);
  te_memo_put (uses, n, (void *) (u ? u + 1 : 2));
  if (u)
    return;
  te_walk_count (n->ctx, TE_WALK_CGEN, 1);
  for (int k = 0; k < te_op_arity (n->op); k++)
    count_shared (g, n->args[k], uses, order, norder, cap);
  if (*norder == *cap)
    {
      *cap = *cap ? *cap * 2 : 64;
      *order = realloc (*order, *cap * sizeof **order);
      if (!*order)
        abort (); /* out of memory */
    }
  (*order)[(*norder)++] = n;
}

/* Mark in UNC the nodes below N evaluated whenever N is: not through a
   select's arms nor a reduction's terms.  */
static void
mark_unconditional (const cgen *g, const te_node *n, te_memo *unc)
{
  if (bound_leaf (g, n) || te_memo_get (unc, n))
    return;
  te_memo_put (unc, n, TE_MEMO_TRUE);
  int arity = te_op_arity (n->op);
  if (n->op == TE_SELECT || n->op == TE_REDUCE)
    arity = 1;
  for (int k = 0; k < arity; k++)
    mark_unconditional (g, n->args[k], unc);
}

bool
cg_bind_shared (cgen *g, block *out, const te_node *const *roots,
                int nroots, bool dry)
{
  te_memo uses = { 0 }, unc = { 0 };
  const te_node **order = NULL;
  int norder = 0, cap = 0;
  bool any = false;
  for (int r = 0; r < nroots; r++)
    {
      count_shared (g, roots[r], &uses, &order, &norder, &cap);
      mark_unconditional (g, roots[r], &unc);
    }
  for (int i = 0; i < norder && !(dry && any); i++)
    {
      const te_node *n = order[i];
      if ((intptr_t) te_memo_get (&uses, n) < 3
          || (!dry && !te_memo_get (&unc, n)) || n->op == TE_REDUCE)
        continue;
      /* A load, conversion or negation of leaves is as short as a name.  */
      bool simple = n->op == TE_LOAD || n->op == TE_CAST || n->op == TE_NEG
                    || n->op == TE_NOT;
      for (int k = 0; simple && k < te_op_arity (n->op); k++)
        simple = bound_leaf (g, n->args[k]);
      if (simple)
        continue;
      any = true;
      if (dry)
        break;
      cx x = render_1 (g, out, n);
      if (x.ctype != (int) n->type)
        cx_conform (&x, n->type, false);
      const char *name = cg_take_name (g, "s");
      blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), name, x.s);
      free (x.s);
      cg_memo_add (g, n, name);
    }
  free (order);
  te_memo_free (&uses);
  te_memo_free (&unc);
  return any;
}

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
      compute in the node's type.  A node an enclosing scope computed
      is its local's name.
   2. cg_bind_scope prints the locals lib/back/lower.c bound in a scope
      (s<ID> = a shared subexpression, acc<ID> = a reduction: its
      accumulator and loop nest), as plugin/emit.cc builds them.
   3. A select the lowering marked as statements becomes if/else into a
      temporary, each arm a scope, so that only the chosen arm runs.
   4. Outside the lowering's scopes (a loop extent, a local's size) a
      reduction is printed where it is needed, a select inline.

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

void
cx_paren (cx *e, int min)
{
  if (e->prec >= min)
    return;
  cx p = cx_make (P_PRIMARY, e->ctype, "(%s)", e->s);
  free (e->s);
  *e = p;
}

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

bool
cg_widens (int from, int to)
{
  return from == to || from == CT_ADAPT
         || ((from == TE_I32 || from == TE_BOOL) && to == TE_I64)
         || (from == TE_BOOL && to == TE_I32);
}

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
        if (te_is_nonnull (n)) /* a pointer's test against NULL */
          return cx_make (P_EQ, TE_BOOL, "%s != NULL", g->pname[k]);
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

/* One arm N of a select printed as statements in scope S: T = value.  */
static block
arm (cgen *g, const te_node *n, const te_lw_scope *s, const char *t)
{
  block b = { { 0 }, 0 };
  cg_scope_enter (g);
  cg_bind_scope (g, &b, s);
  cx x = cg_render (g, &b, n);
  blk_stmt (&b, "%s = %s;", t, x.s);
  free (x.s);
  cg_scope_leave (g);
  return b;
}

/* Arm N of a select printed inside the expression, in scope S (which
   binds nothing).  */
static cx
inline_arm (cgen *g, block *out, const te_node *n, const te_lw_scope *s)
{
  cg_scope_enter (g);
  cg_lw_push (g, s);
  g->inline_arms++;
  cx a = cg_render (g, out, n);
  g->inline_arms--;
  cg_scope_leave (g);
  return a;
}

/* C ? A : B, evaluating only the chosen arm.  */
static cx
select_expr (cgen *g, block *out, const te_node *n)
{
  const te_lw_select *x = cg_lw_select (g, n);
  cx c = cg_render (g, out, n->args[0]);
  /* Outside the lowering's scopes an arm computes nothing first.  */
  if (!x || !x->stmts)
    {
      cx a = inline_arm (g, out, n->args[1], x ? x->arms[0] : NULL);
      cx b = inline_arm (g, out, n->args[2], x ? x->arms[1] : NULL);
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
  block a = arm (g, n->args[1], x->arms[0], t);
  block b = arm (g, n->args[2], x->arms[1], t);
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

/* "A && B && ..." for the N tensors TS into HEAD.  */
void
cg_nonnull_list (cgen *g, sbuf *head, const te_tensor *const *ts, int n)
{
  for (int i = 0; i < n; i++)
    {
      const char *base = cg_tensor_base (g, ts[i]);
      sb_printf (head, "%s%s", i ? " && " : "", base ? base : "?");
    }
}

/* BODY into OUT, inside "if (TS...)" when N.  */
void
cg_if_nonnull (cgen *g, block *out, const te_tensor *const *ts, int n,
               block *body)
{
  if (!n)
    {
      blk_append (out, body);
      return;
    }
  sbuf head = { 0 };
  sb_printf (&head, "if (");
  cg_nonnull_list (g, &head, ts, n);
  sb_printf (&head, ")");
  blk_compound (out, head.s, body);
  free (head.s);
}

/* The entry of statement ST or reduction RED (ACC its accumulator) in
   the partial sums of LN (made on first use, with those of the loops
   outside that ST's sums span, each the PARENT of the one inside), or
   NULL: there is no room.  ST's element is added to behind the NSKIP
   NULL tests SKIP.  */
static cg_lane_entry *
lane_entry (cgen *g, cg_lanes *ln, const te_stmt *st, const te_node *red,
            const char *acc, te_type type, const te_tensor *const *skip,
            int nskip)
{
  for (int i = 0; i < ln->nsums; i++)
    if (ln->sums[i].st == st && ln->sums[i].red == red)
      return &ln->sums[i];
  if (ln->nsums == (int) (sizeof ln->sums / sizeof ln->sums[0]))
    return NULL;
  cg_lane_entry *x = &ln->sums[ln->nsums++];
  char base[64];
  snprintf (base, sizeof base, "%s_l",
            st ? st->dst->name : acc ? acc : "sum");
  char *b = cg_sanitize (base, "sum_l");
  x->st = st;
  x->red = red;
  x->skip = skip;
  x->nskip = nskip;
  x->acc = acc;
  x->name = cg_take_name (g, b);
  x->ctype = cg_c_type (type, false);
  x->parent = NULL;
  free (b);
  if (st && st->lanes_span > ln->level && ln->outer
      && ln->outer->level == ln->level + 1)
    {
      cg_lane_entry *o = lane_entry (g, ln->outer, st, NULL, NULL, type,
                                     skip, nskip);
      x->parent = o ? o->name : NULL;
    }
  return x;
}

/* The array of partial sums that statement ST (behind the NULL tests
   G->lane_skip inside the loop) or reduction RED (the other NULL) keeps
   in the loop in lanes directly around (made on first use), or NULL:
   there is none, or ST adds to its element as usual.  */
const char *
cg_lane_sum (cgen *g, const te_stmt *st, const te_node *red, const char *acc,
             te_type type)
{
  cg_lanes *ln = g->lanes;
  if (!ln)
    return NULL;
  cg_lane_entry *x = lane_entry (g, ln, st, red, acc, type,
                                 red ? NULL : g->lane_skip,
                                 red ? 0 : g->lane_nskip);
  return x ? x->name : NULL;
}

/* The COUNT partial sums NAME[LO], NAME[LO + STRIDE], ... added
   pairwise, lanes COUNT/2 strides apart first, as vectors of the lanes
   add: ((n[0] + n[4]) + (n[2] + n[6])) + ((n[1] + n[5]) + (n[3] + n[7])).
   emit.cc's lane_total adds in the same order.  */
static void
lane_total (sbuf *out, const char *name, int lo, int stride, int count)
{
  if (count == 1)
    {
      sb_printf (out, "%s[%d]", name, lo);
      return;
    }
  sb_printf (out, "(");
  lane_total (out, name, lo, stride * 2, count / 2);
  sb_printf (out, " + ");
  lane_total (out, name, lo + stride, stride * 2, count / 2);
  sb_printf (out, ")");
}

/* The partial sums of LN, zero, into OUT before its loop.  */
static void
lane_decls (block *out, const cg_lanes *ln)
{
  for (int i = 0; i < ln->nsums; i++)
    blk_stmt (out, "%s %s[%d] = { 0 };", ln->sums[i].ctype, ln->sums[i].name,
              ln->width);
}

/* After the loop of LN, into OUT: each of its partial sums added lane by
   lane to those of the loop around (te_stmt.lanes_span), or all of them
   to its element or accumulator.  */
static void
lane_finish (cgen *g, block *out, const cg_lanes *ln)
{
  for (int i = 0; i < ln->nsums; i++)
    {
      const cg_lane_entry *x = &ln->sums[i];
      if (x->parent)
        {
          const char *l = cg_take_name (g, "l");
          block add = { { 0 }, 0 };
          blk_stmt (&add, "%s[%s] += %s[%s];", x->parent, l, x->name, l);
          sbuf head = { 0 };
          sb_printf (&head, "for (long %s = 0; %s < %d; %s++)", l, l,
                     ln->width, l);
          blk_compound (out, head.s, &add);
          free (head.s);
          continue;
        }
      sbuf total = { 0 };
      lane_total (&total, x->name, 0, 1, ln->width);
      if (x->red)
        blk_stmt (out, "%s += %s;", x->acc, total.s);
      else
        {
          cx i = cg_render (g, out, x->st->index);
          block add = { { 0 }, 0 };
          blk_stmt (&add, "%s[%s] += %s;", cg_tensor_base (g, x->st->dst),
                    i.s, total.s);
          cg_if_nonnull (g, out, x->skip, x->nskip, &add);
          free (i.s);
        }
      free (total.s);
    }
}

/* Loop LP in lanes (te_loop.lanes, lower.h) around what FN prints, with
   the sums kept in lanes declared before and added up after it.  */
static void
lanes_loop (cgen *g, block *out, const te_loop *lp, body_fn fn,
            const void *arg)
{
  int v = lp->var, w = lp->lanes;
  cx ext = cg_render (g, out, lp->extent);
  if (!cg_widens (ext.ctype, TE_I64))
    cx_conform (&ext, TE_I64, false);
  cx_paren (&ext, P_ADD);
  const char *name = cg_var_name (g, v);
  char base[64];
  snprintf (base, sizeof base, "%s%d", name, w);
  const char *blk = cg_take_name (g, base);
  const char *lane = cg_take_name (g, "l");
  cg_lanes ln = { w, lane, 1, g->spans, 0, { { 0 } } };
  cg_lanes *saved = g->lanes;
  const te_tensor *const *saved_skip = g->lane_skip;
  int saved_nskip = g->lane_nskip;
  g->lane_skip = NULL; /* tests outside this loop */
  g->lane_nskip = 0;
  block loops[2] = { { { 0 }, 0 }, { { 0 }, 0 } };
  for (int part = 0; part < 2; part++)
    {
      block body = { { 0 }, 0 };
      cg_scope_enter (g);
      g->bound[v] = true;
      g->lanes = &ln;
      blk_stmt (&body, "long %s = %s + %s;", name, blk, lane);
      fn (g, &body, arg);
      g->lanes = saved;
      g->bound[v] = false;
      cg_scope_leave (g);
      sbuf head = { 0 };
      if (part == 0 && g->p->vect_rest)
        /* As emit.cc annotates it: GCC's vectorizer, not cunrolli.  */
        blk_stmt (&loops[part], "#pragma GCC unroll 1");
      if (part == 0)
        sb_printf (&head, "for (long %s = 0; %s < %d; %s++)", lane, lane, w,
                   lane);
      else
        sb_printf (&head, "for (long %s = 0; %s + %s < %s; %s++)", lane,
                   blk, lane, ext.s, lane);
      blk_compound (&loops[part], head.s, &body);
      free (head.s);
    }
  lane_decls (out, &ln);
  if (lp->start)
    {
      cx st = cg_render (g, out, lp->start);
      blk_stmt (out, "long %s = %s;", blk, st.s);
      free (st.s);
    }
  else
    blk_stmt (out, "long %s = 0;", blk);
  sbuf head = { 0 };
  sb_printf (&head, "for (; %s + %d <= %s; %s += %d)", blk, w, ext.s, blk, w);
  blk_compound (out, head.s, &loops[0]);
  free (head.s);
  blk_append (out, &loops[1]);
  lane_finish (g, out, &ln);
  g->lane_skip = saved_skip;
  g->lane_nskip = saved_nskip;
  free (ext.s);
}

/* The extents are evaluated where emit.cc evaluates them, before each
   loop.  */
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
  cg_lanes *saved = g->lanes;
  g->lanes = NULL;
  if (nloops == 1 && loops[0].lanes > 1 && !reversed)
    {
      lanes_loop (g, out, &loops[0], fn, arg);
      g->lanes = saved;
      return;
    }
  cx ext = cg_render (g, out, loops[0].extent);
  if (!cg_widens (ext.ctype, TE_I64))
    cx_conform (&ext, TE_I64, false);
  cx_paren (&ext, P_ADD);
  cx first = { 0 };
  if (loops[0].start)
    first = cg_render (g, out, loops[0].start);
  const char *name = cg_var_name (g, v);
  block body = { { 0 }, 0 };
  /* A loop around one in lanes of the same nest: sums may span it.  */
  cg_lanes span = { loops[nloops - 1].lanes, NULL, nloops, g->spans, 0,
                    { { 0 } } };
  bool spans = loops[nloops - 1].lanes > 1 && !reversed;
  if (spans)
    g->spans = &span;
  cg_scope_enter (g);
  g->bound[v] = true;
  cg_emit_loops (g, &body, nloops - 1, loops + 1, reversed, fn, arg);
  g->bound[v] = false;
  cg_scope_leave (g);
  g->lanes = saved;
  if (spans)
    {
      g->spans = span.outer;
      lane_decls (out, &span);
    }
  sbuf head = { 0 };
  if (reversed)
    sb_printf (&head, "for (long %s = %s - 1; %s >= 0; %s--)", name, ext.s,
               name, name);
  else if (loops[0].start)
    sb_printf (&head, "for (long %s = %s; %s < %s; %s++)", name, first.s,
               name, ext.s, name);
  else
    sb_printf (&head, "for (long %s = 0; %s < %s; %s++)", name, name, ext.s,
               name);
  blk_compound (out, head.s, &body);
  if (spans)
    lane_finish (g, out, &span);
  free (head.s);
  free (ext.s);
  free (first.s);
}

typedef struct red_arg
{
  const te_node *n;
  const char *acc;
  const te_lw_scope *terms;
} red_arg;

/* One step of a reduction: acc = acc op t.  */
static void
red_step (cgen *g, block *out, const void *arg)
{
  const red_arg *r = arg;
  const te_node *n = r->n, *body = n->args[1];
  cg_bind_scope (g, out, r->terms);
  cx t = cg_render (g, out, body);
  switch (n->u.red.kind)
    {
    case TE_RED_SUM:
      {
        const char *l = cg_lane_sum (g, NULL, n, r->acc, n->type);
        if (l)
          blk_stmt (out, "%s[%s] += %s;", l, g->lanes->lane, t.s);
        else
          blk_stmt (out, "%s += %s;", r->acc, t.s);
        break;
      }
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

/* Reduction N computed by statements in OUT into accumulator ACC, its
   terms in scope TERMS (NULL: nothing bound).  */
static void
reduction_stmts (cgen *g, block *out, const te_node *n, const char *acc,
                 const te_lw_scope *terms)
{
  cx init = cg_render (g, out, n->args[0]);
  blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), acc, init.s);
  free (init.s);
  red_arg r = { n, acc, terms };
  cg_lanes *saved = g->lanes, *saved_spans = g->spans;
  g->lanes = NULL; /* a reduction of no loops sums as usual */
  g->spans = NULL;
  cg_emit_loops (g, out, n->u.red.nloops, n->u.red.loops, false, red_step, &r);
  g->lanes = saved;
  g->spans = saved_spans;
}

/* Reduction N outside the lowering's scopes, computed where it is needed
   (step 4).  */
static cx
reduction (cgen *g, block *out, const te_node *n)
{
  const char *acc = cg_take_name (g, "acc");
  reduction_stmts (g, out, n, acc, NULL);
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

cx
cg_render (cgen *g, block *out, const te_node *n)
{
  if (n->op != TE_CONST && n->op != TE_PARAM && n->op != TE_VAR)
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
      const char *name = cg_take_name (g, "x");
      blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), name, x.s);
      free (x.s);
      cg_memo_add (g, n, name);
      return cx_make (P_PRIMARY, n->type, "%s", name);
    }
  return x;
}

void
cg_bind_scope (cgen *g, block *out, const te_lw_scope *s)
{
  cg_lw_push (g, s);
  for (int i = 0; s && i < s->nbinds && !g->failed; i++)
    {
      const te_lw_bind *b = &s->binds[i];
      const te_node *n = b->node;
      char base[32];
      snprintf (base, sizeof base, "%s%d", b->reduction ? "acc" : "s", b->id);
      const char *name = cg_take_name (g, base);
      if (b->reduction)
        reduction_stmts (g, out, n, name, b->terms);
      else
        {
          cx x = render_1 (g, out, n);
          if (x.ctype != (int) n->type)
            cx_conform (&x, n->type, false);
          blk_stmt (out, "%s %s = %s;", cg_c_type (n->type, false), name,
                    x.s);
          free (x.s);
        }
      cg_memo_add (g, n, name);
    }
}

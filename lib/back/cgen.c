/* cgen.c -- a backward TE program as readable C (option dump-c).

   Before:  stage 0: for i < n:  d_x[i] += d_y[i] * (1 - tanh (x[i])^2);
   After:
       void
       tanh_k_grad (int n, const double *restrict x, double *restrict y,
                    double *restrict d_x, double *restrict d_y)
       {
         (void) y;
         if (d_x && d_y)
           for (long i = 0; i < n; i++)
             d_x[i] += d_y[i] * (1.0 - tanh (x[i]) * tanh (x[i]));
       }

   The text has the semantics of the GENERIC that plugin/emit.cc builds
   from the same program, so a file compiled without the plugin computes
   the injected gradient:
   1. The prototype is the gradient ABI (DESIGN.md section 2), every
      pointer restrict.  Integer parameters keep the C type the caller
      spells for them; pointers are flat: a VLA parameter T x[n][m] is
      T *x, which is passed exactly like T (*x)[m] (a pointer either way),
      so the function links with callers compiled against the real
      prototype, as long as no declaration with the VLA type is visible
      in this file.  Parameters the gradient never reads are cast to void.
   2. The static variables the program reads come first: a constant
      table copied in as a static const array of its exact values, a
      global read at run time declared extern.  Local tensors are
      calloc'ed next (zeroed: a statement skipped for a NULL shadow
      leaves zeros) and freed last.
   3. Each stage has the shape lib/back/lower.c decided, as in emit.cc:
      each statement a loop nest of its own, one nest running the
      statements in order, or `if (every shadow is there)' one nest
      computing the values they share once, `else' the one nest; inside
      one nest, a run of statements the same way in one nest of their
      own loops, the slow nest inside the tests they all have.
      Counters have type long and are named after the kernel's.  A
      statement is inside the NULL tests the lowering gave it, and reads
      the NULL-able shadows it listed as 0 when NULL.
   4. Expressions use C's precedence with the parentheses -Wparentheses
      wants and no others; sums are never reassociated.  Integer
      arithmetic is in long like the TE's 64 bits; an int parameter is
      widened by a cast where C would otherwise compute in int.  Floating
      constants print in the fewest digits that read back exactly, with
      an f suffix in float.
   5. The locals are the lowering's, with its numbers: s<ID> for a shared
      subexpression, acc<ID> for a reduction's accumulator (declared at
      the start of its scope, with a loop updating it: acc = acc op t;
      max and min keep the earlier value on ties), the same locals the
      GENERIC computes.  A select the lowering marked as statements
      becomes if/else, so that only the chosen arm runs, as in GENERIC.
   6. Everything is rendered into memory first (F receives text only
      when the whole program could be printed); lines longer than 79
      columns are then broken before their outermost, loosest operator,
      GNU style.

   This file holds the statements and the function (steps 1 to 3);
   cgen-expr.c the expressions and the statements that compute them
   (steps 4 and 5); cgen-state.c the names, the locals computed and the
   scopes entered; cgen-text.c the strings, blocks and line breaking
   (step 6).  Calls go one way: cgen.c -> cgen-expr.c -> cgen-state.c.

   Limits: a subexpression the lowering leaves unbound is printed
   wherever it occurs (GCC's CSE merges it again).  An expression longer
   than 2000 characters goes into a local x<N> of its own, which the
   GENERIC has not.  The function is external even for a static kernel.  On a
   target with excess precision (x87) the C front end may keep float
   intermediates wider than the GENERIC does.  */

#include "back/cgen-expr.h"
#include "back/cgen.h"
#include "back/tiled.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- statements -------------------------------------------------------- */

/* dst[index] (+)= value, the statement of L, in the current block.  */
static void
store_line (cgen *g, block *out, const te_lw_stmt *l)
{
  const te_stmt *st = l->st;
  const te_tensor *t = st->dst;
  const char *base = cg_tensor_base (g, t);
  if (!base)
    {
      cg_fail (g, "store into", t->name);
      return;
    }
  cg_bind_scope (g, out, l->body);
  cx v = cg_render (g, out, st->value);
  const char *sum = st->lanes_sum ? cg_lane_sum (g, st, NULL, NULL, t->type)
                                  : NULL;
  if (sum)
    {
      if (v.ctype != (int) t->type)
        cx_conform (&v, t->type, false);
      blk_stmt (out, "%s[%s] += %s;", sum, g->lanes->lane, v.s);
      free (v.s);
      return;
    }
  cx i = cg_render (g, out, st->index);
  if (st->op == TE_SET)
    blk_stmt (out, "%s[%s] = %s;", base, i.s, v.s);
  else
    {
      /* emit.cc converts the value to the element type, then adds.  */
      if (!(te_type_is_float (t->type) ? v.ctype == (int) t->type
                                       : cg_widens (v.ctype, t->type)))
        cx_conform (&v, t->type, false);
      blk_stmt (out, "%s[%s] += %s;", base, i.s, v.s);
    }
  free (v.s);
  free (i.s);
}

/* if (guard) store, for the lowered statement ARG, in a block of its
   own (its locals end with it).  */
static void
guarded_store (cgen *g, block *out, const void *arg)
{
  const te_lw_stmt *l = arg;
  const te_stmt *st = l->st;
  cg_scope_enter (g);
  if (!st->guard)
    {
      store_line (g, out, l);
      cg_scope_leave (g);
      return;
    }
  cg_bind_scope (g, out, l->guard);
  cx c = cg_render (g, out, st->guard);
  block body = { { 0 }, 0 };
  cg_scope_enter (g);
  store_line (g, &body, l);
  cg_scope_leave (g);
  sbuf head = { 0 };
  sb_printf (&head, "if (%s)", c.s);
  blk_compound (out, head.s, &body);
  free (head.s);
  free (c.s);
  cg_scope_leave (g);
}

/* The statement's own loops (forwards, inside the stage's) and its
   store.  */
static void
inner_nest (cgen *g, block *out, const void *arg)
{
  const te_lw_stmt *l = arg;
  cg_emit_loops (g, out, l->st->ninner, l->st->inner, false, guarded_store,
                 l);
}

/* Which loops stmt_nest puts around a statement: none (inside a run's
   nest of them), its own, or its own and its stage's.  */
enum nest_loops
{
  NO_LOOPS,
  OWN_LOOPS,
  ALL_LOOPS
};

/* Lowered statement L of stage S: the loops LOOPS says, the store, and
   the NULL tests of the shadows it needs, into OUT.  */
static void
stmt_nest (cgen *g, block *out, const te_stage *s, const te_lw_stmt *l,
           enum nest_loops loops)
{
  g->loc = l->st->loc;
  g->cond = l->zero;
  g->ncond = l->nzero;
  block nest = { { 0 }, 0 };
  /* Inside a loop in lanes, its partial sums reach the element behind
     the same tests.  */
  g->lane_skip = g->lanes ? l->skip : NULL;
  g->lane_nskip = g->lanes ? l->nskip : 0;
  if (loops == NO_LOOPS)
    {
      cg_scope_enter (g);
      guarded_store (g, &nest, l);
      cg_scope_leave (g);
    }
  else
    {
      /* Loops that read NULL-able shadows as 0 run twice: where they are
         all there, without a test per load, else with the tests (as
         emit.cc).  */
      block fast = { { 0 }, 0 };
      block *slow = l->nzero ? &(block) { { 0 }, 0 } : &nest;
      if (l->nzero)
        {
          g->ncond = 0;
          cg_scope_enter (g);
          if (loops == ALL_LOOPS)
            cg_emit_loops (g, &fast, s->nloops, s->loops, s->reversed,
                           inner_nest, l);
          else
            inner_nest (g, &fast, l);
          cg_scope_leave (g);
          g->ncond = l->nzero;
        }
      cg_scope_enter (g);
      if (loops == ALL_LOOPS)
        cg_emit_loops (g, slow, s->nloops, s->loops, s->reversed, inner_nest,
                       l);
      else
        inner_nest (g, slow, l);
      cg_scope_leave (g);
      if (l->nzero)
        {
          /* if (skip && zero) fast else if (skip) slow: no dangling
             else.  */
          g->ncond = 0;
          g->lane_skip = NULL;
          g->lane_nskip = 0;
          sbuf head = { 0 };
          cg_nonnull_list (g, &head, l->skip, l->nskip);
          if (l->nskip)
            sb_printf (&head, " && ");
          cg_nonnull_list (g, &head, l->zero, l->nzero);
          block rest = { { 0 }, 0 };
          cg_if_nonnull (g, &rest, l->skip, l->nskip, slow);
          blk_if_else (out, head.s, &fast, &rest);
          free (head.s);
          return;
        }
    }
  g->ncond = 0;
  g->lane_skip = NULL;
  g->lane_nskip = 0;
  cg_if_nonnull (g, out, l->skip, l->nskip, &nest);
}

/* Say before stage ST's nests that the plugin runs its outermost loop on
   OpenMP threads (te_stage.par): dump-c's C runs it serially, which
   computes the same up to the order of the per-thread sums.  */
static void
parallel_comment (cgen *g, block *top, const te_stage *st)
{
  char sums[256] = "";
  size_t len = 0;
  for (int k = 0; k < st->par->npartial && len < sizeof sums; k++)
    len += snprintf (sums + len, sizeof sums - len, "%s%s",
                     k ? ", " : "; summed per thread: ",
                     st->par->partial[k]->name);
  blk_stmt (top, "/* tensorgrad runs the loop over %s on OpenMP threads%s */",
            te_program_var_name (g->p, st->loops[0].var), sums);
}

/* A run of a TE_LW_ONE stage's statements (lower.h) ...  */
typedef struct run_arg
{
  const te_lw_stage *l;
  const te_lw_run *r;
} run_arg;

/* ... the body of its fast nest: the shared values, then each statement
   ...  */
static void
run_fast_body (cgen *g, block *out, const void *arg)
{
  const run_arg *a = arg;
  cg_scope_enter (g);
  g->loc = a->r->fast[0].st->loc;
  cg_bind_scope (g, out, a->r->scope);
  for (int k = 0; k < a->r->n; k++)
    {
      g->loc = a->r->fast[k].st->loc;
      guarded_store (g, out, &a->r->fast[k]);
    }
  cg_scope_leave (g);
}

/* ... and of its slow nest: each statement inside its NULL tests.  */
static void
run_slow_body (cgen *g, block *out, const void *arg)
{
  const run_arg *a = arg;
  for (int k = 0; k < a->r->n; k++)
    stmt_nest (g, out, a->l->stage, &a->l->stmts[a->r->first + k],
               NO_LOOPS);
}

/* Run R of stage L into OUT: one nest of the statements' own loops.  */
static void
run_nest (cgen *g, block *out, const te_lw_stage *l, const te_lw_run *r)
{
  const te_stmt *st = r->fast[0].st;
  run_arg a = { l, r };
  if (!r->nall)
    {
      cg_emit_loops (g, out, st->ninner, st->inner, false, run_fast_body, &a);
      return;
    }
  block fast = { { 0 }, 0 }, slow = { { 0 }, 0 }, tested = { { 0 }, 0 };
  cg_scope_enter (g);
  cg_emit_loops (g, &fast, st->ninner, st->inner, false, run_fast_body, &a);
  cg_scope_leave (g);
  cg_scope_enter (g);
  cg_emit_loops (g, &slow, st->ninner, st->inner, false, run_slow_body, &a);
  cg_scope_leave (g);
  cg_if_nonnull (g, &tested, r->hoist, r->nhoist, &slow);
  sbuf head = { 0 };
  cg_nonnull_list (g, &head, r->all, r->nall);
  blk_if_else (out, head.s, &fast, &tested);
  free (head.s);
}

/* The statements of a TE_LW_ONE stage (or the slow nest of a
   TE_LW_SHARED one), in order, inside its loops, those of a run in one
   nest.  */
static void
one_body (cgen *g, block *out, const void *arg)
{
  const te_lw_stage *l = arg;
  int r = 0;
  for (int k = 0; k < l->nstmts; k++)
    if (r < l->nruns && l->runs[r].first == k)
      {
        run_nest (g, out, l, &l->runs[r]);
        k += l->runs[r++].n - 1;
      }
    else
      stmt_nest (g, out, l->stage, &l->stmts[k], OWN_LOOPS);
}

/* The body of the fast nest of a TE_LW_SHARED stage: the shared values,
   then every statement.  */
static void
fast_body (cgen *g, block *out, const void *arg)
{
  const te_lw_stage *l = arg;
  g->loc = l->stage->stmts[0].loc;
  cg_scope_enter (g);
  cg_bind_scope (g, out, l->scope);
  for (int k = 0; k < l->stage->nstmts; k++)
    guarded_store (g, out, &l->fast[k]);
  cg_scope_leave (g);
}

/* A TE_LW_SHARED stage L into OUT.  */
static void
shared_nest (cgen *g, block *out, const te_lw_stage *l)
{
  const te_stage *s = l->stage;
  if (!l->nall)
    {
      cg_emit_loops (g, out, s->nloops, s->loops, false, fast_body, l);
      return;
    }
  block fast = { { 0 }, 0 }, slow = { { 0 }, 0 };
  cg_emit_loops (g, &fast, s->nloops, s->loops, false, fast_body, l);
  cg_nest_begin (g);
  cg_emit_loops (g, &slow, s->nloops, s->loops, false, one_body, l);
  sbuf head = { 0 };
  cg_nonnull_list (g, &head, l->all, l->nall);
  blk_if_else (out, head.s, &fast, &slow);
  free (head.s);
}

/* ---- the function ------------------------------------------------------ */

/* Is S a pointer spelling we may use as it is ("const float *")?  */
static bool
flat_pointer (const char *s)
{
  size_t len = s ? strlen (s) : 0;
  return len > 1 && s[len - 1] == '*' && !strpbrk (s, "[(")
         && strchr (s, '*') == s + len - 1;
}

/* The declaration of parameter K: TYPE NAME.  */
static char *
param_decl (cgen *g, int k)
{
  const te_param *q = &g->p->params[k];
  const char *ct = g->fwd && k < g->fwd->nparams && g->ctypes
                       ? g->ctypes[k] : NULL;
  sbuf b = { 0 };
  switch (q->kind)
    {
    case TE_PK_INT:
      if (!ct)
        {
          cg_fail (g, "no C type given for integer parameter", q->name);
          ct = "long";
        }
      sb_printf (&b, "%s %s", ct, g->pname[k]);
      break;
    case TE_PK_FLOAT:
      sb_printf (&b, "%s %s", cg_c_type (q->type, false), g->pname[k]);
      break;
    case TE_PK_PTR_FLOAT:
    case TE_PK_PTR_INT:
      if (flat_pointer (ct))
        sb_printf (&b, "%srestrict %s", ct, g->pname[k]);
      else
        {
          /* const unless the kernel writes it; shadows are written.  */
          const te_tensor *t = g->fwd && k < g->fwd->nparams
                                   ? g->fwd->params[k].tensor : NULL;
          bool is_const = k < (g->fwd ? g->fwd->nparams : 0)
                          && (!t || t->role == TE_ROLE_INPUT
                              || t->role == TE_ROLE_UNUSED);
          sb_printf (&b, "%s%s *restrict %s", is_const ? "const " : "",
                     cg_c_type (q->type, false), g->pname[k]);
        }
      break;
    }
  return sb_take (&b);
}

/* The prototype, wrapped GNU style at 79 columns.  */
static void
prototype (cgen *g, sbuf *out)
{
  const char *name = g->p->name;
  sb_printf (out, "void\n%s (", name);
  int col = (int) strlen (name) + 2, start = col;
  if (g->p->nparams == 0)
    sb_printf (out, "void");
  for (int k = 0; k < g->p->nparams; k++)
    {
      char *d = param_decl (g, k);
      int len = (int) strlen (d) + (k + 1 < g->p->nparams ? 1 : 2);
      if (k && col + 1 + len > 79)
        {
          sb_printf (out, "\n%*s", start, "");
          col = start;
        }
      else if (k)
        {
          sb_printf (out, " ");
          col++;
        }
      sb_printf (out, "%s%s", d, k + 1 < g->p->nparams ? "," : "");
      col += len;
      free (d);
    }
  sb_printf (out, ")\n");
}

/* Names of parameters and locals.  */
static void
name_globals (cgen *g)
{
  const te_program *p = g->p;
  for (int k = 0; k < p->nparams; k++)
    {
      char fb[32];
      snprintf (fb, sizeof fb, "p%d", k);
      g->pname[k] = cg_sanitize (p->params[k].name, fb);
    }
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_LOCAL)
      {
        char fb[32];
        snprintf (fb, sizeof fb, "tmp%d", g->nlocals);
        char *base = cg_sanitize (p->tensors[i]->name, fb);
        g->locals[g->nlocals] = p->tensors[i];
        g->lname[g->nlocals] = cg_fresh_name (g, base);
        g->nlocals++;
        free (base);
      }
  /* A constant table is copied into the function under a fresh name; a
     global the program reads at run time keeps its own.  */
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if (t->kind != TE_TK_STATIC || !te_program_reads (p, t))
        continue;
      g->statics[g->nstatics] = t;
      sbuf b = { 0 };
      if (t->constant)
        {
          char *base = cg_sanitize (t->name, "table");
          g->sname[g->nstatics] = cg_fresh_name (g, base);
          free (base);
          sb_printf (&b, "%s", g->sname[g->nstatics]);
        }
      else
        {
          g->sname[g->nstatics] = cg_copy (t->name);
          sb_printf (&b, "(&%s)", t->name);
        }
      g->sbase[g->nstatics++] = sb_take (&b);
    }
}

/* The declarations of the static variables G's program reads: a copy of
   each constant table (its elements exact, floats in hexadecimal), an
   extern declaration of each global read at run time (a function's
   static integer then needs a global of its name where the file is
   linked).  */
static void
declare_statics (cgen *g, block *top)
{
  for (int i = 0; i < g->nstatics; i++)
    {
      const te_tensor *t = g->statics[i];
      const char *ty = cg_c_type (t->type, false);
      if (!t->constant)
        {
          blk_stmt (top, "extern %s %s;", ty, g->sname[i]);
          continue;
        }
      sbuf b = { 0 };
      for (int64_t k = 0; k < t->size->u.i; k++)
        if (te_type_is_float (t->type) && isnan (t->init[k]))
          sb_printf (&b, "%sNAN", k ? ", " : "");
        else if (te_type_is_float (t->type) && isinf (t->init[k]))
          sb_printf (&b, "%s%sHUGE_VAL", k ? ", " : "",
                     t->init[k] < 0 ? "-" : "");
        else if (te_type_is_float (t->type))
          sb_printf (&b, "%s%a", k ? ", " : "", t->init[k]);
        else
          sb_printf (&b, "%s%lld", k ? ", " : "", (long long) t->init[k]);
      char *vals = sb_take (&b);
      blk_stmt (top, "static const %s %s[%lld] = { %s };", ty, g->sname[i],
                (long long) t->size->u.i, vals);
      free (vals);
    }
}

/* The body: locals, one nest per statement (per fused stage), frees.  */
/* ---- calls --------------------------------------------------------------- */

/* Append to LINE pointer T + OFFSET, or NULL when T is NULL or a NULL
   shadow.  */
static void
call_pointer (cgen *g, block *out, sbuf *line, const te_tensor *t,
              const te_node *offset)
{
  const char *base = t ? cg_tensor_base (g, t) : NULL;
  if (!t)
    {
      sb_printf (line, "NULL");
      return;
    }
  if (!base)
    {
      cg_fail (g, "array without storage", t->name);
      return;
    }
  if (te_is_const (offset, 0))
    {
      sb_printf (line, "%s", base);
      return;
    }
  cx off = cg_render (g, out, offset);
  cx_paren (&off, P_ADD + 1);
  if (t->nullable)
    sb_printf (line, "(%s ? %s + %s : NULL)", base, base, off.s);
  else
    sb_printf (line, "%s + %s", base, off.s);
  free (off.s);
}

/* The statement of call stage C.  */
static void
call_line (cgen *g, block *out, const te_call *c)
{
  sbuf line = { 0 };
  if (c->ret && !c->grad)
    sb_printf (&line, "%s[0] = ", cg_tensor_base (g, c->ret));
  sb_printf (&line, "%s (", c->grad ? c->grad_name : c->name);
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (i)
        sb_printf (&line, ", ");
      if (a->kind == TE_PK_INT || a->kind == TE_PK_FLOAT)
        {
          cx v = cg_render (g, out, a->value);
          sb_printf (&line, "%s", v.s);
          free (v.s);
        }
      else
        call_pointer (g, out, &line, a->tensor, a->offset);
    }
  for (int i = 0; c->grad && i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind != TE_PK_FLOAT && a->kind != TE_PK_PTR_FLOAT)
        continue;
      sb_printf (&line, ", ");
      call_pointer (g, out, &line, a->adj, a->offset);
    }
  if (c->grad && c->d_return)
    {
      cx v = cg_render (g, out, c->d_return);
      sb_printf (&line, ", %s", v.s);
      free (v.s);
    }
  if (c->gemm == TE_GEMM_CBLAS)
    sb_printf (&line, ", %s",
               te_blas_function (te_call_elem_type (c), false));
  else if (c->gemm == TE_GEMM_TILED)
    sb_printf (&line, ", tg_wgemm_%s",
               te_call_elem_type (c) == TE_F64 ? "f64" : "f32");
  else if (c->gemm == TE_GEMM_LOOPS)
    sb_printf (&line, ", NULL");
  char *s = sb_take (&line);
  blk_stmt (out, "%s);", s);
  free (s);
}

/* The C type of parameter I of the callee of C, as its gradient's
   parameter too when SHADOW.  */
static void
call_param_type (sbuf *out, const te_call *c, int i, bool shadow)
{
  const te_call_arg *a = &c->args[i];
  const char *elem = a->tensor ? cg_c_type (a->tensor->type, false) : NULL;
  if (shadow)
    sb_printf (out, "%s *", elem);
  else if (a->kind == TE_PK_PTR_FLOAT)
    sb_printf (out, "%s%s *", a->writes ? "" : "const ", elem);
  else if (a->kind == TE_PK_FLOAT)
    sb_printf (out, "%s", elem);
  else if (c->ctypes && c->ctypes[i])
    sb_printf (out, "%s", c->ctypes[i]);
  else
    sb_printf (out, "long");
}

/* The C of tg_wgemm_f32 (f64), a CBLAS-like gemm of the tiled product
   that winograd's calls pass without blas (plugin/tiled.cc's
   tiled_gemm_adapter), with the tiled function, each in an #ifndef of
   its own.  */
static void
wgemm_function (te_type type, sbuf *out)
{
  const char *t = cg_c_type (type, false), *sfx = type == TE_F64 ? "f64"
                                                                  : "f32";
  cg_tiled_function (type, out);
  sb_printf (out,
             "\n#ifndef TG_WGEMM_%s\n#define TG_WGEMM_%s\n"
             "/* C = alpha op (A) op (B) + beta C, row-major (beta 0 or 1), "
             "as the\n   CBLAS's gemm, by tg_tiled_%s: what winograd's "
             "calls pass\n   without blas.  */\n"
             "static void\ntg_wgemm_%s (int order, int ta, int tb, int m, "
             "int n, int k, %s alpha,\n            const %s *a, int lda, "
             "const %s *b, int ldb, %s beta, %s *c,\n            int ldc)\n"
             "{\n  (void) order;\n"
             "  tg_tiled_%s (m, n, k, alpha, a, ta == 112 ? 1 : lda, "
             "ta == 112 ? lda : 1, b,\n              tb == 112 ? 1 : ldb, "
             "tb == 112 ? ldb : 1, c, ldc, beta == 0);\n}\n#endif\n",
             sfx, sfx, sfx, sfx, t, t, t, t, t, sfx);
}

/* Prototypes of the functions the call stages of P call.  */
static void
call_prototypes (const te_program *p, sbuf *out)
{
  for (int s = 0; s < p->nstages; s++)
    {
      const te_call *c = p->stages[s].call;
      if (!c)
        continue;
      const char *t = cg_c_type (te_call_elem_type (c), false);
      if (c->gemm == TE_GEMM_CBLAS)
        sb_printf (out, "void %s (int, int, int, int, int, int, %s, "
                        "const %s *, int, const %s *, int, %s, %s *, int);\n",
                   te_blas_function (te_call_elem_type (c), false), t, t,
                   t, t, t);
      else if (c->gemm == TE_GEMM_TILED)
        wgemm_function (te_call_elem_type (c), out);
      if (c->grad)
        sb_printf (out, "void %s (", c->grad_name);
      else
        sb_printf (out, "%s %s (", c->ret ? cg_c_type (c->ret->type, false)
                                           : "void",
                   c->name);
      for (int i = 0; i < c->nargs; i++)
        {
          if (i)
            sb_printf (out, ", ");
          call_param_type (out, c, i, false);
        }
      for (int i = 0; c->grad && i < c->nargs; i++)
        if (c->args[i].kind == TE_PK_FLOAT
            || c->args[i].kind == TE_PK_PTR_FLOAT)
          {
            sb_printf (out, ", ");
            call_param_type (out, c, i, true);
          }
      if (c->grad && c->ret)
        sb_printf (out, ", %s", cg_c_type (c->ret->type, false));
      if (c->gemm != TE_GEMM_NONE)
        sb_printf (out, ", void (*) (int, int, int, int, int, int, %s, "
                        "const %s *, int, const %s *, int, %s, %s *, int)",
                   t, t, t, t, t);
      sb_printf (out, ");\n");
    }
}

/* ---- matrix products as CBLAS calls (te_lw_stage.gemm) ---------------- */

/* "BASE + OFFSET", element OFFSET of T, into a string the caller frees
   (NULL when T has no storage: reported).  */
static char *
gemm_pointer (cgen *g, block *out, const te_tensor *t, const te_node *off)
{
  const char *base = cg_tensor_base (g, t);
  if (!base)
    {
      cg_fail (g, "CBLAS call with", t->name);
      return NULL;
    }
  sbuf b = { 0 };
  if (off->op == TE_CONST && off->u.i == 0)
    sb_printf (&b, "%s", base);
  else
    {
      cx o = cg_render (g, out, off);
      sb_printf (&b, "%s + %s", base, o.s);
      free (o.s);
    }
  return sb_take (&b);
}

/* Product M's sizes, leading dimensions and operands as C text, for a
   call of the CBLAS or of the tiled function (NULL pointers when an
   operand has no address).  */
typedef struct gemm_args
{
  cx m, n, k, lda, ldb, ldc;
  char *a, *b, *c;
} gemm_args;

static gemm_args
gemm_render (cgen *g, block *out, const te_gemm *m)
{
  gemm_args r;
  r.m = cg_render (g, out, m->m);
  r.n = cg_render (g, out, m->n);
  r.k = cg_render (g, out, m->k);
  r.lda = cg_render (g, out, m->lda);
  r.ldb = cg_render (g, out, m->ldb);
  r.ldc = cg_render (g, out, m->ldc);
  r.a = gemm_pointer (g, out, m->a, m->off_a);
  r.b = gemm_pointer (g, out, m->b, m->off_b);
  r.c = gemm_pointer (g, out, m->c, m->off_c);
  return r;
}

static void
gemm_args_free (gemm_args *r)
{
  free (r->a);
  free (r->b);
  free (r->c);
  free (r->m.s);
  free (r->n.s);
  free (r->k.s);
  free (r->lda.s);
  free (r->ldb.s);
  free (r->ldc.s);
}

/* One CBLAS call for product ARG (a te_gemm), as emit.cc's gemm_call:
   CblasRowMajor is 101, CblasNoTrans 111, CblasTrans 112.  */
static void
gemm_line (block *out, const te_gemm *m, const gemm_args *r, double beta,
           const char *c, const char *ldc)
{
  blk_stmt (out, "%s (101, %d, %d, %s, %s, %s, %.17g, %s, %s, %s, %s, "
                 "%.17g, %s, %s);",
            te_blas_function (m->c->type, false), m->trans_a ? 112 : 111,
            m->trans_b ? 112 : 111, r->m.s, r->n.s, r->k.s, m->alpha, r->a,
            r->lda.s, r->b, r->ldb.s, beta, c, ldc);
}

static void
gemm_call_line (cgen *g, block *out, const void *arg)
{
  const te_gemm *m = arg;
  gemm_args r = gemm_render (g, out, m);
  if (r.a && r.b && r.c)
    gemm_line (out, m, &r, m->beta, r.c, r.ldc.s);
  gemm_args_free (&r);
}

/* One call of the tiled product's function for product ARG (a te_gemm),
   as emit.cc's tiled_call: a transposed operand is its strides
   swapped.  */
static void
tiled_call_line (cgen *g, block *out, const void *arg)
{
  const te_gemm *m = arg;
  gemm_args r = gemm_render (g, out, m);
  if (r.a && r.b && r.c)
    blk_stmt (out, "tg_tiled_%s (%s, %s, %s, %.17g, %s, %s, %s, %s, %s, %s, "
                   "%s, %s, %d);",
              m->c->type == TE_F64 ? "f64" : "f32", r.m.s, r.n.s, r.k.s,
              m->alpha, r.a, m->trans_a ? "1" : r.lda.s,
              m->trans_a ? r.lda.s : "1", r.b, m->trans_b ? "1" : r.ldb.s,
              m->trans_b ? r.ldb.s : "1", r.c, r.ldc.s, m->beta == 0.0);
  gemm_args_free (&r);
}

/* A triangular product (te_gemm.tri) and the names of its scratch and
   counters.  */
typedef struct tri_names
{
  const te_gemm *m;
  const char *w, *i, *j;
} tri_names;

/* for (long I = 0; I < (M); I++) for (long J = FROM; COND; J++) and the
   statement FMT prints, over three lines, into OUT.  */
static void
two_loops (block *out, const char *i, const char *m, const char *j,
           const char *from, const char *cond, const char *fmt, ...)
  __attribute__ ((format (printf, 7, 8)));

static void
two_loops (block *out, const char *i, const char *m, const char *j,
           const char *from, const char *cond, const char *fmt, ...)
{
  block in = { { 0 }, 0 }, mid = { { 0 }, 0 };
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (&in.text, fmt, ap);
  va_end (ap);
  sb_printf (&in.text, "\n");
  in.nstmts = 1;
  sbuf h = { 0 }, h2 = { 0 };
  sb_printf (&h, "for (long %s = %s; %s; %s++)", j, from, cond, j);
  blk_compound (&mid, h.s, &in);
  sb_printf (&h2, "for (long %s = 0; %s < (%s); %s++)", i, i, m, i);
  blk_compound (out, h2.s, &mid);
  free (h.s);
  free (h2.s);
  free (in.text.s);
  free (mid.text.s);
}

/* One iteration of the batch loops of triangular product ARG (a
   tri_names), as emit.cc's tri_call: TRI_C's gemm into the scratch;
   TRI_A's and TRI_B's other factor copied into the scratch and the trmm
   on it; then the scratch added to C (TRI_C: its triangle).  CblasLeft
   is 141, CblasRight 142, CblasUpper 121, CblasLower 122, CblasNonUnit
   131.  */
static void
tri_call_line (cgen *g, block *out, const void *arg)
{
  const tri_names *t = arg;
  const te_gemm *m = t->m;
  gemm_args r = gemm_render (g, out, m);
  const char *w = t->w, *i = t->i, *j = t->j, *wld = r.n.s;
  if (!r.a || !r.b || !r.c)
    {
      gemm_args_free (&r);
      return;
    }
  if (m->tri == TE_GEMM_TRI_C)
    gemm_line (out, m, &r, 0.0, w, r.n.s);
  else
    {
      bool left = m->tri == TE_GEMM_TRI_A;
      const char *rows = left ? r.k.s : r.m.s;
      const char *src = left ? r.b : r.a, *ld = left ? r.ldb.s : r.lda.s;
      bool trans = left ? m->trans_b : m->trans_a;
      wld = left ? r.n.s : r.k.s;
      sbuf c = { 0 };
      sb_printf (&c, "%s < (%s)", j, wld);
      two_loops (out, i, rows, j, "0", c.s, "%s[%s * (%s) + %s] = "
                 "(%s)[%s * (%s) + %s];", w, i, wld, j, src, trans ? j : i,
                 ld, trans ? i : j);
      free (c.s);
      blk_stmt (out, "%s (101, %d, %d, %d, 131, %s, %s, %.17g, %s, %s, %s, "
                     "%s);",
                te_gemm_function (m), left ? 141 : 142,
                m->tri_upper ? 121 : 122,
                (left ? m->trans_a : m->trans_b) ? 112 : 111, r.m.s, r.n.s,
                m->alpha, left ? r.a : r.b, left ? r.lda.s : r.ldb.s, w,
                wld);
    }
  /* Every column, but over TRI_C's triangle (lower: j <= i).  */
  bool tri_c = m->tri == TE_GEMM_TRI_C;
  sbuf c = { 0 };
  if (tri_c && !m->tri_upper)
    sb_printf (&c, "%s <= %s && ", j, i);
  sb_printf (&c, "%s < (%s)", j, r.n.s);
  two_loops (out, i, r.m.s, j, tri_c && m->tri_upper ? i : "0", c.s,
             "(%s)[%s * (%s) + %s] += %s[%s * (%s) + %s];", r.c, i, r.ldc.s,
             j, w, i, wld, j);
  free (c.s);
  gemm_args_free (&r);
}

/* The sizes for which G runs tiled (back/tiled.h), as emit.cc's
   tiled_sizes_ok, into HEAD.  */
static void
tiled_range (cgen *g, block *out, sbuf *head, const te_gemm *m)
{
  cx M = cg_render (g, out, m->m), N = cg_render (g, out, m->n),
     K = cg_render (g, out, m->k);
  sb_printf (head, "(long) (%s) >= %d && (long) (%s) >= %d && (long) (%s) >= "
                   "%d && (long) (%s) * (long) (%s) >= %dL / (long) (%s)",
             M.s, TE_TILED_MIN_M, N.s, TE_TILED_MIN_N, K.s, TE_TILED_MIN_K,
             M.s, N.s, TE_TILED_MIN_MNK, K.s);
  free (M.s);
  free (N.s);
  free (K.s);
}

/* "LO <= X && X <= INT_MAX" into HEAD (X and LO integer nodes, LO NULL
   for 1), after " && " unless FIRST; nothing when X is LO (tested
   before).  */
static void
gemm_range (cgen *g, block *out, sbuf *head, const te_node *x,
            const te_node *lo, bool first)
{
  if (x == lo)
    return;
  cx v = cg_render (g, out, x);
  cx l = { NULL, 0, 0 };
  if (lo)
    l = cg_render (g, out, lo);
  sb_printf (head, "%s(long) (%s) >= ", first ? "" : " && ", v.s);
  if (lo)
    sb_printf (head, "(long) (%s)", l.s);
  else
    sb_printf (head, "1");
  sb_printf (head, " && (long) (%s) <= 2147483647", v.s);
  free (v.s);
  free (l.s);
}

/* The sizes for which product M runs (the BLAS's or the tiled
   function's) into HEAD.  */
static void
gemm_sizes (cgen *g, block *out, sbuf *head, const te_gemm *m)
{
  if (g->p->tiled)
    {
      tiled_range (g, out, head, m);
      return;
    }
  gemm_range (g, out, head, m->m, NULL, true);
  gemm_range (g, out, head, m->n, NULL, false);
  gemm_range (g, out, head, m->k, NULL, false);
  gemm_range (g, out, head, m->lda, m->trans_a ? m->m : m->k, false);
  gemm_range (g, out, head, m->ldb, m->trans_b ? m->k : m->n, false);
  gemm_range (g, out, head, m->ldc, m->n, false);
}

/* Blas stage L (lower.c step 6), as emit.cc's gemm_stage: when the
   sizes suit the BLAS, inside the statement's NULL tests, a CBLAS call
   per iteration of the batch loops; otherwise its loop nest.  */
static void
gemm_nest (cgen *g, block *out, const te_lw_stage *l)
{
  const te_gemm *m = l->gemm;
  const te_lw_stmt *st = &l->stmts[0];
  g->loc = st->st->loc;
  sbuf head = { 0 };
  bool tiled = g->p->tiled;
  gemm_sizes (g, out, &head, m);
  blk_stmt (out, "/* %s%s */", te_gemm_text (g->p, m),
            tiled ? ", no CBLAS" : "");
  block calls = { { 0 }, 0 }, inner = { { 0 }, 0 }, loops = { { 0 }, 0 };
  if (m->tri)
    {
      /* As emit.cc: inside the NULL tests, the scratch from malloc
         where the sizes suit, freed after the calls; else the loops.  */
      const char *t = cg_c_type (m->c->type, false);
      tri_names tn = { m, cg_take_name (g, "w"), cg_take_name (g, "ti"),
                       cg_take_name (g, "tj") };
      const te_node *rows = m->tri == TE_GEMM_TRI_A ? m->k : m->m;
      const te_node *cols = m->tri == TE_GEMM_TRI_B ? m->k : m->n;
      cx R = cg_render (g, out, rows), C = cg_render (g, out, cols);
      sb_printf (&head, " && (%s = (%s *) malloc (sizeof (%s) * (size_t) "
                        "((%s) * (%s)))) != 0",
                 tn.w, t, t, R.s, C.s);
      free (R.s);
      free (C.s);
      cg_scope_enter (g);
      cg_emit_loops (g, &calls, m->nbatch, m->batch, false, tri_call_line,
                     &tn);
      cg_scope_leave (g);
      blk_stmt (&calls, "free (%s);", tn.w);
      cg_nest_begin (g);
      stmt_nest (g, &loops, l->stage, st, ALL_LOOPS);
      block body = { { 0 }, 0 };
      blk_stmt (&body, "%s *%s;", t, tn.w);
      blk_if_else (&body, head.s, &calls, &loops);
      cg_if_nonnull (g, &inner, st->skip, st->nskip, &body);
      blk_compound (out, "", &inner);
      free (calls.text.s);
      free (loops.text.s);
      free (body.text.s);
      free (inner.text.s);
      free (head.s);
      return;
    }
  cg_scope_enter (g);
  cg_emit_loops (g, &inner, m->nbatch, m->batch, false,
                 tiled ? tiled_call_line : gemm_call_line, m);
  cg_scope_leave (g);
  cg_if_nonnull (g, &calls, st->skip, st->nskip, &inner);
  /* In braces: an if inside, then else, would read as the inner if's
     else.  */
  calls.nstmts = 2;
  cg_nest_begin (g);
  stmt_nest (g, &loops, l->stage, st, ALL_LOOPS);
  blk_if_else (out, head.s, &calls, &loops);
  free (calls.text.s);
  free (loops.text.s);
  free (head.s);
}

/* The prototypes of the CBLAS functions P's gradient calls.  */
static void
gemm_prototypes (const te_lowered *lw, sbuf *out)
{
  /* By element type: a product; a trmm among them.  */
  bool any[2] = { false, false }, trmm[2] = { false, false };
  for (int s = 0; s < lw->nstages; s++)
    {
      const te_gemm *m = lw->stages[s].gemm;
      if (!m)
        continue;
      int d = m->c->type == TE_F64;
      any[d] = true;
      trmm[d] |= m->tri == TE_GEMM_TRI_A || m->tri == TE_GEMM_TRI_B;
    }
  for (int d = 0; d < 2; d++)
    {
      te_type type = d ? TE_F64 : TE_F32;
      if (!any[d])
        continue;
      if (lw->p->tiled)
        {
          cg_tiled_function (type, out);
          continue;
        }
      const char *t = cg_c_type (type, false);
      sb_printf (out, "\n/* A CBLAS (-lopenblas, -lcblas, -lblas); the enums as "
                      "int.  */\nvoid %s (int, int, int, int, int, int, %s, "
                      "const %s *, int, const %s *, int, %s, %s *, int);\n",
                 te_blas_function (type, false), t, t, t, t, t);
      if (trmm[d])
        sb_printf (out, "void %s (int, int, int, int, int, int, int, %s, "
                        "const %s *, int, %s *, int);\n",
                   te_blas_function (type, true), t, t, t);
    }
}

/* Where blas stage L's call runs, into HEAD: the sizes suit it, and no
   NULL test skips it.  */
static void
gemm_runs (cgen *g, block *out, sbuf *head, const te_lw_stage *l)
{
  gemm_sizes (g, out, head, l->gemm);
  if (l->stmts[0].nskip)
    {
      sb_printf (head, " && ");
      cg_nonnull_list (g, head, l->stmts[0].skip, l->stmts[0].nskip);
    }
}

static void stage_nest (cgen *g, block *top, const te_lw_stage *l);

/* Stage L into TOP: where the product of L->unless does not run, when
   there is one (lower.c step 6d).  */
static void
stage_text (cgen *g, block *top, const te_lw_stage *l)
{
  if (!l->unless)
    {
      stage_nest (g, top, l);
      return;
    }
  if (top->nstmts)
    sb_printf (&top->text, "\n");
  block body = { { 0 }, 0 };
  stage_nest (g, &body, l);
  sbuf cond = { 0 }, head = { 0 };
  gemm_runs (g, top, &cond, l->unless);
  sb_printf (&head, "if (!(%s))", cond.s);
  blk_compound (top, head.s, &body);
  free (cond.s);
  free (head.s);
  free (body.text.s);
}

/* Stage L into TOP, as its shape says.  */
static void
stage_nest (cgen *g, block *top, const te_lw_stage *l)
{
  const te_stage *st = l->stage;
  /* A blank line before each nest (but before one the comment of a
     parallel stage heads).  */
  bool gap = top->nstmts > 0;
  if (st->par)
    {
      if (gap)
        sb_printf (&top->text, "\n");
      parallel_comment (g, top, st);
      gap = false;
    }
  switch (l->shape)
    {
    case TE_LW_CALL:
      if (gap)
        sb_printf (&top->text, "\n");
      cg_nest_begin (g);
      g->loc = st->loc;
      cg_scope_enter (g);
      cg_bind_scope (g, top, l->scope);
      call_line (g, top, st->call);
      cg_scope_leave (g);
      break;
    case TE_LW_SHARED:
      if (gap)
        sb_printf (&top->text, "\n");
      cg_nest_begin (g);
      shared_nest (g, top, l);
      break;
    case TE_LW_ONE:
      if (gap)
        sb_printf (&top->text, "\n");
      cg_nest_begin (g);
      cg_emit_loops (g, top, st->nloops, st->loops, st->reversed, one_body,
                     l);
      break;
    case TE_LW_EACH:
      if (l->gemm)
        {
          if (top->nstmts)
            sb_printf (&top->text, "\n");
          cg_nest_begin (g);
          gemm_nest (g, top, l);
          break;
        }
      for (int k = 0; k < l->nstmts; k++)
        {
          if (gap || k)
            sb_printf (&top->text, "\n");
          cg_nest_begin (g);
          stmt_nest (g, top, st, &l->stmts[k], ALL_LOOPS);
        }
      break;
    }
}

/* The stages of a group (te_stage.group, lib/passes/samples.c).  */
typedef struct group_arg
{
  const te_lw_stage *first;
  int n;
} group_arg;

/* One iteration of a group's loop: each stage as a copy without its
   first loop (and its product without that batch loop), whose counter
   the group's loop binds.  */
static void
group_body (cgen *g, block *out, const void *arg)
{
  const group_arg *a = arg;
  for (int i = 0; i < a->n; i++)
    {
      te_lw_stage l;
      te_stage s;
      te_gemm gm;
      te_lower_in_group (&a->first[i], &l, &s, &gm);
      stage_text (g, out, &l);
    }
}

/* The N stages of a group from FIRST on into TOP: their shared first
   loop once around them all.  */
static void
group_nest (cgen *g, block *top, const te_lw_stage *first, int n)
{
  group_arg a = { first, n };
  cg_nest_begin (g);
  cg_emit_loops (g, top, 1, first->stage->loops, false, group_body, &a);
}


static void
body (cgen *g, block *top)
{
  cg_nest_begin (g);
  declare_statics (g, top);
  /* What the gradient requires of the sizes (te_require), as emit.cc
     tests it.  */
  for (int i = 0; i < g->p->nrequires; i++)
    {
      const te_require *r = &g->p->requires[i];
      g->loc = r->loc;
      cx n = cg_render (g, top, r->gap);
      sbuf msg = { 0 };
      sb_printf (&msg, "tensorgrad: %s: %s", g->p->name,
                 te_require_text (g->p, r, "this"));
      sbuf lit = { 0 };
      for (const char *c = msg.s; c && *c; c++)
        sb_printf (&lit, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
      blk_stmt (top, "if (%s < 0)\n  {\n    fputs (\"%s\\n\", stderr);\n"
                "    abort ();\n  }", n.s, lit.s);
      free (msg.s);
      free (lit.s);
      free (n.s);
    }
  for (int i = 0; i < g->nlocals; i++)
    {
      const te_tensor *t = g->locals[i];
      g->loc = t->loc;
      if (!t->size)
        {
          cg_fail (g, "local without a size", t->name);
          continue;
        }
      cx n = cg_render (g, top, t->size);
      const char *ty = cg_c_type (t->type, false);
      const te_lw_stage *l = te_lower_raw (g->lw, t);
      if (l)
        {
          /* Not zeroed where its product runs (lower.c step 6c).  */
          sbuf cond = { 0 };
          gemm_runs (g, top, &cond, l);
          blk_stmt (top, "%s *%s = %s ? malloc ((%s) * sizeof (%s)) : calloc "
                    "(%s, sizeof (%s));", ty, g->lname[i], cond.s, n.s, ty,
                    n.s, ty);
          free (cond.s);
        }
      else
        blk_stmt (top, "%s *%s = calloc (%s, sizeof (%s));", ty,
                  g->lname[i], n.s, ty);
      free (n.s);
    }
  for (int s = 0; s < g->lw->nstages; s++)
    {
      const te_lw_stage *l = &g->lw->stages[s];
      int n = te_program_group (g->p, s);
      if (l->stage->group)
        {
          if (top->nstmts)
            sb_printf (&top->text, "\n");
          group_nest (g, top, l, n);
        }
      else
        stage_text (g, top, l);
      s += n - 1;
    }
  if (g->nlocals)
    sb_printf (&top->text, "\n");
  for (int i = 0; i < g->nlocals; i++)
    blk_stmt (top, "free (%s);", g->lname[i]);
}

static void *
xcalloc (size_t n, size_t size)
{
  void *m = calloc (n ? n : 1, size);
  if (!m)
    abort ();
  return m;
}

bool
te_program_emit_c (FILE *f, const te_program *p, const te_lowered *lw,
                   const te_program *fwd, const char *const *param_ctypes,
                   bool first, te_diag *diag)
{
  te_lowered *own = lw ? NULL : te_lower (p);
  if (!lw && !own)
    return te_diag_set (diag, TE_DIAG_INTERNAL, 0,
                        "cannot print the gradient as C: out of memory");
  cgen g;
  memset (&g, 0, sizeof g);
  g.p = p;
  g.lw = lw ? lw : own;
  g.fwd = fwd;
  g.ctypes = param_ctypes;
  g.diag = diag;
  g.pname = xcalloc (p->nparams, sizeof *g.pname);
  g.used = xcalloc (p->nparams, sizeof *g.used);
  g.locals = xcalloc (p->ntensors, sizeof *g.locals);
  g.lname = xcalloc (p->ntensors, sizeof *g.lname);
  g.statics = xcalloc (p->ntensors, sizeof *g.statics);
  g.sname = xcalloc (p->ntensors, sizeof *g.sname);
  g.sbase = xcalloc (p->ntensors, sizeof *g.sbase);
  g.vname = xcalloc (p->nvars, sizeof *g.vname);
  g.bound = xcalloc (p->nvars, sizeof *g.bound);
  name_globals (&g);

  block top = { { 0 }, 0 };
  body (&g, &top);
  sbuf text = { 0 };
  const char *kernel = fwd ? fwd->name : p->name;
  if (first)
    sb_printf (&text, "/* Gradients of differentiable kernels, written by "
                      "tensorgrad\n   (-fplugin-arg-tensorgrad-dump-c) as "
                      "C11: they compute what the\n   plugin injects, "
                      "without the plugin.  */\n\n#include <math.h>\n"
                      "#include <stdbool.h>\n#include <stdint.h>\n"
                      "#include <stdio.h>\n#include <stdlib.h>\n");
  sb_printf (&text, "\n/* Generated by tensorgrad from kernel %s.  Pointers "
                    "are flat: a VLA\n   parameter T x[n][m] is T *x here, "
                    "passed the same way.  */\n",
             kernel);
  call_prototypes (p, &text);
  gemm_prototypes (g.lw, &text);
  prototype (&g, &text);
  sb_printf (&text, "{\n");
  bool unused = false;
  for (int k = 0; k < p->nparams; k++)
    if (!g.used[k])
      {
        sb_printf (&text, "  (void) %s;\n", g.pname[k]);
        unused = true;
      }
  if (unused && top.nstmts)
    sb_printf (&text, "\n");
  block fn = { { 0 }, 0 };
  blk_indent (&fn, 2, &top);
  sb_printf (&text, "%s}\n", fn.text.s ? fn.text.s : "");
  free (fn.text.s);
  free (top.text.s);
  bool ok = !g.failed;
  if (ok)
    {
      char *wrapped = cg_wrap_lines (text.s);
      fputs (wrapped, f);
      free (wrapped);
    }
  free (text.s);
  cg_state_free (&g);
  te_lowered_free (own);
  return ok;
}

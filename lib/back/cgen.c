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
   2. Local tensors are calloc'ed first (zeroed: a statement skipped for a
      NULL shadow leaves zeros) and freed last.
   3. Each statement is a loop nest of its own, as in emit.cc (a fused
      stage: one nest running its statements in order), with counters of
      type long named after the kernel's.  It is skipped when its
      destination shadow is NULL or when its value vanishes with a NULL
      shadow it reads (ADD_TO only); other reads of a NULL shadow are 0.
   4. Expressions use C's precedence with the parentheses -Wparentheses
      wants and no others; sums are never reassociated.  Integer
      arithmetic is in long like the TE's 64 bits; an int parameter is
      widened by a cast where C would otherwise compute in int.  Floating
      constants print in the fewest digits that read back exactly, with
      an f suffix in float.
   5. A reduction becomes an accumulator declared just before the
      statement that uses it and a loop updating it (acc = acc op t; max
      and min keep the earlier value on ties); a reduction used twice in
      one scope is computed once.  A select whose arm holds a reduction
      becomes if/else, so that only the chosen arm runs, as in GENERIC.
   6. Everything is rendered into memory first (F receives text only
      when the whole program could be printed); lines longer than 79
      columns are then broken before their outermost, loosest operator,
      GNU style.

   This file holds the emitter's state and names, the statements and the
   function; cgen-expr.c the expressions (steps 4 and 5); cgen-text.c the
   strings, blocks and line breaking (step 6).

   Limits: a subexpression shared in the DAG is printed wherever it
   occurs (GCC's CSE merges it again), so a large DAG makes long
   statements.  The function is external even for a static kernel.  On a
   target with excess precision (x87) the C front end may keep float
   intermediates wider than the GENERIC does.  */

#include "back/cgen-expr.h"
#include "back/cgen.h"

#include <stdint.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- the emitter ------------------------------------------------------- */

cx
cg_fail (cgen *g, const char *what, const char *name)
{
  if (!g->failed)
    te_diag_set (g->diag, TE_DIAG_INTERNAL, g->loc,
                 "cannot print the gradient as C: %s '%s'", what, name);
  g->failed = true;
  return cx_make (P_PRIMARY, CT_ADAPT, "0");
}

static const char *const reserved[] = {
  "auto", "break", "case", "char", "const", "continue", "default", "do",
  "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
  "int", "long", "register", "restrict", "return", "short", "signed",
  "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
  "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool",
  "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
  "_Thread_local", "calloc", "free", "NAN", "INFINITY", "HUGE_VAL", NULL
};

/* Is S a keyword or a name the printed code uses?  */
static bool
is_reserved (const cgen *g, const char *s)
{
  for (int i = 0; reserved[i]; i++)
    if (!strcmp (s, reserved[i]))
      return true;
  for (int op = TE_EXP; op <= TE_FMIN; op++)
    {
      const char *m = te_op_name ((te_op) op);
      size_t len = strlen (m);
      if (!strncmp (s, m, len) && (!s[len] || !strcmp (s + len, "f")))
        return true;
    }
  return !strcmp (s, g->p->name);
}

/* A copy of S (strdup is not C11).  */
static char *
copy (const char *s)
{
  sbuf b = { 0 };
  sb_printf (&b, "%s", s);
  return sb_take (&b);
}

/* NAME made an identifier; FALLBACK if it has no letters to keep.  */
static char *
sanitize (const char *name, const char *fallback)
{
  sbuf b = { 0 };
  for (const char *c = name ? name : ""; *c; c++)
    sb_printf (&b, "%c", isalnum ((unsigned char) *c) ? *c : '_');
  if (!b.s || isdigit ((unsigned char) b.s[0]))
    {
      free (b.s);
      return copy (fallback);
    }
  return sb_take (&b);
}

/* Is S a parameter, a local, or taken in the current nest?  */
static bool
is_taken (const cgen *g, const char *s)
{
  if (is_reserved (g, s))
    return true;
  for (int i = 0; i < g->p->nparams; i++)
    if (g->pname[i] && !strcmp (g->pname[i], s))
      return true;
  for (int i = 0; i < g->nlocals; i++)
    if (g->lname[i] && !strcmp (g->lname[i], s))
      return true;
  for (int i = 0; i < g->ntaken; i++)
    if (!strcmp (g->taken[i], s))
      return true;
  return false;
}

/* BASE, or BASE2, BASE3, ... (BASE_2 after a digit): the first that is
   free.  */
static char *
fresh_name (cgen *g, const char *base)
{
  char *s = copy (base);
  size_t len = strlen (base);
  bool digit = len && isdigit ((unsigned char) base[len - 1]);
  for (int k = 2; !s || is_taken (g, s); k++)
    {
      free (s);
      sbuf b = { 0 };
      sb_printf (&b, "%s%s%d", base, digit ? "_" : "", k);
      s = sb_take (&b);
    }
  return s;
}

/* A fresh name for this nest, owned by G.  */
const char *
cg_take_name (cgen *g, const char *base)
{
  char *s = fresh_name (g, base);
  if (g->ntaken == g->cap_taken)
    {
      g->cap_taken = g->cap_taken ? 2 * g->cap_taken : 16;
      g->taken = realloc (g->taken, g->cap_taken * sizeof *g->taken);
      if (!g->taken)
        abort ();
    }
  g->taken[g->ntaken++] = s;
  return s;
}

/* Forget the names of the previous nest.  */
static void
nest_begin (cgen *g)
{
  for (int i = 0; i < g->ntaken; i++)
    free (g->taken[i]);
  g->ntaken = 0;
  g->nmemos = 0;
  g->depth = 0;
  for (int v = 0; v < g->p->nvars; v++)
    g->vname[v] = NULL;
}

const char *
cg_var_name (cgen *g, int v)
{
  if (!g->vname[v])
    {
      char fb[32];
      snprintf (fb, sizeof fb, "v%d", v);
      char *base = sanitize (g->p->var_names ? g->p->var_names[v] : NULL,
                             fb);
      g->vname[v] = (char *) cg_take_name (g, base);
      free (base);
    }
  return g->vname[v];
}

void
cg_scope_enter (cgen *g)
{
  g->depth++;
}

/* Leave a scope: its reductions are out of reach.  */
void
cg_scope_leave (cgen *g)
{
  g->depth--;
  while (g->nmemos && g->memos[g->nmemos - 1].depth > g->depth)
    {
      memo *m = &g->memos[--g->nmemos];
      te_memo_put (&g->memo_index, m->n, (void *) (intptr_t) m->prev);
    }
}

void
cg_memo_add (cgen *g, const te_node *n, const char *name)
{
  if (g->nmemos == g->cap_memos)
    {
      g->cap_memos = g->cap_memos ? 2 * g->cap_memos : 16;
      g->memos = realloc (g->memos, g->cap_memos * sizeof *g->memos);
      if (!g->memos)
        abort ();
    }
  memo m = { n, (char *) name, g->depth,
             (int) (intptr_t) te_memo_get (&g->memo_index, n) };
  g->memos[g->nmemos++] = m;
  te_memo_put (&g->memo_index, n, (void *) (intptr_t) g->nmemos);
}

const char *
cg_memo_find (const cgen *g, const te_node *n)
{
  int k = (int) (intptr_t) te_memo_get (&g->memo_index, n);
  return k ? g->memos[k - 1].name : NULL;
}

/* The C type of parameter K as a te_type, CT_OTHER if the TE has none.  */
int
cg_param_ctype (const cgen *g, int k)
{
  const te_param *q = &g->p->params[k];
  if (q->kind != TE_PK_INT)
    return q->type;
  const char *s = g->fwd && k < g->fwd->nparams && g->ctypes
                      ? g->ctypes[k] : NULL;
  if (!s)
    return CT_OTHER;
  if (!strncmp (s, "const ", 6))
    s += 6;
  static const struct
  {
    const char *spelling;
    te_type type;
  } names[] = {
    { "int", TE_I32 },          { "signed int", TE_I32 },
    { "signed", TE_I32 },       { "unsigned int", TE_U32 },
    { "unsigned", TE_U32 },     { "long", TE_I64 },
    { "long int", TE_I64 },     { "signed long", TE_I64 },
    { "long signed int", TE_I64 }, { "signed long int", TE_I64 },
    { "_Bool", TE_BOOL },       { "bool", TE_BOOL },
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp (s, names[i].spelling))
      return names[i].type;
  return CT_OTHER;
}

static const char *
local_name (const cgen *g, const te_tensor *t)
{
  for (int i = 0; i < g->nlocals; i++)
    if (g->locals[i] == t)
      return g->lname[i];
  return NULL;
}

/* The pointer that holds the elements of T, or NULL.  */
const char *
cg_tensor_base (cgen *g, const te_tensor *t)
{
  if (t->kind == TE_TK_PARAM && t->param >= 0 && t->param < g->p->nparams)
    {
      g->used[t->param] = true;
      return g->pname[t->param];
    }
  if (t->kind == TE_TK_LOCAL)
    return local_name (g, t);
  return NULL;
}

/* ---- statements -------------------------------------------------------- */

typedef struct nullable_set
{
  const te_tensor *items[32];
  int n;
} nullable_set;

static void
collect_nullable (te_node *n, void *data)
{
  nullable_set *s = data;
  if (n->op != TE_LOAD || !n->u.tensor->nullable)
    return;
  for (int i = 0; i < s->n; i++)
    if (s->items[i] == n->u.tensor)
      return;
  if (s->n < 32)
    s->items[s->n++] = n->u.tensor;
}


/* dst[index] (+)= value.  */
static void
store_line (cgen *g, block *out, const te_stmt *st)
{
  const te_tensor *t = st->dst;
  const char *base = cg_tensor_base (g, t);
  if (!base)
    {
      cg_fail (g, "store into", t->name);
      return;
    }
  const te_node *roots[2] = { st->value, st->index };
  cg_bind_shared (g, out, roots, 2, false);
  cx v = cg_render (g, out, st->value);
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

/* if (guard) store.  */
static void
guarded_store (cgen *g, block *out, const void *arg)
{
  const te_stmt *st = arg;
  if (!st->guard)
    {
      store_line (g, out, st);
      return;
    }
  cg_bind_shared (g, out, (const te_node *const *) &st->guard, 1, false);
  cx c = cg_render (g, out, st->guard);
  block body = { { 0 }, 0 };
  cg_scope_enter (g);
  store_line (g, &body, st);
  cg_scope_leave (g);
  sbuf head = { 0 };
  sb_printf (&head, "if (%s)", c.s);
  blk_compound (out, head.s, &body);
  free (head.s);
  free (c.s);
}

/* The statement's own loops (forwards, inside the stage's) and its
   store.  */
static void
inner_nest (cgen *g, block *out, const void *arg)
{
  const te_stmt *st = arg;
  cg_emit_loops (g, out, st->ninner, st->inner, false, guarded_store, st);
}

/* Statement ST: its own loops, the store, and the NULL tests of the
   shadows it needs, into OUT.  STAGE_LOOPS: with S's loops around.  */
static void
stmt_nest (cgen *g, block *out, const te_stage *s, const te_stmt *st,
           bool stage_loops)
{
  g->loc = st->loc;
  nullable_set ns, reads;
  ns.n = reads.n = 0;
  if (st->dst->nullable)
    ns.items[ns.n++] = st->dst;
  te_walk (st->value, collect_nullable, &reads);
  if (st->guard)
    te_walk (st->guard, collect_nullable, &reads);
  g->ncond = 0;
  for (int i = 0; i < reads.n; i++)
    if (reads.items[i] == st->dst
        || (st->op == TE_ADD_TO && te_zero_if_null (st->value, reads.items[i])))
      ns.items[ns.n++] = reads.items[i];
    else
      g->cond[g->ncond++] = reads.items[i];
  block nest = { { 0 }, 0 };
  /* Reductions are not reused across statements: one may write what
     another's reduction reads.  */
  cg_scope_enter (g);
  if (stage_loops)
    cg_emit_loops (g, &nest, s->nloops, s->loops, s->reversed, inner_nest, st);
  else
    inner_nest (g, &nest, st);
  cg_scope_leave (g);
  g->ncond = 0;
  if (!ns.n)
    {
      blk_append (out, &nest);
      return;
    }
  sbuf head = { 0 };
  sb_printf (&head, "if (");
  for (int i = 0; i < ns.n; i++)
    {
      const char *base = cg_tensor_base (g, ns.items[i]);
      sb_printf (&head, "%s%s", i ? " && " : "", base ? base : "?");
    }
  sb_printf (&head, ")");
  blk_compound (out, head.s, &nest);
  free (head.s);
}

/* The statements of a fused stage, in order, inside its loops.  */
static void
fused_body (cgen *g, block *out, const void *arg)
{
  const te_stage *s = arg;
  for (int k = 0; k < s->nstmts; k++)
    stmt_nest (g, out, s, &s->stmts[k], false);
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
      g->pname[k] = sanitize (p->params[k].name, fb);
    }
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_LOCAL)
      {
        char fb[32];
        snprintf (fb, sizeof fb, "tmp%d", g->nlocals);
        char *base = sanitize (p->tensors[i]->name, fb);
        g->locals[g->nlocals] = p->tensors[i];
        g->lname[g->nlocals] = fresh_name (g, base);
        g->nlocals++;
        free (base);
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

/* Prototypes of the functions the call stages of P call.  */
static void
call_prototypes (const te_program *p, sbuf *out)
{
  for (int s = 0; s < p->nstages; s++)
    {
      const te_call *c = p->stages[s].call;
      if (!c)
        continue;
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
      sb_printf (out, ");\n");
    }
}

static void
body (cgen *g, block *top)
{
  const te_program *p = g->p;
  nest_begin (g);
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
      blk_stmt (top, "%s *%s = calloc (%s, sizeof (%s));", ty, g->lname[i],
                n.s, ty);
      free (n.s);
    }
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      if (st->call)
        {
          if (top->nstmts)
            sb_printf (&top->text, "\n");
          g->loc = st->loc;
          call_line (g, top, st->call);
          continue;
        }
      if (st->fused)
        {
          if (top->nstmts)
            sb_printf (&top->text, "\n");
          nest_begin (g);
          cg_emit_loops (g, top, st->nloops, st->loops, st->reversed,
                         fused_body, st);
          continue;
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          if (top->nstmts)
            sb_printf (&top->text, "\n");
          nest_begin (g);
          stmt_nest (g, top, st, &st->stmts[k], true);
        }
    }
  if (g->nlocals)
    sb_printf (&top->text, "\n");
  for (int i = 0; i < g->nlocals; i++)
    blk_stmt (top, "free (%s);", g->lname[i]);
}

static void
cgen_free (cgen *g)
{
  nest_begin (g);
  for (int k = 0; k < g->p->nparams; k++)
    free (g->pname[k]);
  for (int i = 0; i < g->nlocals; i++)
    free (g->lname[i]);
  free (g->pname);
  free (g->used);
  free (g->locals);
  free (g->lname);
  free (g->vname);
  free (g->bound);
  free (g->taken);
  free (g->memos);
  te_memo_free (&g->memo_index);
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
te_program_emit_c (FILE *f, const te_program *p, const te_program *fwd,
                   const char *const *param_ctypes, bool first,
                   te_diag *diag)
{
  cgen g;
  memset (&g, 0, sizeof g);
  g.p = p;
  g.fwd = fwd;
  g.ctypes = param_ctypes;
  g.diag = diag;
  g.pname = xcalloc (p->nparams, sizeof *g.pname);
  g.used = xcalloc (p->nparams, sizeof *g.used);
  g.locals = xcalloc (p->ntensors, sizeof *g.locals);
  g.lname = xcalloc (p->ntensors, sizeof *g.lname);
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
                      "#include <stdlib.h>\n");
  sb_printf (&text, "\n/* Generated by tensorgrad from kernel %s.  Pointers "
                    "are flat: a VLA\n   parameter T x[n][m] is T *x here, "
                    "passed the same way.  */\n",
             kernel);
  call_prototypes (p, &text);
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
  cgen_free (&g);
  return ok;
}

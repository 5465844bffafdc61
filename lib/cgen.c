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

   Limits: a subexpression shared in the DAG is printed wherever it
   occurs (GCC's CSE merges it again), so a large DAG makes long
   statements.  The function is external even for a static kernel.  On a
   target with excess precision (x87) the C front end may keep float
   intermediates wider than the GENERIC does.  */

#include "te.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- growing strings and blocks of statements -------------------------- */

typedef struct sbuf
{
  char *s;
  size_t n, cap;
} sbuf;

static void
sb_vprintf (sbuf *b, const char *fmt, va_list ap)
{
  va_list aq;
  va_copy (aq, ap);
  int len = vsnprintf (NULL, 0, fmt, aq);
  va_end (aq);
  if (len < 0)
    len = 0;
  if (b->n + len + 1 > b->cap)
    {
      size_t cap = b->cap ? b->cap : 64;
      while (cap < b->n + len + 1)
        cap *= 2;
      char *s = realloc (b->s, cap);
      if (!s)
        abort ();
      b->s = s;
      b->cap = cap;
    }
  vsnprintf (b->s + b->n, len + 1, fmt, ap);
  b->n += len;
}

static void
sb_printf (sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (b, fmt, ap);
  va_end (ap);
}

/* The string of B, which B gives up.  */
static char *
sb_take (sbuf *b)
{
  char *s = b->s;
  if (!s)
    {
      s = malloc (1);
      if (!s)
        abort ();
      s[0] = 0;
    }
  b->s = NULL;
  b->n = b->cap = 0;
  return s;
}

/* Statements whose lines are indented relative to the block's own
   column; NSTMTS counts the statements at that column.  */
typedef struct block
{
  sbuf text;
  int nstmts;
} block;

/* A statement of one line.  */
static void
blk_stmt (block *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (&b->text, fmt, ap);
  va_end (ap);
  sb_printf (&b->text, "\n");
  b->nstmts++;
}

/* Append the lines of IN to OUT, INDENT columns further right.  */
static void
blk_indent (block *out, int indent, const block *in)
{
  const char *s = in->text.s;
  while (s && *s)
    {
      const char *nl = strchr (s, '\n');
      size_t len = nl ? (size_t) (nl - s) : strlen (s);
      if (len)
        sb_printf (&out->text, "%*s%.*s\n", indent, "", (int) len, s);
      else
        sb_printf (&out->text, "\n");
      s += len + (nl != NULL);
    }
}

/* BODY as the substatement of a statement, GNU style: indented by 2, in
   braces indented by 2 if it is not one statement.  Frees BODY.  */
static void
blk_sub (block *out, block *body)
{
  if (body->nstmts == 1)
    blk_indent (out, 2, body);
  else
    {
      sb_printf (&out->text, "  {\n");
      blk_indent (out, 4, body);
      sb_printf (&out->text, "  }\n");
    }
  free (body->text.s);
  memset (body, 0, sizeof *body);
}

/* The statement HEAD BODY (a for or an if).  Frees BODY.  */
static void
blk_compound (block *out, const char *head, block *body)
{
  sb_printf (&out->text, "%s\n", head);
  blk_sub (out, body);
  out->nstmts++;
}

/* if (COND) A else B.  Frees A and B.  */
static void
blk_if_else (block *out, const char *cond, block *a, block *b)
{
  sb_printf (&out->text, "if (%s)\n", cond);
  blk_sub (out, a);
  sb_printf (&out->text, "else\n");
  blk_sub (out, b);
  out->nstmts++;
}

/* Append the statements of IN to OUT at the same column.  Frees IN.  */
static void
blk_append (block *out, block *in)
{
  blk_indent (out, 0, in);
  out->nstmts += in->nstmts;
  free (in->text.s);
  memset (in, 0, sizeof *in);
}

/* ---- C expressions ----------------------------------------------------- */

/* C's precedence levels, loosest first.  */
enum
{
  P_COND = 3,
  P_OR = 4,
  P_AND = 5,
  P_EQ = 9,
  P_REL = 10,
  P_ADD = 12,
  P_MUL = 13,
  P_UNARY = 15,
  P_PRIMARY = 16
};

/* The C type of a rendered expression: a te_type, or one of these.  */
#define CT_ADAPT (-1) /* an int constant, converted to its partner's type */
#define CT_OTHER (-2) /* a C type the TE has no name for */

typedef struct cx
{
  char *s;
  int prec;
  int ctype;
} cx;

static cx
cx_make (int prec, int ctype, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static cx
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
static void
cx_paren (cx *e, int min)
{
  if (e->prec >= min)
    return;
  cx p = cx_make (P_PRIMARY, e->ctype, "(%s)", e->s);
  free (e->s);
  *e = p;
}

/* The type in declarations and casts.  */
static const char *
c_type (te_type t, bool cast)
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
static bool
widens (int from, int to)
{
  return from == to || from == CT_ADAPT
         || ((from == TE_I32 || from == TE_BOOL) && to == TE_I64)
         || (from == TE_BOOL && to == TE_I32);
}

/* E converted to type WANT: as it is when it has that type (or, if
   IMPLICIT, when C's conversions keep its value), else cast.  */
static void
cx_conform (cx *e, te_type want, bool implicit)
{
  if (e->ctype == (int) want || e->ctype == CT_ADAPT
      || (implicit && widens (e->ctype, want)))
    return;
  cx_paren (e, P_UNARY);
  cx c = cx_make (P_UNARY, want, "(%s) %s", c_type (want, true), e->s);
  free (e->s);
  *e = c;
}

/* ---- the emitter ------------------------------------------------------- */

/* A reduction already computed into NAME, valid down to scope DEPTH.  */
typedef struct memo
{
  const te_node *n;
  char *name;
  int depth;
} memo;

typedef struct cgen
{
  const te_program *p, *fwd;
  const char *const *ctypes;
  te_diag *diag;
  te_loc loc;           /* of the statement being printed */
  bool failed;
  char **pname;         /* by parameter number */
  bool *used;           /* parameters the body mentions */
  const te_tensor **locals;
  char **lname;         /* by local */
  int nlocals;
  char **vname;         /* by counter, in the current nest */
  bool *bound;          /* counters of the enclosing loops */
  char **taken;         /* identifiers of the current nest */
  int ntaken, cap_taken;
  const te_tensor *cond[32]; /* nullable tensors read as 0 when NULL */
  int ncond;
  memo *memos;
  int nmemos, cap_memos;
  int depth;
} cgen;

static cx
fail (cgen *g, const char *what, const char *name)
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
static const char *
take_name (cgen *g, const char *base)
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

static const char *
var_name (cgen *g, int v)
{
  if (!g->vname[v])
    {
      char fb[32];
      snprintf (fb, sizeof fb, "v%d", v);
      char *base = sanitize (g->p->var_names ? g->p->var_names[v] : NULL,
                             fb);
      g->vname[v] = (char *) take_name (g, base);
      free (base);
    }
  return g->vname[v];
}

static void
scope_enter (cgen *g)
{
  g->depth++;
}

/* Leave a scope: its reductions are out of reach.  */
static void
scope_leave (cgen *g)
{
  g->depth--;
  while (g->nmemos && g->memos[g->nmemos - 1].depth > g->depth)
    g->nmemos--;
}

static void
memo_add (cgen *g, const te_node *n, const char *name)
{
  if (g->nmemos == g->cap_memos)
    {
      g->cap_memos = g->cap_memos ? 2 * g->cap_memos : 16;
      g->memos = realloc (g->memos, g->cap_memos * sizeof *g->memos);
      if (!g->memos)
        abort ();
    }
  memo m = { n, (char *) name, g->depth };
  g->memos[g->nmemos++] = m;
}

static const char *
memo_find (const cgen *g, const te_node *n)
{
  for (int i = 0; i < g->nmemos; i++)
    if (g->memos[i].n == n)
      return g->memos[i].name;
  return NULL;
}

/* The C type of parameter K as a te_type, CT_OTHER if the TE has none.  */
static int
param_ctype (const cgen *g, int k)
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
static const char *
tensor_base (cgen *g, const te_tensor *t)
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

/* ---- expressions ------------------------------------------------------- */

static cx render (cgen *g, block *out, const te_node *n);

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
          return fail (g, "reference to a parameter", "?");
        g->used[k] = true;
        cx e = cx_make (P_PRIMARY, param_ctype (g, k), "%s", g->pname[k]);
        cx_conform (&e, n->type, true);
        return e;
      }
    case TE_VAR:
      if (n->u.index < 0 || n->u.index >= g->p->nvars
          || !g->bound[n->u.index])
        return fail (g, "counter outside its loop", "?");
      return cx_make (P_PRIMARY, TE_I64, "%s", var_name (g, n->u.index));
    default:
      return fail (g, "operation", te_op_name (n->op));
    }
}

static cx
load (cgen *g, block *out, const te_node *n)
{
  const te_tensor *t = n->u.tensor;
  if (t->kind == TE_TK_SCALAR)
    {
      if (t->param < 0 || t->param >= g->p->nparams)
        return fail (g, "scalar without a parameter", t->name);
      g->used[t->param] = true;
      return cx_make (P_PRIMARY, t->type, "%s", g->pname[t->param]);
    }
  const char *base = tensor_base (g, t);
  if (!base)
    return fail (g, "tensor without storage", t->name);
  cx i = render (g, out, n->args[0]);
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
  cx a = render (g, out, n->args[0]), b = render (g, out, n->args[1]);
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
  cx a = render (g, out, n->args[0]), b = render (g, out, n->args[1]);
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
  if (n->op == TE_REDUCE && !memo_find (q->g, n))
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
  scope_enter (g);
  cx x = render (g, &b, n);
  blk_stmt (&b, "%s = %s;", t, x.s);
  free (x.s);
  scope_leave (g);
  return b;
}

/* C ? A : B, evaluating only the chosen arm.  */
static cx
select_expr (cgen *g, block *out, const te_node *n)
{
  cx c = render (g, out, n->args[0]);
  if (!needs_stmts (g, n->args[1]) && !needs_stmts (g, n->args[2]))
    {
      cx a = render (g, out, n->args[1]), b = render (g, out, n->args[2]);
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
  const char *t = take_name (g, "t");
  blk_stmt (out, "%s %s;", c_type (n->type, false), t);
  block a = arm (g, n->args[1], t), b = arm (g, n->args[2], t);
  blk_if_else (out, c.s, &a, &b);
  free (c.s);
  return cx_make (P_PRIMARY, n->type, "%s", t);
}

static cx
unary (cgen *g, block *out, const te_node *n, const char *sym)
{
  cx a = render (g, out, n->args[0]);
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
  cx a = render (g, out, n->args[0]);
  if (a.ctype == (int) n->type)
    return a;
  cx_paren (&a, P_UNARY);
  cx e = cx_make (P_UNARY, n->type, "(%s) %s", c_type (n->type, true), a.s);
  free (a.s);
  return e;
}

static cx
math_call (cgen *g, block *out, const te_node *n)
{
  if (!te_type_is_float (n->type))
    return fail (g, "integer math function", te_op_name (n->op));
  const char *f = n->type == TE_F32 ? "f" : "";
  cx a = render (g, out, n->args[0]);
  cx e;
  if (te_op_arity (n->op) == 1)
    e = cx_make (P_PRIMARY, n->type, "%s%s (%s)", te_op_name (n->op), f, a.s);
  else
    {
      cx b = render (g, out, n->args[1]);
      e = cx_make (P_PRIMARY, n->type, "%s%s (%s, %s)", te_op_name (n->op), f,
                   a.s, b.s);
      free (b.s);
    }
  free (a.s);
  return e;
}

/* ---- loops and reductions ---------------------------------------------- */

typedef void (*body_fn) (cgen *g, block *out, const void *arg);

/* NLOOPS LOOPS, outermost first, around what FN prints; the extents are
   evaluated where emit.cc evaluates them, before each loop.  */
static void
emit_loops (cgen *g, block *out, int nloops, const te_loop *loops,
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
      fail (g, "loop counter", "?");
      return;
    }
  cx ext = render (g, out, loops[0].extent);
  if (!widens (ext.ctype, TE_I64))
    cx_conform (&ext, TE_I64, false);
  cx_paren (&ext, P_ADD);
  const char *name = var_name (g, v);
  block body = { { 0 }, 0 };
  scope_enter (g);
  g->bound[v] = true;
  emit_loops (g, &body, nloops - 1, loops + 1, reversed, fn, arg);
  g->bound[v] = false;
  scope_leave (g);
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
  cx t = render (g, out, body);
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
            v = take_name (g, "t");
            blk_stmt (out, "%s %s = %s;", c_type (n->type, false), v, t.s);
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
  const char *done = memo_find (g, n);
  if (done)
    return cx_make (P_PRIMARY, n->type, "%s", done);
  cx init = render (g, out, n->args[0]);
  const char *acc = take_name (g, "acc");
  blk_stmt (out, "%s %s = %s;", c_type (n->type, false), acc, init.s);
  free (init.s);
  red_arg r = { n, acc };
  emit_loops (g, out, n->u.red.nloops, n->u.red.loops, false, red_step, &r);
  memo_add (g, n, acc);
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
  cx a = render (g, out, n->args[0]);
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

/* N as a C expression; statements it needs first go to OUT.  */
static cx
render (cgen *g, block *out, const te_node *n)
{
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
        return fail (g, "operation", "floating %");
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
  return fail (g, "operation", te_op_name (n->op));
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

/* Is N zero wherever tensor T reads as zero?  (emit.cc's rule.)  */
static bool
zero_if_null (const te_node *n, const te_tensor *t)
{
  switch (n->op)
    {
    case TE_LOAD:
      return n->u.tensor == t;
    case TE_MUL:
      return zero_if_null (n->args[0], t) || zero_if_null (n->args[1], t);
    case TE_DIV:
    case TE_NEG:
    case TE_CAST:
      return zero_if_null (n->args[0], t);
    case TE_ADD:
    case TE_SUB:
      return zero_if_null (n->args[0], t) && zero_if_null (n->args[1], t);
    case TE_SELECT:
      return zero_if_null (n->args[1], t) && zero_if_null (n->args[2], t);
    default:
      return false;
    }
}

/* dst[index] (+)= value.  */
static void
store_line (cgen *g, block *out, const te_stmt *st)
{
  const te_tensor *t = st->dst;
  const char *base = tensor_base (g, t);
  if (!base)
    {
      fail (g, "store into", t->name);
      return;
    }
  cx v = render (g, out, st->value);
  cx i = render (g, out, st->index);
  if (st->op == TE_SET)
    blk_stmt (out, "%s[%s] = %s;", base, i.s, v.s);
  else
    {
      /* emit.cc converts the value to the element type, then adds.  */
      if (!(te_type_is_float (t->type) ? v.ctype == (int) t->type
                                       : widens (v.ctype, t->type)))
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
  cx c = render (g, out, st->guard);
  block body = { { 0 }, 0 };
  scope_enter (g);
  store_line (g, &body, st);
  scope_leave (g);
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
  emit_loops (g, out, st->ninner, st->inner, false, guarded_store, st);
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
        || (st->op == TE_ADD_TO && zero_if_null (st->value, reads.items[i])))
      ns.items[ns.n++] = reads.items[i];
    else
      g->cond[g->ncond++] = reads.items[i];
  block nest = { { 0 }, 0 };
  /* Reductions are not reused across statements: one may write what
     another's reduction reads.  */
  scope_enter (g);
  if (stage_loops)
    emit_loops (g, &nest, s->nloops, s->loops, s->reversed, inner_nest, st);
  else
    inner_nest (g, &nest, st);
  scope_leave (g);
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
      const char *base = tensor_base (g, ns.items[i]);
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

/* ---- breaking long lines ----------------------------------------------- */

#define WIDTH 79

/* The precedence of the binary operator and space that start S (N
   chars), or 0.  */
static int
operator_prec (const char *s, int n)
{
  static const struct
  {
    const char *op;
    int prec;
  } ops[] = { { "+ ", P_ADD }, { "- ", P_ADD },  { "* ", P_MUL },
              { "/ ", P_MUL }, { "% ", P_MUL },  { "&& ", P_AND },
              { "|| ", P_OR }, { "? ", P_COND }, { ": ", P_COND },
              { "< ", P_REL }, { "<= ", P_REL }, { "> ", P_REL },
              { ">= ", P_REL }, { "== ", P_EQ }, { "!= ", P_EQ } };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      int len = (int) strlen (ops[i].op);
      if (len <= n && !strncmp (s, ops[i].op, len))
        return ops[i].prec;
    }
  return 0;
}

/* Where the operands of one parenthesis level start: the level's own
   column, and after each operator the column of its right operand,
   loosest first.  */
typedef struct level
{
  int col;
  int n;
  int prec[16], opnd[16];
} level;

/* The column under which an operator of precedence PREC continues L.  */
static int
level_align (const level *l, int prec)
{
  int col = l->col;
  for (int i = 0; i < l->n && l->prec[i] < prec; i++)
    col = l->opnd[i];
  return col;
}

/* Record an operator of precedence PREC in L whose right operand starts
   at column OPND.  */
static void
level_push (level *l, int prec, int opnd)
{
  while (l->n && l->prec[l->n - 1] >= prec)
    l->n--;
  if (l->n < 16)
    {
      l->prec[l->n] = prec;
      l->opnd[l->n++] = opnd;
    }
}

/* Lay LINE (N chars) out with a line break at each space BRK[0..NBRK-1]
   names, GNU style: the operator after it starts the next line, under the
   operand it continues; after a comma, the next argument goes under the
   first.  With OUT, print it there.  Without, return the position of the
   first character past WIDTH, or -1, and set *CAND to the best space to
   break at before it (outermost, loosest, last), or -1.  */
static int
layout (const char *line, int n, const int *brk, int nbrk, sbuf *out,
        int *cand)
{
  int col = 0, depth = 0, k = 0, lead = 0;
  int best = -1, best_key = INT_MAX;
  level lv[32];
  bool assigned = false;
  while (lead < n && line[lead] == ' ')
    lead++;
  lv[0].col = lead + 2;
  lv[0].n = 0;
  for (int i = 0; i < n; i++)
    {
      char c = line[i];
      int prec = c == ' ' && i > lead
                     ? (line[i - 1] == ',' ? 1
                                           : operator_prec (line + i + 1,
                                                            n - i - 1))
                     : 0;
      if (k < nbrk && i == brk[k])
        {
          col = level_align (&lv[depth], prec);
          if (out)
            sb_printf (out, "\n%*s", col, "");
          k++;
          best = -1;
          best_key = INT_MAX;
          if (prec > 1)
            level_push (&lv[depth], prec, col + 2 + (prec == P_AND
                                                     || prec == P_OR));
          continue;
        }
      if ((c == '(' || c == '[') && depth < 31)
        {
          depth++;
          lv[depth].col = col + 1;
          lv[depth].n = 0;
        }
      else if ((c == ')' || c == ']') && depth > 0)
        depth--;
      else if (prec)
        {
          if (depth * 32 + prec <= best_key)
            {
              best = i;
              best_key = depth * 32 + prec;
            }
          if (prec > 1)
            {
              int len = (int) strcspn (line + i + 1, " ");
              level_push (&lv[depth], prec, col + len + 2);
            }
        }
      else if (c == '=' && depth == 0 && !assigned && i + 1 < n
               && line[i + 1] == ' ' && i > 1
               && (line[i - 1] == ' ' || line[i - 2] == ' '))
        {
          lv[0].col = col + 2;
          assigned = true;
        }
      if (out)
        sb_printf (out, "%c", c);
      if (++col > WIDTH && !out)
        {
          *cand = best;
          return i;
        }
    }
  if (out)
    sb_printf (out, "\n");
  return -1;
}

/* TEXT with its long lines broken before operators.  */
static char *
wrap_lines (const char *text)
{
  sbuf out = { 0 };
  while (*text)
    {
      const char *nl = strchr (text, '\n');
      int n = nl ? (int) (nl - text) : (int) strlen (text);
      int brk[64], nbrk = 0, cand;
      const char *body = text + strspn (text, " ");
      if (strncmp (body, "for (", 5))
        while (nbrk < 64 && layout (text, n, brk, nbrk, NULL, &cand) >= 0
               && cand >= 0 && (!nbrk || cand > brk[nbrk - 1]))
          brk[nbrk++] = cand;
      layout (text, n, brk, nbrk, &out, &cand);
      text += n + (nl != NULL);
    }
  return sb_take (&out);
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
          fail (g, "no C type given for integer parameter", q->name);
          ct = "long";
        }
      sb_printf (&b, "%s %s", ct, g->pname[k]);
      break;
    case TE_PK_FLOAT:
      sb_printf (&b, "%s %s", c_type (q->type, false), g->pname[k]);
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
                     c_type (q->type, false), g->pname[k]);
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
  const char *base = t ? tensor_base (g, t) : NULL;
  if (!t)
    {
      sb_printf (line, "NULL");
      return;
    }
  if (!base)
    {
      fail (g, "array without storage", t->name);
      return;
    }
  if (te_is_const (offset, 0))
    {
      sb_printf (line, "%s", base);
      return;
    }
  cx off = render (g, out, offset);
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
    sb_printf (&line, "%s[0] = ", tensor_base (g, c->ret));
  sb_printf (&line, "%s (", c->grad ? c->grad_name : c->name);
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (i)
        sb_printf (&line, ", ");
      if (a->kind == TE_PK_INT || a->kind == TE_PK_FLOAT)
        {
          cx v = render (g, out, a->value);
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
      cx v = render (g, out, c->d_return);
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
  const char *elem = a->tensor ? c_type (a->tensor->type, false) : NULL;
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
        sb_printf (out, "%s %s (", c->ret ? c_type (c->ret->type, false)
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
        sb_printf (out, ", %s", c_type (c->ret->type, false));
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
          fail (g, "local without a size", t->name);
          continue;
        }
      cx n = render (g, top, t->size);
      const char *ty = c_type (t->type, false);
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
          emit_loops (g, top, st->nloops, st->loops, st->reversed,
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
      char *wrapped = wrap_lines (text.s);
      fputs (wrapped, f);
      free (wrapped);
    }
  free (text.s);
  cgen_free (&g);
  return ok;
}

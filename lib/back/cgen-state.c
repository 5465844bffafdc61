/* cgen-state.c -- the C writer's state (cgen-state.h): names that are
   identifiers and unique where C needs them, the nodes computed into
   locals and the C blocks and lowered scopes they belong to.

   Names: parameters and local arrays keep the kernel's (sanitized);
   loop counters are named after the kernel's counters, anew in each
   nest; every other name (a shared subexpression's s<ID>, an
   accumulator's acc<ID>, a temporary) is unique in the function, so two
   nests at the function's top level never declare one twice.  */

#include "back/cgen-state.h"

#include <stdint.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
  "_Thread_local", "calloc", "malloc", "free", "NAN", "INFINITY", "HUGE_VAL", NULL
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

char *
cg_copy (const char *s)
{
  sbuf b = { 0 };
  sb_printf (&b, "%s", s);
  return sb_take (&b);
}

char *
cg_sanitize (const char *name, const char *fallback)
{
  sbuf b = { 0 };
  for (const char *c = name ? name : ""; *c; c++)
    sb_printf (&b, "%c", isalnum ((unsigned char) *c) ? *c : '_');
  if (!b.s || isdigit ((unsigned char) b.s[0]))
    {
      free (b.s);
      return cg_copy (fallback);
    }
  return sb_take (&b);
}

/* Is S a parameter, a local array, or taken?  */
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
  for (int i = 0; i < g->nstatics; i++)
    if (g->sname[i] && !strcmp (g->sname[i], s))
      return true;
  for (int i = 0; i < g->nvtaken; i++)
    if (!strcmp (g->vtaken[i], s))
      return true;
  return false;
}

char *
cg_fresh_name (cgen *g, const char *base)
{
  char *s = cg_copy (base);
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

/* Append S to the list *V of *N names with room for *CAP.  */
static void
push_name (char ***v, int *n, int *cap, char *s)
{
  if (*n == *cap)
    {
      *cap = *cap ? 2 * *cap : 16;
      *v = realloc (*v, *cap * sizeof **v);
      if (!*v)
        abort (); /* out of memory */
    }
  (*v)[(*n)++] = s;
}

const char *
cg_take_name (cgen *g, const char *base)
{
  char *s = cg_fresh_name (g, base);
  push_name (&g->taken, &g->ntaken, &g->cap_taken, s);
  return s;
}

const char *
cg_var_name (cgen *g, int v)
{
  if (!g->vname[v])
    {
      char fb[32];
      snprintf (fb, sizeof fb, "v%d", v);
      char *base = cg_sanitize (g->p->var_names ? g->p->var_names[v] : NULL,
                                fb);
      char *s = cg_fresh_name (g, base);
      push_name (&g->vtaken, &g->nvtaken, &g->cap_vtaken, s);
      g->vname[v] = s;
      free (base);
    }
  return g->vname[v];
}

void
cg_nest_begin (cgen *g)
{
  g->depth = 0;
  cg_scope_leave (g);
  g->depth = 0;
  /* The counters of loops around the nest (a group's, te_stage.group)
     keep their names.  */
  int keep = 0;
  for (int i = 0; i < g->nvtaken; i++)
    {
      bool bound = false;
      for (int v = 0; v < g->p->nvars && !bound; v++)
        bound = g->bound[v] && g->vname[v] == g->vtaken[i];
      if (bound)
        g->vtaken[keep++] = g->vtaken[i];
      else
        free (g->vtaken[i]);
    }
  g->nvtaken = keep;
  for (int v = 0; v < g->p->nvars; v++)
    if (!g->bound[v])
      g->vname[v] = NULL;
}

void
cg_scope_enter (cgen *g)
{
  g->depth++;
}

void
cg_scope_leave (cgen *g)
{
  g->depth--;
  while (g->nmemos && g->memos[g->nmemos - 1].depth > g->depth)
    {
      memo *m = &g->memos[--g->nmemos];
      te_memo_put (&g->memo_index, m->n, (void *) (intptr_t) m->prev);
    }
  while (g->nscopes && g->scopes[g->nscopes - 1].depth > g->depth)
    g->nscopes--;
}

void
cg_memo_add (cgen *g, const te_node *n, const char *name)
{
  if (g->nmemos == g->cap_memos)
    {
      g->cap_memos = g->cap_memos ? 2 * g->cap_memos : 16;
      g->memos = realloc (g->memos, g->cap_memos * sizeof *g->memos);
      if (!g->memos)
        abort (); /* out of memory */
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

void
cg_lw_push (cgen *g, const te_lw_scope *s)
{
  if (g->nscopes == g->cap_scopes)
    {
      g->cap_scopes = g->cap_scopes ? 2 * g->cap_scopes : 16;
      g->scopes = realloc (g->scopes, g->cap_scopes * sizeof *g->scopes);
      if (!g->scopes)
        abort (); /* out of memory */
    }
  lw_entry e = { s, g->depth };
  g->scopes[g->nscopes++] = e;
}

const te_lw_select *
cg_lw_select (const cgen *g, const te_node *n)
{
  for (int i = g->nscopes; i-- > 0;)
    {
      const te_lw_select *x = te_lw_find_select (g->scopes[i].s, n);
      if (x)
        return x;
    }
  return NULL;
}

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

const char *
cg_tensor_base (cgen *g, const te_tensor *t)
{
  if (t->kind == TE_TK_PARAM && t->param >= 0 && t->param < g->p->nparams)
    {
      g->used[t->param] = true;
      return g->pname[t->param];
    }
  if (t->kind == TE_TK_LOCAL)
    for (int i = 0; i < g->nlocals; i++)
      if (g->locals[i] == t)
        return g->lname[i];
  if (t->kind == TE_TK_STATIC)
    for (int i = 0; i < g->nstatics; i++)
      if (g->statics[i] == t)
        return g->sbase[i];
  return NULL;
}

void
cg_state_free (cgen *g)
{
  cg_nest_begin (g);
  for (int i = 0; i < g->ntaken; i++)
    free (g->taken[i]);
  for (int k = 0; k < g->p->nparams; k++)
    free (g->pname[k]);
  for (int i = 0; i < g->nlocals; i++)
    free (g->lname[i]);
  for (int i = 0; i < g->nstatics; i++)
    {
      free (g->sname[i]);
      free (g->sbase[i]);
    }
  free (g->statics);
  free (g->sname);
  free (g->sbase);
  free (g->pname);
  free (g->used);
  free (g->locals);
  free (g->lname);
  free (g->vname);
  free (g->bound);
  free (g->taken);
  free (g->vtaken);
  free (g->memos);
  free (g->scopes);
  te_memo_free (&g->memo_index);
}

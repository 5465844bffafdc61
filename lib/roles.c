/* roles.c -- what a kernel does with each tensor, and the gradient ABI.

   Before:  stage 0: y[i] = a * x[i] + y[i]      (x, y pointer parameters)
   After:   x input, y in-out; shadows d_x, d_y, d_a numbered after the
            parameters in parameter order (DESIGN.md section 2).

   1. Collect, for every tensor, the statements that write it and the
      loads that read it, with the stage and statement they sit in.
   2. A tensor nobody writes is an input (or unused).  A written tensor is
      an output when it is read only after the stage that writes it (then
      it is "read back"), in-out when it is read only for its entry value:
      in an earlier stage, or in the statement that writes it at the very
      index it writes.  A local array is a temporary, read only after the
      stage that writes it.
   3. Everything else a later issue will support (a loop-carried
      dependence, an element written twice) is refused here with an
      error at the statement concerned.
   4. Number the shadows.

   Limits: the test that each element is written once only checks that
   the written index uses every loop counter of its stage.  */

#include "te.h"

#include <string.h>

typedef struct access
{
  int stage, stmt;
  const te_node *index;
} access;

typedef struct reads_of
{
  const te_tensor *t;
  int stage, stmt;
  access *items;
  int n, cap;
  te_ctx *ctx;
} reads_of;

static void
collect_read (te_node *n, void *data)
{
  reads_of *r = data;
  if (n->op != TE_LOAD || n->u.tensor != r->t)
    return;
  if (r->n == r->cap)
    {
      int cap = r->cap ? r->cap * 2 : 8;
      access *items = te_alloc (r->ctx, cap * sizeof *items);
      if (r->n)
        memcpy (items, r->items, r->n * sizeof *items);
      r->items = items;
      r->cap = cap;
    }
  r->items[r->n++] = (access){ r->stage, r->stmt, n->args[0] };
}

/* Every load of T in P, in program order.  */
static reads_of
find_reads (te_program *p, const te_tensor *t)
{
  reads_of r = { t, 0, 0, NULL, 0, 0, p->ctx };
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      r.stage = s;
      for (int k = 0; k < st->nloops; k++)
        {
          r.stmt = 0;
          te_walk (st->loops[k].extent, collect_read, &r);
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          r.stmt = k;
          te_walk (st->stmts[k].value, collect_read, &r);
          te_walk (st->stmts[k].index, collect_read, &r);
          if (st->stmts[k].guard)
            te_walk (st->stmts[k].guard, collect_read, &r);
        }
    }
  return r;
}

/* Does every counter of stage S appear in INDEX?  */
static bool
uses_every_counter (const te_stage *s, const te_node *index)
{
  for (int k = 0; k < s->nloops; k++)
    if (!te_uses_var (index, s->loops[k].var))
      return false;
  return true;
}

/* Is INDEX the index of a statement of stage S, other than statement
   SKIP, that writes T?  Returns that statement's number or -1.  */
static int
writer_at (const te_stage *s, const te_tensor *t, const te_node *index)
{
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t && s->stmts[k].index == index)
      return k;
  return -1;
}

/* Several statements of one stage may write T only where they write
   distinct constant elements outside any loop (y[0] = ...; y[1] = ...).  */
static bool
distinct_constant_writes (const te_stage *s, const te_tensor *t)
{
  if (s->nloops)
    return false;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t
        && (s->stmts[k].index->op != TE_CONST
            || writer_at (s, t, s->stmts[k].index) != k))
      return false;
  return true;
}

/* Decide the role of T; false with DIAG on what is not supported.  */
static bool
tensor_role (te_program *p, te_tensor *t, te_diag *diag)
{
  int wstage = -1, wstmt = -1;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        if (st->dst != t)
          continue;
        if (wstage >= 0 && wstage != s)
          return te_diag_set (diag, TE_DIAG_USER, st->loc,
                              "'%s' is written by more than one loop nest; "
                              "not supported yet",
                              t->name);
        if (wstage >= 0 && !distinct_constant_writes (&p->stages[s], t))
          return te_diag_set (diag, TE_DIAG_USER, st->loc,
                              "'%s' is written by more than one statement "
                              "of a loop nest; not supported yet",
                              t->name);
        if (wstage < 0)
          wstmt = k;
        wstage = s;
      }
  reads_of r = find_reads (p, t);
  if (wstage < 0)
    {
      t->role = r.n ? TE_ROLE_INPUT : TE_ROLE_UNUSED;
      return true;
    }
  te_stage *ws = &p->stages[wstage];
  te_stmt *w = &ws->stmts[wstmt];
  if (!te_type_is_float (t->type))
    return te_diag_set (diag, TE_DIAG_USER, w->loc,
                        "integer array '%s' is written; a differentiable "
                        "kernel may only read integer arrays",
                        t->name);
  if (!uses_every_counter (ws, w->index))
    return te_diag_set (diag, TE_DIAG_USER, w->loc,
                        "each element of '%s' is written more than once "
                        "(its index does not use every loop counter); "
                        "not supported yet",
                        t->name);
  bool entry_read = false, read_back = false;
  bool local = t->kind == TE_TK_LOCAL;
  for (int i = 0; i < r.n; i++)
    {
      access *a = &r.items[i];
      int k = writer_at (ws, t, a->index);
      te_loc aloc = p->stages[a->stage].stmts[a->stmt].loc;
      if (local && (a->stage < wstage || (a->stage == wstage
                                          && (k < 0 || a->stmt <= k))))
        return te_diag_set (diag, TE_DIAG_USER, aloc,
                            "'%s' is read before it is written", t->name);
      if (a->stage > wstage)
        read_back = true;
      else if (a->stage < wstage)
        entry_read = true;
      else if (k >= 0 && a->stmt > k)
        return te_diag_set (diag, TE_DIAG_USER,
                            p->stages[a->stage].stmts[a->stmt].loc,
                            "'%s' is read after it is written; not "
                            "supported yet",
                            t->name);
      else if (k < 0 && (ws->nloops || a->index->op != TE_CONST))
        return te_diag_set (diag, TE_DIAG_USER, w->loc,
                            "loop-carried dependence through '%s' is not "
                            "supported yet",
                            t->name);
      else
        entry_read = true;
    }
  if (entry_read && read_back)
    return te_diag_set (diag, TE_DIAG_USER, w->loc,
                        "'%s' is read both before and after this statement "
                        "overwrites it; not supported yet",
                        t->name);
  t->role = local        ? TE_ROLE_TEMP
            : entry_read ? TE_ROLE_INOUT
                         : TE_ROLE_OUTPUT;
  t->read_back = read_back;
  if (t->kind == TE_TK_RETURN)
    t->role = TE_ROLE_OUTPUT;
  return true;
}

bool
te_program_roles (te_program *p, te_diag *diag)
{
  for (int i = 0; i < p->ntensors; i++)
    {
      te_tensor *t = p->tensors[i];
      if (!tensor_role (p, t, diag))
        return false;
    }
  int next = p->nparams;
  for (int i = 0; i < p->nparams; i++)
    {
      te_param *q = &p->params[i];
      q->shadow = (q->kind == TE_PK_FLOAT || q->kind == TE_PK_PTR_FLOAT)
                      ? next++
                      : -1;
    }
  return true;
}

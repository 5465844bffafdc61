/* rows.c -- the gradient works row by row.

   Before:  stage 0: for i < n:   mx[i] = max (j < m; ...);
            stage 1: for i < n:   s[i] = sum (j < m; exp (x[m*i + j] - mx[i]));
            stage 2: for (fused) i < n, j < m:
                       d_x[m*i + j] += y[m*i + j] * d_y[m*i + j];
                       d_s[i] += -(y[m*i + j] * d_y[m*i + j] / s[i]);
            stage 3: for i < n:   d1[i] += d_s[i];
   After:   stage 0: for (fused) i < n:
                       mx[i] = max (j < m; ...);
                       s[i] = sum (j < m; ...);
                       for j < m: d_x[m*i + j] += ...;
                       for j < m: d_s[i] += ...;
                       d1[i] += d_s[i];

   The reverse sweep gives every adjoint statement a loop nest of its own,
   so a gradient of a row-wise operator (softmax, layer norm, attention)
   sweeps the whole tensor once per statement.  An expert's backward runs
   one loop over the rows and, inside it, a few loops over one row, which
   stays in cache; the row's statistics and adjoints are then scalars.
   This pass gives the gradient that shape ("compute at" the outer loop,
   as Halide and TVM schedules say); shrink.c then makes the temporaries
   that live for one row one element each.

   1. Consecutive stages (no calls, none run backwards or a recurrence)
      whose outermost loops agree (the same extents, counters renamed)
      form a group, as long as step 2 allows; P is the number of loops
      they all share.
   2. The group runs iteration by iteration of its P loops instead of
      stage after stage, so a later stage sees at iteration i only what
      the earlier ones did up to i.  That is the same program when no
      array that two of its stages touch (one of them writing) is touched
      at two different iterations of the P loops: every access steps
      alike along each of them, by more than all the accesses of one
      iteration span (te_rows_apart: rows, in any order in memory), or,
      for each of the loops, every access of the array in the group, over
      the loops inside it, ends below where every access begins in its
      next iteration.  An array that the
      group's statements only add to (a weight's adjoint) may be touched
      anywhere: the sums are the same up to their order.
   3. The group becomes one fused stage over the P loops; each statement
      gets its stage's other loops as loops of its own (renamed apart
      from the P counters), in front of those it had.  The statements of
      a fused stage that get loops so share a tag (te_stmt.split): the
      lowering runs them as one nest of those loops again (lower.c).

   A stage between two of a group that touches nothing of the group
   before it, and writes nothing it touches, runs before the group (a
   value without loops, or a nest of other loops).

   Limits: the P loops must be outermost in every stage of the group and
   have extents free of the inner counters; accesses must grow with the
   counters inside the P loops (te_index_monotone) for the row test.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

/* Can stage S be part of a group?  */
static bool
groupable (const te_stage *s)
{
  return !s->call && !s->reversed && !s->recurrent && !s->blas
         && s->nloops > 0 && s->nstmts > 0;
}

/* How many outermost loops of stage B agree with the first N of A (B's
   counters renamed to A's)?  */
static int
shared_prefix (te_ctx *ctx, const te_stage *a, int n, const te_stage *b)
{
  int k = 0;
  while (k < n && k < b->nloops
         && te_canon_int (ctx, te_rename_counters (ctx, b->loops[k].extent,
                                                   k, b->loops, a->loops))
                == te_canon_int (ctx, a->loops[k].extent))
    k++;
  return k;
}

/* ---- 2. the row test ------------------------------------------------ */

#define MAX_ACCESS 64

/* One access of the array under test: its index (counters of the P
   group loops named as the group's) and the loops inside them it ranges
   over.  */
typedef struct row_access
{
  te_node *index;
  int nloops;
  te_loop loops[2 * TE_MAX_LOOPS];
  const te_stage *stage;
  const te_stmt *stmt;
} row_access;

typedef struct row_query
{
  te_ctx *ctx;
  const te_program *p;
  const te_stage *group; /* the first stage: the P loops' names */
  int P;
  const te_tensor *t;
  const te_stage *s;     /* the stage being scanned */
  const te_stmt *st;
  row_access acc[MAX_ACCESS];
  int n;
  bool fail;
} row_query;

static void
add_access (row_query *q, te_node *index, bool write)
{
  if (q->n == MAX_ACCESS)
    {
      q->fail = true;
      return;
    }
  row_access *a = &q->acc[q->n];
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_access_loops (q->p->nvars, q->s, q->P, q->st, index, write,
                           loops);
  if (n < 0)
    {
      q->fail = true;
      return;
    }
  /* The group's names for the P loops, and names of their own for the
     loops inside them (a stage's inner counter may have the number of
     the group's counter: for j, i after for i).  */
  te_loop from[3 * TE_MAX_LOOPS], to[3 * TE_MAX_LOOPS];
  int nm = 0;
  for (int k = 0; k < q->P; k++)
    {
      from[nm] = q->s->loops[k];
      to[nm++] = q->group->loops[k];
    }
  for (int k = 0; k < n; k++)
    {
      from[nm] = loops[k];
      to[nm] = loops[k];
      to[nm++].var = q->p->nvars + 1 + k;
    }
  a->index = te_canon_int (q->ctx, te_rename_counters (q->ctx, index, nm,
                                                       from, to));
  a->nloops = n;
  for (int k = 0; k < n; k++)
    {
      a->loops[k] = to[q->P + k];
      a->loops[k].extent = te_rename_counters (q->ctx, loops[k].extent, nm,
                                               from, to);
    }
  a->stage = q->s;
  a->stmt = q->st;
  q->n++;
}

static void
load_fn (te_node *n, void *data)
{
  row_query *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    add_access (q, n->args[0], false);
}

/* Every access of Q's array in stage S.  */
static void
scan_stage (row_query *q, const te_stage *s)
{
  q->s = s;
  for (int k = 0; k < s->nstmts && !q->fail; k++)
    {
      q->st = &s->stmts[k];
      if (q->st->dst == q->t)
        add_access (q, q->st->index, true);
      te_walk (q->st->value, load_fn, q);
      if (q->st->guard)
        te_walk (q->st->guard, load_fn, q);
    }
}

/* Does every access of Q end, at each iteration of group loop K, below
   where every access begins at the next?  */
static bool
rows_apart (row_query *q, int k)
{
  te_ctx *ctx = q->ctx;
  /* The loops inside loop K: the deeper group loops, then the access's.  */
  for (int a = 0; a < q->n; a++)
    for (int b = 0; b < q->n; b++)
      {
        row_access *x = &q->acc[a], *y = &q->acc[b];
        /* One statement runs its iterations in the same order.  */
        if (x->stmt == y->stmt)
          continue;
        te_loop in[4 * TE_MAX_LOOPS];
        int nx = 0, ny = 0;
        for (int j = k + 1; j < q->P; j++)
          in[nx++] = q->group->loops[j];
        memcpy (in + nx, x->loops, x->nloops * sizeof *in);
        nx += x->nloops;
        if (!te_index_monotone (ctx, x->index, nx, in))
          return false;
        te_node *hi = te_index_extreme (ctx, x->index, nx, in, true);
        te_loop iny[4 * TE_MAX_LOOPS];
        for (int j = k + 1; j < q->P; j++)
          iny[ny++] = q->group->loops[j];
        memcpy (iny + ny, y->loops, y->nloops * sizeof *iny);
        ny += y->nloops;
        te_node *v = te_var (ctx, q->group->loops[k].var);
        te_node *next = te_canon_int (
            ctx, te_replace (ctx, y->index, v,
                             te_add (ctx, v, te_int (ctx, 1))));
        if (!te_index_monotone (ctx, next, ny, iny))
          return false;
        te_node *lo = te_index_extreme (ctx, next, ny, iny, false);
        te_node *gap = te_canon_int (
            ctx, te_sub (ctx, te_sub (ctx, lo, hi), te_int (ctx, 1)));
        /* Where both run at all (else one touches nothing).  */
        const te_stage *sx = x->stage, *sy = y->stage;
        te_node *glo, *ghi;
        if (!te_non_negative_where_run (ctx, gap, sx, sy)
            && !(te_index_range (ctx, gap, k + 1, q->group->loops, &glo,
                                 &ghi)
                 && te_non_negative_where_run (ctx, glo, sx, sy)))
          return false;
      }
  return true;
}

/* Does tensor T allow stages FIRST..LAST of P to run as one group over
   their first NP loops?  */
bool
te_rows_tensor_ok (te_program *p, int first, int last, int np,
                   const te_tensor *t)
{
  row_query *q = calloc (1, sizeof *q);
  if (!q)
    return false;
  q->ctx = p->ctx;
  q->p = p;
  q->group = &p->stages[first];
  q->P = np;
  q->t = t;
  bool written = false, only_added = true;
  int touched = 0; /* statements */
  for (int s = first; s <= last && !q->fail; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          bool reads = te_reads (x->value, t) || te_reads (x->index, t)
                       || (x->guard && te_reads (x->guard, t));
          written |= x->dst == t;
          only_added &= !reads && (x->dst != t || x->op == TE_ADD_TO);
          touched += x->dst == t || reads;
        }
      scan_stage (q, st);
    }
  bool ok = !q->fail;
  /* Statements that only add to T (a weight's adjoint, or d_qkv that
     every head adds to at other rows) give the same sums in any order,
     up to their rounding, as schedule.c's reorders do.  */
  if (ok && written && touched > 1 && !only_added)
    {
      te_node *index[MAX_ACCESS];
      int nin[MAX_ACCESS];
      const te_loop *in[MAX_ACCESS];
      for (int a = 0; a < q->n; a++)
        {
          index[a] = q->acc[a].index;
          nin[a] = q->acc[a].nloops;
          in[a] = q->acc[a].loops;
        }
      /* Rows in any order of the loops (attention's scores, heads
         outside positions in memory), or rising in the loops' order.  */
      ok = te_rows_apart (p->ctx, np, q->group->loops, q->n, index, nin, in,
                          q->group, NULL, NULL);
      for (int k = 0; k < np && !ok; k++)
        if (!rows_apart (q, k))
          break;
        else if (k == np - 1)
          ok = true;
    }
  free (q);
  return ok;
}

/* Statements of a fused stage S run interleaved, iteration by iteration
   of all its loops; in the group each runs its loops inside the first NP
   on its own.  The same when none reads what another writes and two
   that write one array only add to it.  Apart they run slower: each
   loop computes again what the statements shared (a softmax's y * d_y
   in d_x, d_max and d_sum) and the fast nest without NULL tests is
   lost; measured at -O3 (paired), a softmax's gradient took 1.5 times
   as long split as fused, a dense layer's 1.1 times.  But only so do
   the temporaries between the group's stages live for one row:
   attention's gradient is as fast and 3000 times smaller.  So merge
   tags the statements of such a stage (te_stmt.split), and the lowering
   runs consecutive ones with the same loops as one nest again, their
   shared values once (lib/back/lower.c, step 5).  */
static bool
split_ok (const te_stage *s, int np)
{
  if (!s->fused || s->nloops == np)
    return true;
  for (int a = 0; a < s->nstmts; a++)
    for (int b = 0; b < s->nstmts; b++)
      {
        const te_stmt *x = &s->stmts[a], *y = &s->stmts[b];
        if (a == b)
          continue;
        if (te_reads (y->value, x->dst)
            || (y->guard && te_reads (y->guard, x->dst)))
          return false;
        if (y->dst == x->dst
            && (x->op != TE_ADD_TO || y->op != TE_ADD_TO))
          return false;
      }
  return true;
}

/* May stages FIRST..LAST run as one group over their first NP loops?  */
static bool
group_ok (te_program *p, int first, int last, int np)
{
  for (int s = first; s <= last; s++)
    if (!split_ok (&p->stages[s], np))
      return false;
  for (int i = 0; i < p->ntensors; i++)
    if (!te_rows_tensor_ok (p, first, last, np, p->tensors[i]))
      return false;
  return true;
}

/* ---- 3. one stage --------------------------------------------------- */

/* Is counter VAR one of the first NP loops of S?  */
static bool
prefix_var (const te_stage *s, int np, int var)
{
  for (int k = 0; k < np; k++)
    if (s->loops[k].var == var)
      return true;
  return false;
}

/* Stages FIRST..LAST of P as one fused stage over their first NP loops,
   at FIRST; the others go.  */
static void
merge (te_program *p, int first, int last, int np)
{
  te_ctx *ctx = p->ctx;
  te_stage *g = &p->stages[first];
  te_stage old_first = *g;
  te_stmt *stmts = NULL;
  int n = 0;
  for (int s = first; s <= last; s++)
    n += p->stages[s].nstmts;
  /* Room as te_stage_add_stmt keeps it: the next power of two.  */
  int cap = 1;
  while (cap < n)
    cap *= 2;
  stmts = te_alloc (ctx, cap * sizeof *stmts);
  n = 0;
  for (int s = first; s <= last; s++)
    {
      const te_stage *os = s == first ? &old_first : &p->stages[s];
      /* Its own loops, with counters the group's loops do not use.  */
      te_loop from[2 * TE_MAX_LOOPS], to[2 * TE_MAX_LOOPS];
      int nr = 0;
      for (int k = 0; k < np; k++)
        {
          from[nr] = os->loops[k];
          to[nr++] = g->loops[k];
        }
      te_loop own[TE_MAX_LOOPS];
      int nown = 0;
      for (int k = np; k < os->nloops; k++)
        {
          own[nown] = os->loops[k];
          if (prefix_var (g, np, own[nown].var)
              && !prefix_var (os, np, own[nown].var))
            {
              from[nr] = own[nown];
              own[nown].var = te_program_new_var (
                  p, p->var_names ? p->var_names[own[nown].var] : NULL);
              to[nr++] = own[nown];
            }
          nown++;
        }
      for (int k = 0; k < nown; k++)
        own[k].extent = te_rename_counters (ctx, own[k].extent, nr, from, to);
      for (int k = 0; k < os->nstmts; k++)
        {
          const te_stmt *st = &os->stmts[k];
          te_stmt *c = &stmts[n++];
          *c = *st;
          /* The statements of a fused stage that get loops of their own
             ran as one nest: the lowering may run them so again.  */
          c->split = os->fused && nown > 0 ? s - first + 1 : 0;
          c->index = te_rename_counters (ctx, st->index, nr, from, to);
          c->value = te_rename_counters (ctx, st->value, nr, from, to);
          if (st->guard)
            c->guard = te_rename_counters (ctx, st->guard, nr, from, to);
          c->ninner = nown + st->ninner;
          c->inner = c->ninner ? te_alloc (ctx, c->ninner * sizeof *c->inner)
                               : NULL;
          memcpy (c->inner, own, nown * sizeof *own);
          for (int j = 0; j < st->ninner; j++)
            {
              c->inner[nown + j] = st->inner[j];
              c->inner[nown + j].extent = te_rename_counters (
                  ctx, st->inner[j].extent, nr, from, to);
            }
          /* A loop of its own over a counter of the group's: renamed.  */
          for (int j = nown; j < c->ninner; j++)
            if (prefix_var (g, np, c->inner[j].var)
                && !prefix_var (os, np, c->inner[j].var))
              {
                te_loop f = c->inner[j];
                c->inner[j].var = te_program_new_var (
                    p, p->var_names ? p->var_names[f.var] : NULL);
                te_loop t = c->inner[j];
                c->index = te_rename_counters (ctx, c->index, 1, &f, &t);
                c->value = te_rename_counters (ctx, c->value, 1, &f, &t);
                if (c->guard)
                  c->guard = te_rename_counters (ctx, c->guard, 1, &f, &t);
                for (int i = j + 1; i < c->ninner; i++)
                  c->inner[i].extent = te_rename_counters (
                      ctx, c->inner[i].extent, 1, &f, &t);
              }
        }
    }
  g->nloops = np;
  g->fused = true;
  g->nstmts = n;
  g->stmts = stmts;
  int gone = last - first;
  memmove (&p->stages[first + 1], &p->stages[last + 1],
           (p->nstages - last - 1) * sizeof *p->stages);
  p->nstages -= gone;
}

/* Does stage S of P touch nothing stages FIRST.. S - 1 write, and write
   nothing they touch (nor their loops' extents read), so that it may run
   before them?  */
static bool
independent (const te_program *p, int first, int s)
{
  const te_stage *x = &p->stages[s];
  if (x->call || !x->nstmts)
    return false;
  for (int g = first; g < s; g++)
    {
      const te_stage *y = &p->stages[g];
      if (y->call)
        return false;
      for (int b = 0; b < y->nstmts; b++)
        {
          if (te_stage_accesses (x, y->stmts[b].dst))
            return false;
          for (int k = 0; k < x->nloops; k++)
            if (te_reads (x->loops[k].extent, y->stmts[b].dst))
              return false;
        }
      for (int a = 0; a < x->nstmts; a++)
        {
          const te_tensor *t = x->stmts[a].dst;
          if (te_stage_accesses (y, t))
            return false;
          for (int k = 0; k < y->nloops; k++)
            if (te_reads (y->loops[k].extent, t))
              return false;
          for (int b = 0; b < y->nstmts; b++)
            for (int i = 0; i < y->stmts[b].ninner; i++)
              if (te_reads (y->stmts[b].inner[i].extent, t))
                return false;
        }
    }
  return true;
}

bool
te_program_rows (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int first = 0; first < p->nstages; first++)
    {
      const te_stage *a = &p->stages[first];
      if (!groupable (a))
        continue;
      int np = a->nloops, last = first;
      for (int s = first + 1; s < p->nstages; s++)
        {
          const te_stage *b = &p->stages[s];
          int k = groupable (b) ? shared_prefix (p->ctx, a, np, b) : 0;
          bool joins = k > 0 && group_ok (p, first, s, k);
          if ((!b->nloops || !joins) && independent (p, first, s))
            {
              /* Computed before the group instead: a value without
                 loops (1 / sqrt (hs) between two nests over the heads),
                 or a nest that does not join it (batch norm's d3[j] from
                 its d_s[j] between two nests over (i, j) adding to
                 d_x).  */
              te_stage x = p->stages[s];
              memmove (&p->stages[first + 1], &p->stages[first],
                       (s - first) * sizeof *p->stages);
              p->stages[first] = x;
              first++;
              last++;
              a = &p->stages[first];
              continue;
            }
          if (!joins)
            break;
          np = k;
          last = s;
        }
      if (last == first)
        continue;
      merge (p, first, last, np);
      te_program_note (p, "rows: %d loop nests run as one, %d outer loop%s "
                          "shared",
                       last - first + 1, np, np == 1 ? "" : "s");
    }
  return true;
}

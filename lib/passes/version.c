/* version.c -- an array that a later nest overwrites gets one array per
   version.

   Before:  stage 0: for i < n:  t[i] = x[i];
            stage 1: for i < n:  y[i] = t[i] + 1;
            stage 2: for i < n:  t[i] = t[i] * t[i];
   After:   stage 0: for i < n:  t.v1[i] = x[i];
            stage 1: for i < n:  y[i] = t.v1[i] + 1;
            stage 2: for i < n:  t[i] = t.v1[i] * t.v1[i];

   The gradient of stage 2 needs the values stage 0 wrote, which the
   forward overwrote: tensorgrad gives them an array of their own, a local
   array of the gradient's forward program that the gradient recomputes
   (ad.c's temporaries), as the programmer would have written it.  The
   last version keeps the array's name, so an output still ends up in the
   caller's array.

   A version is split off when two consecutive writers of T, stages S0 and
   S1, each have one unguarded statement T[w] = e writing T, and write the
   same elements: over loops of the same extents, the same element in
   corresponding iterations, or each a dense range of the same length
   (t[i*m + j] over i < n, j < m and t[k] over k < n*m); S1 reads T only at the
   element it writes (the value the element had before it: S0's), and S0
   reads T only if it is a local array.  Reads between S0 and S1 read the
   new array too.  An output's version gets as many elements as S0's
   writes reach.  Repeated, an array written by k nests gets k - 1
   versions.  Two pieces one after the other along a row that a later
   loop rewrites together (a causal row's exponentials for u <= t and
   its tail zeroed, in either order, then the whole row divided by z)
   are first made one statement over the row, u < t + 1 ? e : 0
   (join_pieces), when one of them reads no array.  Anything else (a
   partial overwrite, a guarded one) is left to roles.c, which refuses
   it with a note.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdio.h>

typedef struct other_read
{
  const te_tensor *t;
  const te_node *index;
  bool found;
} other_read;

static void
other_read_fn (te_node *n, void *data)
{
  other_read *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t && n->args[0] != q->index)
    q->found = true;
}

/* The one statement of stage S that writes T, or NULL when there is none
   or more than one.  */
static te_stmt *
only_writer (te_stage *s, const te_tensor *t)
{
  te_stmt *w = NULL;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t)
      {
        if (w)
          return NULL;
        w = &s->stmts[k];
      }
  return w;
}

/* Does stage S read T anywhere but in statement values?  */
static bool
reads_elsewhere (const te_stage *s, const te_tensor *t)
{
  for (int k = 0; k < s->nloops; k++)
    if (te_reads (s->loops[k].extent, t))
      return true;
  for (int k = 0; k < s->nstmts; k++)
    {
      const te_stmt *st = &s->stmts[k];
      if (te_reads (st->index, t) || (st->guard && te_reads (st->guard, t)))
        return true;
      for (int i = 0; i < st->ninner; i++)
        if (te_reads (st->inner[i].extent, t))
          return true;
    }
  return false;
}

/* The number of elements S0's write W reaches, for an output's version;
   NULL if it cannot be told.  */
static te_node *
version_size (te_program *p, const te_tensor *t, const te_stage *s0,
              const te_stmt *w)
{
  if (t->kind == TE_TK_LOCAL)
    return t->size;
  return te_index_bound (p->ctx, w->index, s0->nloops, s0->loops);
}

#define MAX_LOADS 64

/* Does a statement value of S hold too many distinct loads of T to
   rename?  */
static bool
too_many_loads (const te_stage *s, const te_tensor *t)
{
  te_node *loads[MAX_LOADS];
  for (int k = 0; k < s->nstmts; k++)
    if (te_loads_of (s->stmts[k].value, t, loads, MAX_LOADS) < 0)
      return true;
  return false;
}

/* Replace every load of FROM in the statement values of S by the same
   load of TO.  */
static void
rename_loads (te_program *p, te_stage *s, te_tensor *from, te_tensor *to)
{
  te_node *loads[MAX_LOADS];
  for (int k = 0; k < s->nstmts; k++)
    {
      te_stmt *st = &s->stmts[k];
      int n = te_loads_of (st->value, from, loads, MAX_LOADS);
      for (int i = 0; i < n; i++)
        st->value = te_replace (p->ctx, st->value, loads[i],
                                te_load (p->ctx, to, loads[i]->args[0]));
    }
}

/* Does W, the write of stage S, write elements 0 to its number of
   iterations less one, each once (the index is the iteration's number)?
   Then *SIZE is that number.  */
static bool
dense_write (te_ctx *ctx, const te_stage *s, const te_stmt *w, te_node **size)
{
  te_node *lin, *clamped;
  if (!te_linearize (ctx, s->nloops, s->loops, &lin, &clamped)
      || te_canon_int (ctx, w->index) != lin)
    return false;
  /* The product of the extents, as sizes (not negative) multiply.  */
  *size = te_int (ctx, 1);
  for (int k = 0; k < s->nloops; k++)
    *size = te_mul (ctx, *size, s->loops[k].extent);
  *size = te_canon_int (ctx, *size);
  return true;
}

/* Do the writes WA of stage A and WB of stage B write the same elements:
   the same one in corresponding iterations of nests of the same extents,
   or each a dense range of the same length (for i, j: t[i*m + j] and
   for k < n*m: t[k])?  */
static bool
same_elements (te_ctx *ctx, const te_stage *a, const te_stmt *wa,
               const te_stage *b, const te_stmt *wb)
{
  if (te_same_element (ctx, a->nloops, a->loops, wa->index, wa->value,
                       b->nloops, b->loops, wb->index))
    return true;
  te_node *na, *nb;
  return dense_write (ctx, a, wa, &na) && dense_write (ctx, b, wb, &nb)
         && na == nb;
}

/* Does WB of stage B write every element WA of stage A writes, and more,
   reading T only where A wrote it: the nests alike but for one loop,
   longer in B, and B's reads of T behind the test that its counter is
   within A's extent?  (Attention's p[u] = u <= t ? p[u] / z : 0 over
   u < T, after p[u] = e over u <= t.)  */
static bool
covering (te_ctx *ctx, const te_stage *a, const te_stmt *wa,
          const te_stage *b, const te_stmt *wb, const te_tensor *t)
{
  if (a->nloops != b->nloops)
    return false;
  int k = -1;
  for (int j = 0; j < a->nloops; j++)
    if (te_canon_int (ctx, te_rename_counters (ctx, a->loops[j].extent,
                                               a->nloops, a->loops, b->loops))
        != te_canon_int (ctx, b->loops[j].extent))
      {
        if (k >= 0)
          return false;
        k = j;
      }
  if (k < 0
      || te_canon_int (ctx, te_rename_counters (ctx, wa->index, a->nloops,
                                                a->loops, b->loops))
             != te_canon_int (ctx, wb->index)
      || !te_loop_within (ctx, a->nloops, a->loops, b->loops, k))
    return false;
  te_node *ea = te_canon_int (ctx, te_rename_counters (
                                       ctx, a->loops[k].extent, a->nloops,
                                       a->loops, b->loops));
  return te_loads_below (ctx, wb->value, t, te_var (ctx, b->loops[k].var),
                         ea);
}

/* A write of T that stays in T while later stages rewrite other parts
   of it: statement W of stage S.  */
typedef struct piece
{
  int s;
  te_stmt *w;
} piece;

#define MAX_PIECES 16

/* Do the loads of T in the statement values of stages S0 to S1 (which
   split renames) read only elements apart from those each of the NPC
   pieces PC that ran before them (in an earlier stage or the same) wrote?
   A load of a piece's element still reads T.  */
static bool
loads_apart (te_program *p, const te_tensor *t, int s0, int s1,
             const piece *pc, int npc)
{
  te_node *loads[MAX_LOADS];
  for (int s = s0; s <= s1; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        const te_stmt *st = &p->stages[s].stmts[k];
        int n = te_loads_of (st->value, t, loads, MAX_LOADS);
        if (n < 0)
          return false;
        for (int i = 0; i < n; i++)
          for (int j = 0; j < npc; j++)
            if (pc[j].s <= s
                && !te_read_apart (p, &p->stages[s], st, loads[i]->args[0],
                                   &p->stages[pc[j].s], pc[j].w))
              return false;
      }
  return true;
}

/* May stage S0's write of T be split off as a version that stage S1's
   rewrite reads, the NPC pieces PC keeping their parts of T (the
   conditions at the top)?  */
static bool
splittable (te_program *p, te_tensor *t, int s0, int s1, const piece *pc,
            int npc)
{
  te_ctx *ctx = p->ctx;
  te_stage *a = &p->stages[s0], *b = &p->stages[s1];
  te_stmt *wa = only_writer (a, t), *wb = only_writer (b, t);
  if (!wa || !wb || a->call || b->call || wa->guard || wb->guard
      || wa->op != TE_SET || wb->op != TE_SET || wa->ninner || wb->ninner
      || !(same_elements (ctx, a, wa, b, wb)
           || covering (ctx, a, wa, b, wb, t)))
    return false;
  other_read q = { t, wb->index, false };
  for (int k = 0; k < b->nstmts; k++)
    te_walk (b->stmts[k].value, other_read_fn, &q);
  if (q.found || reads_elsewhere (b, t) || reads_elsewhere (a, t))
    return false;
  for (int k = 0; k < a->nstmts; k++)
    if (te_reads (a->stmts[k].value, t) && t->kind != TE_TK_LOCAL)
      return false;
  for (int s = s0; s <= s1; s++)
    if (too_many_loads (&p->stages[s], t)
        || (s > s0 && s < s1 && reads_elsewhere (&p->stages[s], t))
        || te_call_passes (&p->stages[s], t, true))
      return false;
  return loads_apart (p, t, s0, s1, pc, npc);
}

/* Split the version that stage S0 writes off T, which stage S1 writes
   next, while the NPC pieces PC keep their parts of T; false if the
   conditions at the top do not hold.  A rewrite under a guard G (if (x
   > 0) p[j] = 0; over the elements S0 wrote) keeps the old value where
   G fails: it becomes T[w] = G ? e : T[w], which reads the version.  */
static bool
split (te_program *p, te_tensor *t, int s0, int s1, int nversion,
       const piece *pc, int npc)
{
  te_ctx *ctx = p->ctx;
  te_stage *a = &p->stages[s0];
  te_stmt *wa = only_writer (a, t), *wb = only_writer (&p->stages[s1], t);
  if (!wa || !wb)
    return false;
  te_node *guard = wb->guard, *value = wb->value;
  if (guard && wb->op == TE_SET && !te_reads (wb->index, t))
    {
      wb->value = te_select (ctx, guard, value, te_load (ctx, t, wb->index));
      wb->guard = NULL;
    }
  if (!splittable (p, t, s0, s1, pc, npc))
    {
      wb->guard = guard;
      wb->value = value;
      return false;
    }
  te_node *size = version_size (p, t, a, wa);
  if (!size)
    return false;
  char name[256];
  snprintf (name, sizeof name, "%s.v%d", t->name, nversion);
  te_tensor *v = te_program_add_tensor (p, name, t->type, TE_TK_LOCAL, -1,
                                        wa->loc);
  v->size = size;
  for (int s = s0; s <= s1; s++)
    rename_loads (p, &p->stages[s], t, v);
  wa->dst = v;
  te_program_note (p, "version: %s, written again by a later loop nest, "
                      "keeps the values of the earlier one in %s",
                   t->name, v->name);
  if (guard && !wb->guard)
    te_program_note (p, "version: %s keeps the value of %s where the "
                        "guard of its rewrite fails",
                     t->name, v->name);
  return true;
}

/* ---- sums read before a later loop rewrote what they sum ------------

   for (b) { z = 0; for (j) { p[j] = e; z += p[j]; }  for (j) p[j] /= z;
             lse[b] = log (z); }

   The lifter computes a sum where its value is used, after the loop
   that rewrote the array it sums; it records where in the source each
   load of such a sum was (te_timed_read).  A load that came before the
   store of a later stage of the nest that rewrote T reads the version
   that stage read, when it is the element that stage rewrote in the
   same iteration of the loops they share; anything else is refused.  */

typedef struct early_query
{
  te_ctx *ctx;
  const te_tensor *t;
  int var;
  te_node *found; /* a reduction over VAR reading T */
} early_query;

static void
early_fn (te_node *n, void *data)
{
  early_query *q = data;
  if (q->found || n->op != TE_REDUCE || !te_reads (n, q->t))
    return;
  for (int k = 0; k < n->u.red.nloops; k++)
    if (n->u.red.loops[k].var == q->var)
      q->found = n;
}

/* The one tensor other than T that W's value reads at W's own index
   (p = 2 * p.v1 reads p.v1: the version W rewrites), or NULL.  */
typedef struct version_query
{
  te_ctx *ctx;
  const te_tensor *t;
  te_node *index;
  te_tensor *v;
  bool mixed;
} version_query;

static void
version_fn (te_node *n, void *data)
{
  version_query *q = data;
  if (n->op != TE_LOAD || n->u.tensor == q->t
      || n->u.tensor->kind != TE_TK_LOCAL
      || te_canon_int (q->ctx, n->args[0]) != q->index)
    return;
  if (q->v && q->v != n->u.tensor)
    q->mixed = true;
  q->v = n->u.tensor;
}

static te_tensor *
read_version (te_ctx *ctx, const te_stmt *w, const te_tensor *t)
{
  if (w->op != TE_SET || w->guard || w->ninner)
    return NULL;
  version_query q = { ctx, t, te_canon_int (ctx, w->index), NULL, false };
  te_walk (w->value, version_fn, &q);
  return q.mixed ? NULL : q.v;
}

static bool
early_reads (te_program *p, te_diag *diag)
{
  te_ctx *ctx = p->ctx;
  for (int i = 0; i < p->ntimed; i++)
    {
      const te_timed_read *r = &p->timed[i];
      for (int s = 0; s < p->nstages; s++)
        {
          te_stage *rs = &p->stages[s];
          for (int k = 0; k < rs->nstmts; k++)
            {
              te_stmt *st = &rs->stmts[k];
              early_query q = { ctx, r->tensor, r->var, NULL };
              te_walk (st->value, early_fn, &q);
              if (!q.found)
                continue;
              /* A later writer of T that the read came before.  */
              for (int ws = 0; ws < s; ws++)
                {
                  te_stage *w = &p->stages[ws];
                  te_stmt *wt = only_writer (w, r->tensor);
                  if (!wt || w->nest != rs->nest || !wt->pos
                      || wt->pos < r->pos)
                    continue;
                  if (wt->pos_first < r->pos)
                    {
                      /* Read between the stores of the arms of an
                         if/else: after one of them, or before another,
                         in an order the lifter cannot tell.  */
                      te_diag_set (diag, TE_DIAG_USER, st->loc,
                                   "the sum stored here adds up '%s' "
                                   "where it is rewritten in the arms of "
                                   "an if/else, and it cannot be told "
                                   "whether before or after; not "
                                   "supported yet",
                                   r->tensor->name);
                      te_diag_note (diag, "add up '%s' in a loop of its "
                                          "own after the one that rewrites "
                                          "it",
                                    r->tensor->name);
                      return false;
                    }
                  te_tensor *v = read_version (ctx, wt, r->tensor);
                  /* The sum's loads of T, as W's loops see them.  */
                  int shared = te_shared_loops (rs, w);
                  te_loop to[2 * TE_MAX_LOOPS];
                  int nto = 0;
                  for (int j = 0; j < shared; j++)
                    to[nto++] = rs->loops[j];
                  for (int j = 0; j < q.found->u.red.nloops
                                  && nto < 2 * TE_MAX_LOOPS; j++)
                    to[nto++] = q.found->u.red.loops[j];
                  te_node *mine[MAX_LOADS];
                  int nm = te_loads_of (q.found, r->tensor, mine, MAX_LOADS);
                  bool same = v && nm > 0 && nm < MAX_LOADS;
                  for (int l = 0; same && l < nm; l++)
                    same = te_same_element (ctx, w->nloops, w->loops,
                                            wt->index, wt->index, nto, to,
                                            mine[l]->args[0])
                           != NULL;
                  if (!same)
                    {
                      te_diag_set (diag, TE_DIAG_USER, st->loc,
                                   "the sum stored here adds up '%s' as it "
                                   "was before a later loop of the same "
                                   "nest rewrote it; not supported yet",
                                   r->tensor->name);
                      te_diag_note (diag, "store the sum before the loop "
                                          "that rewrites '%s'",
                                    r->tensor->name);
                      return false;
                    }
                  te_node *nr = q.found;
                  for (int l = 0; l < nm; l++)
                    nr = te_replace (ctx, nr, mine[l],
                                     te_load (ctx, v, mine[l]->args[0]));
                  st->value = te_replace (ctx, st->value, q.found, nr);
                  te_program_note (p, "version: a sum of %s read before "
                                      "a later loop rewrote it reads %s",
                                   r->tensor->name, v->name);
                  break;
                }
            }
        }
    }
  return true;
}

/* ---- a part rewritten -----------------------------------------------

   for i < n:  y[i] = e(i);        for i < n:  y.v1[i] = e(i);
   y[0] = 0;                   ->  for i < n:  y[i] = i == 0 ? 0 : y.v1[i];

   A later stage B writing part of what stage A wrote: B's loops are the
   outer loops of A that both run in (te_shared_loops) and at most one
   more, LB, and B's elements are those A writes with its one other loop
   K at a value V, or at V + LB's counter (the same step: for i < m,
   y[i] = ... after a loop over n elements).  B then runs over A's loops,
   storing its value where K's counter is V (or in [V, V + LB's extent),
   LB's counter K's less V) and A's elsewhere, which split versions as a
   rewrite of the same elements.  The range must lie in K's: provably (a
   polynomial in the counters and sizes with no negative coefficient:
   the diagonal t of a row u <= t, a tail from t + 1 of a row of T), or
   by a condition on the parameters alone that the gradient requires
   (te_program_require: n - 1 >= 0 above, n - m >= 0).  Limits: A has
   one loop more than those they share, B at most one, and B's value
   reads T only at the element it writes.  */

#define MAX_PARTS 8

typedef struct widened
{
  te_stage stage;             /* B as it was */
  te_stmt stmts[MAX_PARTS];   /* its statements */
  int ngaps;
  te_node *gaps[2 * MAX_PARTS]; /* what the gradient requires (>= 0) */
} widened;

/* Is N, an integer expression, at least 0: a polynomial with no negative
   coefficient in counters and sizes, or free of the counters of the
   NLOOPS LOOPS (added to W's gaps, which the gradient requires)?  */
static bool
gap_ok (te_ctx *ctx, te_node *n, int nloops, const te_loop *loops,
        widened *w)
{
  n = te_canon_int (ctx, n);
  if (n->op == TE_CONST)
    return n->u.i >= 0;
  if (!te_poly_negative (n))
    return true;
  for (int k = 0; k < nloops; k++)
    if (te_uses_var (n, loops[k].var))
      return false;
  if (!te_param_poly (n))
    return false;
  w->gaps[w->ngaps++] = n;
  return true;
}

/* The value V of the counter of loop K of stage A (its last) at which
   A's write WA writes the element that INDEX of stage B names (B's
   loops the first K of A's), or NULL when there is none such.  */
static te_node *
part_at (te_ctx *ctx, const te_stage *a, const te_stmt *wa, int k,
         const te_stage *b, te_node *index)
{
  const te_loop *lk = &a->loops[k];
  te_node *c = te_coefficient (ctx, wa->index, lk->var);
  te_node *base = te_canon_int (
      ctx, te_sub (ctx, wa->index, te_mul (ctx, c, te_var (ctx, lk->var))));
  if (c == te_int (ctx, 0) || te_uses_var (c, lk->var)
      || te_uses_var (base, lk->var))
    return NULL;
  /* B's element, in A's counters, is BASE + C * V.  */
  te_node *d = te_canon_int (
      ctx, te_sub (ctx, te_rename_counters (ctx, index, k, b->loops,
                                            a->loops),
                   base));
  te_node *rest = NULL;
  te_node *v = te_canon_divide (ctx, d, c, &rest);
  if (!v || (rest && rest != te_int (ctx, 0)) || te_uses_var (v, lk->var)
      || te_canon_int (ctx, te_mul (ctx, c, v)) != d)
    return NULL;
  return v;
}

/* Does VALUE read T only at INDEX?  */
static bool
reads_only_at (te_ctx *ctx, te_node *value, const te_tensor *t,
               te_node *index)
{
  te_node *loads[MAX_LOADS];
  int n = te_loads_of (value, t, loads, MAX_LOADS);
  if (n < 0)
    return false;
  index = te_canon_int (ctx, index);
  for (int i = 0; i < n; i++)
    if (te_canon_int (ctx, loads[i]->args[0]) != index)
      return false;
  return true;
}

/* Statement W of stage B (B's loops the first K of stage A's, and at
   most one more, LB) as a part of what A's write WA writes: the value of
   the counter of A's last loop at B's first element (LB's counter at
   0) in *AT, in A's counters, and the number of elements, LB's extent
   or 1, in *LEN; false when W writes no such part (another step) or
   when its range cannot be shown to lie in that loop's (else the
   gradient requires what shows it: SAVED's gaps).  */
static bool
part_of (te_ctx *ctx, const te_stage *a, const te_stmt *wa, int k,
         const te_stage *b, const te_loop *lb, const te_stmt *w,
         widened *saved, te_node **at, te_node **len)
{
  te_node *index = w->index;
  *len = te_int (ctx, 1);
  if (lb)
    {
      te_node *cb = te_rename_counters (
          ctx, te_coefficient (ctx, index, lb->var), k, b->loops, a->loops);
      if (te_canon_int (ctx, cb)
          != te_coefficient (ctx, wa->index, a->loops[k].var)
          || te_uses_var (lb->extent, lb->var))
        return false;
      index = te_canon_int (ctx, te_replace (ctx, index,
                                             te_var (ctx, lb->var),
                                             te_int (ctx, 0)));
      *len = te_canon_int (ctx, te_rename_counters (ctx, lb->extent, k,
                                                    b->loops, a->loops));
    }
  *at = part_at (ctx, a, wa, k, b, index);
  return *at && gap_ok (ctx, *at, k, a->loops, saved)
         && gap_ok (ctx, te_sub (ctx, te_sub (ctx, a->loops[k].extent, *at),
                                 *len),
                    k, a->loops, saved);
}

/* Make stage S1, whose statements all write parts of what stage S0 wrote
   to T, one rewrite of all of it as above; false (nothing changed) when
   they are no such parts.  SAVED keeps S1 as it was.  */
static bool
widen_part (te_program *p, te_tensor *t, int s0, int s1, widened *saved)
{
  te_ctx *ctx = p->ctx;
  te_stage *a = &p->stages[s0], *b = &p->stages[s1];
  te_stmt *wa = only_writer (a, t);
  int np = te_shared_loops (a, b);
  if (!wa || a->call || b->call || wa->guard || wa->op != TE_SET
      || wa->ninner || b->nloops < np || b->nloops > np + 1
      || a->nloops != np + 1 || te_reads (wa->index, NULL)
      || b->nstmts > MAX_PARTS)
    return false;
  for (int k = 0; k < np; k++)
    if (te_canon_int (ctx, te_rename_counters (ctx, a->loops[k].extent, np,
                                               a->loops, b->loops))
        != te_canon_int (ctx, b->loops[k].extent))
      return false;
  const te_loop *lk = &a->loops[np];
  const te_loop *lb = b->nloops > np ? &b->loops[np] : NULL;
  te_node *at[MAX_PARTS], *len[MAX_PARTS];
  saved->ngaps = 0;
  for (int j = 0; j < b->nstmts; j++)
    {
      te_stmt *w = &b->stmts[j];
      if (w->dst != t || w->guard || w->op != TE_SET || w->ninner
          || te_reads (w->index, NULL)
          || !reads_only_at (ctx, w->value, t, w->index)
          || !part_of (ctx, a, wa, np, b, lb, w, saved, &at[j], &len[j]))
        return false;
    }
  saved->stage = *b;
  for (int j = 0; j < b->nstmts; j++)
    saved->stmts[j] = b->stmts[j];
  te_loop nl = { .var = te_program_new_var (p, p->var_names[lk->var]) };
  nl.extent = te_canon_int (ctx, te_rename_counters (ctx, lk->extent, np,
                                                     a->loops, b->loops));
  te_node *nv = te_var (ctx, nl.var);
  te_node *index = te_canon_int (
      ctx, te_rename_counters (ctx, wa->index, np, a->loops, b->loops));
  index = te_canon_int (ctx, te_replace (ctx, index, te_var (ctx, lk->var),
                                         nv));
  /* The later statement wins where two store to one element.  */
  te_node *value = te_load (ctx, t, index);
  for (int j = 0; j < b->nstmts; j++)
    {
      te_stmt *w = &b->stmts[j];
      te_node *v = te_canon_int (
          ctx, te_rename_counters (ctx, at[j], np, a->loops, b->loops));
      te_node *n = te_canon_int (
          ctx, te_rename_counters (ctx, len[j], np, a->loops, b->loops));
      te_node *wv = w->value, *loads[MAX_LOADS];
      int nl2 = te_loads_of (wv, t, loads, MAX_LOADS);
      for (int i = 0; i < nl2; i++)
        wv = te_replace (ctx, wv, loads[i], te_load (ctx, t, index));
      if (!lb)
        {
          value = te_select (ctx, te_binary (ctx, TE_EQ, nv, v), wv, value);
          continue;
        }
      wv = te_canon_loads (ctx, te_replace (ctx, wv, te_var (ctx, lb->var),
                                            te_sub (ctx, nv, v)));
      /* The run [V, V + N), a test left out where it always holds: the
         earlier value behind one comparison where one is left (a
         descriptor's extents read such a path).  */
      te_node *end = te_canon_int (ctx, te_add (ctx, v, n));
      bool from_first = v == te_int (ctx, 0);
      bool to_last = te_canon_int (ctx, te_sub (ctx, nl.extent, end))
                     == te_int (ctx, 0);
      if (from_first && to_last)
        value = wv;
      else if (from_first)
        value = te_select (ctx, te_binary (ctx, TE_LT, nv, end), wv, value);
      else if (to_last)
        value = te_select (ctx, te_binary (ctx, TE_LT, nv, v), value, wv);
      else
        value = te_select (
            ctx,
            te_binary (ctx, TE_AND, te_binary (ctx, TE_LE, v, nv),
                       te_binary (ctx, TE_LT, nv, end)),
            wv, value);
    }
  b->loops[np] = nl;
  b->loop_ids[np] = 0;
  b->nloops = np + 1;
  b->stmts[0].value = value;
  b->stmts[0].index = index;
  b->nstmts = 1;
  return true;
}

/* Undo widen_part on stage S1 of P.  */
static void
unwiden (te_program *p, int s1, const widened *saved)
{
  te_stage *b = &p->stages[s1];
  *b = saved->stage;
  for (int j = 0; j < b->nstmts; j++)
    b->stmts[j] = saved->stmts[j];
}

/* Does stage S access T (or call with it)?  */
static bool
touches (const te_stage *s, const te_tensor *t)
{
  return te_stage_accesses (s, t) || te_call_passes (s, t, true)
         || te_call_passes (s, t, false);
}

/* Pieces A and B of T (A's stage earlier), each the one statement of
   its stage, over loops alike but the last, which B continues where A's
   ends (a causal row's entries p[t*T + u] for u < t + 1, then its tail
   p[t*T + t + 1 + u] zeroed for u < T - 1 - t): A becomes one statement
   over both, T[w] = u < E_A ? a : b (b's counter as u - E_A), over
   u < E_A + E_B, and B's stage empty, so that a later loop rewriting the
   whole row (p[u] /= z over u < T) rewrites one piece.  The value of one
   of them reads no array (the zeros of a tail), neither reads T, and no
   stage between touches T.  False, and nothing changed, if that is not so.  */
static bool
join_pieces (te_program *p, te_tensor *t, piece *a, const piece *b)
{
  te_ctx *ctx = p->ctx;
  te_stage *sa = &p->stages[a->s], *sb = &p->stages[b->s];
  const te_stmt *wa = a->w, *wb = b->w;
  int n = sa->nloops;
  if (a->s >= b->s || sa->nstmts != 1 || sb->nstmts != 1 || sa->call
      || sb->call || n == 0 || sb->nloops != n || wa->guard || wb->guard
      || wa->op != TE_SET || wb->op != TE_SET || wa->ninner || wb->ninner
      || te_reads (wa->value, t) || te_reads (wb->value, t)
      || (te_reads (wa->value, NULL) && te_reads (wb->value, NULL))
      || reads_elsewhere (sa, t) || reads_elsewhere (sb, t))
    return false;
  for (int s = a->s + 1; s < b->s; s++)
    if (touches (&p->stages[s], t))
      return false;
  /* B in A's counters.  */
  te_node *ib = te_canon_int (ctx, te_rename_counters (ctx, wb->index, n,
                                                       sb->loops, sa->loops));
  for (int k = 0; k < n - 1; k++)
    if (te_canon_int (ctx, te_rename_counters (ctx, sb->loops[k].extent, n,
                                               sb->loops, sa->loops))
        != te_canon_int (ctx, sa->loops[k].extent))
      return false;
  const te_loop *u = &sa->loops[n - 1];
  te_node *ea = te_canon_int (ctx, u->extent);
  te_node *eb = te_canon_int (ctx, te_rename_counters (
                                       ctx, sb->loops[n - 1].extent, n,
                                       sb->loops, sa->loops));
  te_node *v = te_var (ctx, u->var);
  te_node *ca = te_coefficient (ctx, wa->index, u->var);
  te_node *lo, *hi;
  /* Both extents at least 0 where the outer loops run, at the same
     step, B's first element one step past A's last (or A's one past
     B's: the tail zeroed first).  */
  if (ca->op != TE_CONST || ca->u.i == 0
      || te_coefficient (ctx, ib, u->var) != ca
      || !te_index_range (ctx, ea, n - 1, sa->loops, &lo, &hi)
      || !te_non_negative (ctx, lo)
      || !te_index_range (ctx, eb, n - 1, sa->loops, &lo, &hi)
      || !te_non_negative (ctx, lo))
    return false;
  te_node *va = wa->value;
  te_node *vb = te_rename_counters (ctx, wb->value, n, sb->loops, sa->loops);
  te_stmt *x = &sa->stmts[0];
  if (te_canon_int (ctx, te_replace (ctx, ib, v, te_int (ctx, 0)))
      == te_canon_int (ctx, te_replace (ctx, wa->index, v, ea)))
    x->value = te_select (
        ctx, te_binary (ctx, TE_LT, v, ea), va,
        te_canon_loads (ctx, te_replace (ctx, vb, v, te_sub (ctx, v, ea))));
  else if (te_canon_int (ctx, te_replace (ctx, wa->index, v, te_int (ctx, 0)))
           == te_canon_int (ctx, te_replace (ctx, ib, v, eb)))
    {
      x->value = te_select (
          ctx, te_binary (ctx, TE_LT, v, eb), vb,
          te_canon_loads (ctx, te_replace (ctx, va, v, te_sub (ctx, v, eb))));
      x->index = ib;
    }
  else
    return false;
  sa->loops[n - 1].extent = te_canon_int (ctx, te_add (ctx, ea, eb));
  sb->nstmts = 0;
  te_program_note (p, "version: the two loops writing %s one after the "
                      "other along a row are one, which a later loop "
                      "rewrites",
                   t->name);
  return true;
}

/* The writes of T in stage order: each either meets none of the writes
   that T holds so far (a piece of a piecewise definition: a causal row's
   entries u <= t and its tail zeroed from t + 1, in any order) or
   rewrites exactly one of them, which split gives a version.  Stops at
   the first that does neither, for roles.c to refuse.  */
static void
version_tensor (te_program *p, te_tensor *t)
{
  piece live[MAX_PIECES];
  int nlive = 0, nversion = 0;
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *sg = &p->stages[s];
      for (int k = 0; k < sg->nstmts; k++)
        {
          te_stmt *st = &sg->stmts[k];
          if (st->dst != t)
            continue;
          int meet = -1, nmeet = 0;
          for (int i = 0; i < nlive; i++)
            if (!te_writes_apart (p, &p->stages[live[i].s], live[i].w, sg,
                                  st))
              {
                meet = i;
                nmeet++;
              }
          if (nmeet == 0 && nlive < MAX_PIECES)
            {
              live[nlive++] = (piece) { s, st };
              continue;
            }
          /* A rewrite of two pieces that make one row.  */
          if (nmeet == 2)
            {
              int m0 = -1;
              for (int i = 0; i < nlive && m0 < 0; i++)
                if (!te_writes_apart (p, &p->stages[live[i].s], live[i].w,
                                      sg, st))
                  m0 = i;
              if (live[m0].s < live[meet].s
                  && join_pieces (p, t, &live[m0], &live[meet]))
                {
                  live[meet] = live[--nlive];
                  meet = m0;
                  nmeet = 1;
                }
            }
          if (nmeet != 1 || live[meet].s == s)
            return;
          piece rest[MAX_PIECES];
          int nrest = 0;
          for (int i = 0; i < nlive; i++)
            if (i != meet)
              rest[nrest++] = live[i];
          if (!split (p, t, live[meet].s, s, ++nversion, rest, nrest))
            {
              widened saved;
              if (!widen_part (p, t, live[meet].s, s, &saved))
                return;
              if (!split (p, t, live[meet].s, s, nversion, rest, nrest))
                {
                  unwiden (p, s, &saved);
                  return;
                }
              for (int g = 0; g < saved.ngaps; g++)
                te_program_require (p, saved.gaps[g], st->loc,
                                    "what this statement rewrites of "
                                    "'%s' lies among the elements an "
                                    "earlier loop wrote",
                                    t->name);
              te_program_note (p, "version: %s, rewritten in part, "
                                  "keeps the values of the earlier loop "
                                  "elsewhere",
                               t->name);
            }
          live[meet] = (piece) { s, st };
        }
    }
}

bool
te_program_version (te_program *p, te_diag *diag)
{
  int n = p->ntensors;
  for (int i = 0; i < n; i++)
    {
      te_tensor *t = p->tensors[i];
      if (te_type_is_float (t->type)
          && (t->kind == TE_TK_LOCAL || t->kind == TE_TK_PARAM))
        version_tensor (p, t);
    }
  return early_reads (p, diag);
}

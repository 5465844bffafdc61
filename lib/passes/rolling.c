/* rolling.c -- rolling buffers: keeping every step the forward overwrote.

   Before:  double h[2][H];  ... h[(t+1) % 2][i] = tanh (... h[t % 2][j] ...);
            stage 1: for t < T, i < H:  h[(1 + t) % 2 * H + i] = ...h[t % 2 * H + j]...
   After:   stage 1: for t < T, i < H:  h[(1 + t) * H + i] = ...h[t * H + j]...

   A local array indexed modulo a constant keeps only the last few steps
   of a recurrence; its gradient needs them all.  The gradient stores
   them: the array is given one slot per step (its index without the
   modulo), which the gradient's prologue fills by running the forward's
   stages again.  The forward's own code keeps its small buffer.

   1. A candidate is a local array every access of which has exactly one
      e % c in its index, with one constant c for all and one slot size
      S (the index is S * (e % c) + ...), except writes before the
      others that stay within the first slot (the initial state).
   2. Each read must see the step the forward's buffer held: the step of
      the latest write before it, minus less than c.  For a read in the
      stage that writes the array, its e is at most c - 1 below the
      write's e (and not above); for a read in a later stage, below the
      step of the last iteration of the last write, or, inside a
      reduction over loops like the write's, the element the write wrote
      in the same iteration (a loss summed over the steps, which the
      lifter moved after the loop).  A read after the last write may
      have lost its modulo to constant folding (h[T % 2] with T = 5 is
      h[H + i]): when the last write's final step is a constant, the
      read names a slot, and so the step that last filled it.  Else the
      array is left alone, and the role analysis refuses the overwrite.
   3. Replace e % c by e in every index and size the array from the
      largest element its writes reach; note the decision.

   Limits: e must not be negative (C's % would then differ from a
   rotation); c is at most 64.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <string.h>

typedef struct mod_query
{
  te_node *mod; /* the e % c found, or NULL */
  int count;
} mod_query;

static void
find_mod (te_node *n, void *data)
{
  mod_query *q = data;
  if (n->op == TE_MOD && n->args[1]->op == TE_CONST)
    {
      q->mod = n;
      q->count++;
    }
}

typedef struct access
{
  int stage;
  te_node *index; /* of the load, or of the statement for a write */
  bool write;
  const te_stmt *stmt; /* a load's statement */
  te_node *load;
  te_node *fixed; /* a read of a constant slot: its index, unrolled */
} access;

typedef struct access_list
{
  const te_tensor *t;
  int stage;
  const te_stmt *stmt;
  access items[64];
  int n;
  bool overflow;
} access_list;

static void
collect_load (te_node *n, void *data)
{
  access_list *a = data;
  if (n->op != TE_LOAD || n->u.tensor != a->t)
    return;
  if (a->n == 64)
    a->overflow = true;
  else
    a->items[a->n++] = (access){ a->stage, n->args[0], false, a->stmt, n };
}

/* The loops of the reductions of N around node X, outermost first, into
   LOOPS (*NLOOPS of them); false if X is not in N.  */
static bool
enclosing_loops (const te_node *n, const te_node *x, te_loop *loops,
                 int *nloops)
{
  if (n == x)
    return true;
  if (!n)
    return false;
  for (int k = 0; k < 3; k++)
    {
      int saved = *nloops;
      if (n->op == TE_REDUCE && k == 1)
        for (int j = 0; j < n->u.red.nloops && *nloops < TE_MAX_LOOPS; j++)
          loops[(*nloops)++] = n->u.red.loops[j];
      if (enclosing_loops (n->args[k], x, loops, nloops))
        return true;
      *nloops = saved;
    }
  return false;
}

/* Does read R, in a later stage than write W (stage WS), read in a
   reduction over loops like WS's the element W wrote in the same
   iteration (l += v[i] * h[(t + 1) % 2][i] right after writing it, which
   the lifter made a reduction of a later stage)?  */
static bool
same_iteration_read (te_ctx *ctx, const access *r, const te_stage *ws,
                     const access *w)
{
  te_loop loops[TE_MAX_LOOPS];
  int n = 0;
  if (!r->stmt || !enclosing_loops (r->stmt->value, r->load, loops, &n))
    return false;
  return te_same_element (ctx, ws->nloops, ws->loops, w->index,
                          te_int (ctx, 0), n, loops, r->index)
         != NULL;
}

/* X at the last iteration of stage S.  */
static te_node *
last_of (te_ctx *ctx, const te_stage *s, te_node *x)
{
  return te_index_extreme (ctx, x, s->nloops, s->loops, true);
}

/* Is D a constant in [LO, HI]?  */
static bool
const_in (const te_node *d, int64_t lo, int64_t hi)
{
  return d->op == TE_CONST && d->u.i >= lo && d->u.i <= hi;
}

static te_node *
mod_arg (te_node *index)
{
  mod_query q = { NULL, 0 };
  te_walk (index, find_mod, &q);
  return q.count == 1 ? q.mod : NULL;
}

/* Read R of no modulo, in a stage after the last write W of stage WS
   (a final state h[T % 2] whose T is a constant, folded to h[H + i]):
   when W's step at its last iteration is a constant E, R reads slot
   K = R's index / SLOT of the buffer, which the forward's last write to
   that slot filled at step E - ((E - K) mod C).  That step's index,
   unrolled, into R->fixed; false when R is not such a read.  */
static bool
fixed_slot_read (te_program *p, access *r, const te_stage *ws,
                 const access *w, int64_t c, te_node *slot)
{
  te_ctx *ctx = p->ctx;
  te_node *m = mod_arg (w->index);
  if (!m || !r->stmt)
    return false;
  te_node *e = last_of (ctx, ws, m->args[0]);
  if (e->op != TE_CONST || e->u.i < c - 1)
    return false;
  te_loop loops[2 * TE_MAX_LOOPS];
  int n = te_read_loops (p->nvars, &p->stages[r->stage], 0, r->stmt->value,
                         r->index, loops);
  if (n < 0)
    return false;
  for (int64_t k = 0; k < c; k++)
    {
      te_node *in = te_canon_int (
          ctx, te_sub (ctx, r->index, te_mul (ctx, slot, te_int (ctx, k))));
      te_node *lo, *hi;
      if (!te_index_range (ctx, in, n, loops, &lo, &hi)
          || !te_non_negative (ctx, lo)
          || !te_non_negative (ctx, te_canon_int (ctx, te_sub (
                                        ctx, te_sub (ctx, slot,
                                                     te_int (ctx, 1)),
                                        hi))))
        continue;
      int64_t step = e->u.i - ((e->u.i - k) % c + c) % c;
      r->fixed = te_canon_int (
          ctx, te_add (ctx, in, te_mul (ctx, slot, te_int (ctx, step))));
      return true;
    }
  return false;
}

/* Steps 1-3 for local array T of P.  */
static void
unroll (te_program *p, te_tensor *t)
{
  te_ctx *ctx = p->ctx;
  access_list a;
  memset (&a, 0, sizeof a);
  a.t = t;
  for (int s = 0; s < p->nstages; s++)
    {
      a.stage = s;
      for (int k = 0; k < p->stages[s].nstmts; k++)
        {
          const te_stmt *st = &p->stages[s].stmts[k];
          a.stmt = st;
          te_walk (st->value, collect_load, &a);
          if (st->guard)
            te_walk (st->guard, collect_load, &a);
          a.stmt = NULL; /* a guard's loads are not searched */
          if (st->dst == t && a.n < 64)
            a.items[a.n++] = (access){ s, st->index, true, st, NULL };
        }
    }
  if (a.overflow || a.n == 0)
    return;
  /* Step 1.  A write without the modulo is allowed before the others,
     when it stays in the first slot (the initial state).  */
  int64_t c = 0;
  te_node *slot = NULL; /* the elements of one slot: S in S * (e % c) */
  int first_mod_write = -1;
  for (int i = 0; i < a.n; i++)
    {
      te_node *m = mod_arg (a.items[i].index);
      if (!m)
        continue;
      if (m->args[1]->u.i < 2 || m->args[1]->u.i > 64
          || (c && m->args[1]->u.i != c))
        return;
      c = m->args[1]->u.i;
      te_node *s1 = te_replace (ctx, a.items[i].index, m, te_int (ctx, 1));
      te_node *s0 = te_replace (ctx, a.items[i].index, m, te_int (ctx, 0));
      te_node *sl = te_canon_int (ctx, te_sub (ctx, s1, s0));
      if (slot && sl != slot)
        return;
      slot = sl;
      if (a.items[i].write && first_mod_write < 0)
        first_mod_write = a.items[i].stage;
    }
  if (!c || first_mod_write < 0)
    return;
  int last_write = -1;
  for (int j = 0; j < a.n; j++)
    if (a.items[j].write)
      last_write = j;
  for (int i = 0; i < a.n; i++)
    {
      if (mod_arg (a.items[i].index))
        continue;
      if (!a.items[i].write && a.items[i].stage > a.items[last_write].stage
          && fixed_slot_read (p, &a.items[i],
                              &p->stages[a.items[last_write].stage],
                              &a.items[last_write], c, slot))
        continue;
      if (!a.items[i].write || a.items[i].stage >= first_mod_write)
        return;
      const te_stage *ws = &p->stages[a.items[i].stage];
      te_node *top = te_add (ctx, last_of (ctx, ws, a.items[i].index),
                             te_int (ctx, 1));
      te_node *d = te_canon_int (ctx, te_sub (ctx, slot, top));
      if (!(d->op == TE_CONST && d->u.i >= 0))
        return;
    }
  /* Step 2.  */
  for (int i = 0; i < a.n; i++)
    {
      if (a.items[i].write || a.items[i].fixed)
        continue;
      int last = -1;
      for (int j = 0; j < a.n; j++)
        if (a.items[j].write && a.items[j].stage <= a.items[i].stage)
          last = j;
      if (last < 0)
        return;
      if (!mod_arg (a.items[i].index))
        return;
      te_node *er = mod_arg (a.items[i].index)->args[0];
      te_node *mw = mod_arg (a.items[last].index);
      te_node *ew = mw ? mw->args[0] : te_int (ctx, 0);
      if (a.items[last].stage == a.items[i].stage)
        {
          if (!const_in (te_canon_int (ctx, te_sub (ctx, ew, er)), 0, c - 1))
            return;
        }
      else
        {
          const te_stage *ws = &p->stages[a.items[last].stage];
          te_node *e = last_of (ctx, ws, ew);
          if (!const_in (te_canon_int (ctx, te_sub (ctx, e, er)), 0, c - 1)
              && !same_iteration_read (ctx, &a.items[i], ws, &a.items[last]))
            return;
        }
    }
  /* Every write must grow with its counters, for its largest element.  */
  for (int i = 0; i < a.n; i++)
    if (a.items[i].write)
      {
        te_node *m = mod_arg (a.items[i].index);
        te_node *x = m ? te_replace (ctx, a.items[i].index, m, m->args[0])
                       : a.items[i].index;
        const te_stage *ws = &p->stages[a.items[i].stage];
        if (!te_index_monotone (ctx, te_canon_int (ctx, x), ws->nloops,
                                ws->loops))
          return;
      }
  /* Step 3.  */
  te_node *size = te_int (ctx, 0);
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        te_stmt *st = &p->stages[s].stmts[k];
        te_node *m = st->dst == t ? mod_arg (st->index) : NULL;
        if (st->dst == t)
          {
            if (m)
              st->index = te_canon_int (ctx, te_replace (ctx, st->index, m,
                                                         m->args[0]));
            te_node *b = te_add (ctx, last_of (ctx, &p->stages[s], st->index),
                                 te_int (ctx, 1));
            size = te_binary (ctx, TE_MAX, size, b);
          }
        for (int i = 0; i < a.n; i++)
          {
            if (a.items[i].write || a.items[i].stage != s)
              continue;
            te_node *ld = te_load (ctx, t, a.items[i].index);
            te_node *mm = mod_arg (a.items[i].index);
            if (!mm && !a.items[i].fixed)
              continue;
            te_node *nl = te_load (
                ctx, t,
                mm ? te_canon_int (ctx, te_replace (ctx, a.items[i].index,
                                                    mm, mm->args[0]))
                   : a.items[i].fixed);
            st->value = te_replace (ctx, st->value, ld, nl);
            if (st->guard)
              st->guard = te_replace (ctx, st->guard, ld, nl);
          }
      }
  t->size = size;
  te_program_note (p, "store: %s keeps every step of its rolling buffer "
                      "(%s elements)",
                   t->name, te_node_string (p, size));
}

bool
te_program_unroll_rolling (te_program *p, te_diag *diag)
{
  (void) diag;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_LOCAL)
      unroll (p, p->tensors[i]);
  return true;
}

/* samples.c -- a gradient with matrix products works one sample at a
   time.

   Before (bench/conv2d.c's gradient after patches, blas and rows; T the
   per-sample size c 9 h w of the patches):
       tensor d_x.col: size nb T
       tensor x.col: size nb T
       stage 1: for (blas) n < nb, o < f, kk < c 9, pix < h w:
         d_x.col[n T + kk h w + pix] += wt[o c 9 + kk] * d_y[...];
       stage 2: for (fused) n < nb:
         for ci, kh, kw, oh, ow: d_x[...] += d_x.col[n T + ...];
         for ci, kh, kw, oh, ow: x.col[n T + ...] = x[...];
       stage 3: for (blas) n < nb, o < f, kk < c 9, pix < h w:
         d_wt[o c 9 + kk] += d_y[...] * x.col[n T + kk h w + pix];
   After:
       tensor d_x.col: size T
       tensor x.col: size T
       stage 1: for (group 1) n < nb, r < T:  d_x.col[r] = 0;
       stage 2: for (blas) (group 1) n < nb, o < f, kk < c 9, pix < h w:
         d_x.col[kk h w + pix] += wt[o c 9 + kk] * d_y[...];
       stage 3: for (fused) (group 1) n < nb:
         ... d_x.col[...] ...;  x.col[...] = x[...];
       stage 4: for (blas) (group 1) n < nb, ...:
         d_wt[o c 9 + kk] += d_y[...] * x.col[kk h w + pix];

   A blas stage is one call per iteration of its batch loops (ir/gemm.h),
   but each stage runs all its iterations before the next begins, so
   the temporaries between the products (im2col's patches, the product
   that col2im adds back) hold every sample at once: two arrays of 9.4 MB
   for bench/conv2d.c, each swept three times from memory, one zeroed
   with calloc and, without malloc tuned, given back to the system and
   faulted in again on every call.  Run sample by sample, they hold one
   sample (1.2 MB) that stays in cache, and the zeroing is done once.
   rows.c does the same for the loop nests it merges into one stage, but
   a blas stage stays a stage of its own: here consecutive stages keep
   their shape and only run iteration by iteration of their first loop
   (te_stage.group; the back ends and the interpreter run the group's
   loop once around them).

   1. A group is consecutive stages, none a call, reversed, recurrent,
      parallel (the products' own threads, or the loops' there, are
      worth more than the smaller temporaries) or already grouped, whose
      first loops have the same extent and no start or lanes, with at
      least one blas stage whose product is one call per iteration of
      that loop (a batch loop of the product).  Its counter must not
      name another loop in them.  They may run iteration by iteration
      of that loop when for every array either each iteration touches
      a slice of its own (step 2) or rows.c's test allows it
      (te_rows_tensor_ok).
   2. An array's slice: every access in the group is at C n + r, C the
      same for all and free of counters, r in [0, C) where the access's
      loops run (n the group's counter, r free of it; a loop over a
      product of max (A, 0), a patches' max (h, 0) * max (w, 0) pixels,
      runs where each A is 1 or more).  A local array
      that only the group touches, in such slices, lives for one
      iteration: it gets C elements, each access the index r.  The
      group must have one.
   3. An iteration then starts with what the one before left, not with
      zeros: unless every statement that writes the array assigns it,
      at elements and under a guard that do not depend on the counter,
      in stages before every stage that reads it (the patches: every
      iteration writes the same elements, and those it never writes
      keep their zeros), a stage of the group zeroes it first in each
      iteration, before the first stage that touches it.
   4. The group's first loops all get its first stage's counter.

   The pass runs after parallel (a group runs on one thread) and before
   clip (whose loop starts the slices' ranges would have to bound);
   plugin/forward.cc runs it on blas-forward's program too.

   Numbers: no sum changes its order.  */

#include "ir/gemm.h"
#include "ir/index.h"
#include "ir/te.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

/* ---- 1. the group ---------------------------------------------------- */

/* Can stage S be in a group?  */
static bool
joinable (const te_stage *s)
{
  return !s->call && !s->reversed && !s->recurrent && !s->par && !s->group
         && s->nloops > 0 && s->nstmts > 0 && !s->loops[0].start
         && s->loops[0].lanes <= 1;
}

/* Does stage S use counter VAR for a loop other than its first, or a
   reduction?  */
static bool
names_var (const te_stage *s, int var)
{
  for (int k = 1; k < s->nloops; k++)
    if (s->loops[k].var == var)
      return true;
  for (int k = 0; k < s->nstmts; k++)
    {
      const te_stmt *x = &s->stmts[k];
      for (int i = 0; i < x->ninner; i++)
        if (x->inner[i].var == var)
          return true;
      /* A reduction over it (the renaming would be captured).  */
      if (te_binding_reduce (x->value, var)
          || (x->guard && te_binding_reduce (x->guard, var)))
        return true;
    }
  return false;
}

/* Is blas stage S one call per iteration of its first loop?  */
static bool
batched_product (te_program *p, const te_stage *s)
{
  te_gemm g;
  const char *why;
  return te_gemm_match (p, s, 0, &g, &why) && !g.tri && g.nbatch > 0
         && g.batch[0].var == s->loops[0].var;
}

/* May stage S join the group that starts at stage FIRST?  */
static bool
agrees (te_program *p, int first, int s)
{
  const te_stage *a = &p->stages[first], *b = &p->stages[s];
  return joinable (b)
         && te_canon_int (p->ctx, b->loops[0].extent)
                == te_canon_int (p->ctx, a->loops[0].extent)
         && !names_var (b, a->loops[0].var)
         && (!b->blas || batched_product (p, b));
}

/* ---- 2. the temporaries of one iteration ------------------------------ */

#define MAX_ACCESS 64

typedef struct slice_scan
{
  te_program *p;
  const te_stage *s;
  const te_stmt *st;
  const te_tensor *t;
  te_loop group;     /* the group's loop, its counter the first stage's */
  te_node *index[MAX_ACCESS];
  int nin[MAX_ACCESS];
  te_loop in[MAX_ACCESS][2 * TE_MAX_LOOPS];
  const te_loop *inp[MAX_ACCESS];
  int n;
  bool bad;
} slice_scan;

/* INDEX of stage S with its first counter renamed to the group's.  */
static te_node *
group_index (te_ctx *ctx, const te_stage *s, const te_loop *group,
             te_node *index)
{
  return te_canon_int (ctx, te_rename_counters (ctx, index, 1, &s->loops[0],
                                                group));
}

static void
slice_add (slice_scan *q, te_node *index, bool write)
{
  if (q->n == MAX_ACCESS)
    {
      q->bad = true;
      return;
    }
  te_loop *loops = q->in[q->n];
  int n = te_access_loops (q->p->nvars, q->s, 1, q->st, index, write, loops);
  if (n < 0)
    {
      q->bad = true;
      return;
    }
  for (int k = 0; k < n; k++)
    loops[k].extent = te_rename_counters (q->p->ctx, loops[k].extent, 1,
                                          &q->s->loops[0], &q->group);
  q->index[q->n] = group_index (q->p->ctx, q->s, &q->group, index);
  q->nin[q->n] = n;
  q->inp[q->n] = loops;
  q->n++;
}

static void
slice_load_fn (te_node *n, void *data)
{
  slice_scan *q = data;
  if (n->op == TE_LOAD && n->u.tensor == q->t)
    slice_add (q, n->args[0], false);
}

/* The factors A of extent E, a product of max (A, 0) and positive
   constants (a patches' pixels, max (h, 0) * max (w, 0)), into A[*N]:
   where a loop over E runs, each is 1 or more.  False when E is no such
   product or there are more than MAX.  */
static bool
max_factors (const te_node *e, te_node **a, int *n, int max)
{
  if (e->op == TE_MUL)
    return max_factors (e->args[0], a, n, max)
           && max_factors (e->args[1], a, n, max);
  if (e->op == TE_CONST)
    return e->u.i > 0;
  if (e->op != TE_MAX || *n == max)
    return false;
  for (int k = 0; k < 2; k++)
    if (e->args[k]->op == TE_CONST && e->args[k]->u.i == 0)
      {
        a[(*n)++] = e->args[1 - k];
        return true;
      }
  return false;
}

/* Does every access of T in the group FIRST..LAST, in the iteration of
   its counter N, touch only elements C N to C N + C - 1 (C the same for
   all, free of counters), where the access's loops run?  Then C into
   *SLICE (0 when none touches T).  */
static bool
apart (te_program *p, int first, int last, const te_tensor *t,
       te_node **slice)
{
  te_ctx *ctx = p->ctx;
  *slice = NULL;
  slice_scan *q = calloc (1, sizeof *q);
  if (!q)
    return false;
  q->p = p;
  q->t = t;
  q->group = p->stages[first].loops[0];
  for (int s = first; s <= last && !q->bad; s++)
    {
      q->s = &p->stages[s];
      for (int k = 1; k < q->s->nloops; k++)
        q->bad |= te_reads (q->s->loops[k].extent, t)
                  || (q->s->loops[k].start
                      && te_reads (q->s->loops[k].start, t));
      for (int k = 0; k < q->s->nstmts && !q->bad; k++)
        {
          q->st = &q->s->stmts[k];
          if (te_reads (q->st->index, t)
              || (q->st->guard && te_reads (q->st->guard, t)))
            q->bad = true;
          for (int i = 0; i < q->st->ninner; i++)
            q->bad |= te_reads (q->st->inner[i].extent, t)
                      || (q->st->inner[i].start
                          && te_reads (q->st->inner[i].start, t));
          if (q->st->dst == t)
            slice_add (q, q->st->index, true);
          te_walk (q->st->value, slice_load_fn, q);
        }
    }
  bool ok = !q->bad;
  te_node *n = te_var (ctx, q->group.var);
  for (int a = 0; a < q->n && ok; a++)
    {
      te_node *c = te_coefficient (ctx, q->index[a], q->group.var);
      if (!*slice)
        *slice = c;
      te_node *r = te_canon_int (ctx, te_sub (ctx, q->index[a],
                                              te_mul (ctx, c, n)));
      te_node *lo, *hi;
      /* Where the access's loops run, as a stage of them.  */
      te_stage where;
      memset (&where, 0, sizeof where);
      ok = c == *slice && !te_uses_var (c, q->group.var)
           && !te_uses_var (r, q->group.var) && q->nin[a] <= TE_MAX_LOOPS
           && te_index_range (ctx, r, q->nin[a], q->inp[a], &lo, &hi);
      if (!ok)
        break;
      where.nloops = q->nin[a];
      memcpy (where.loops, q->inp[a], q->nin[a] * sizeof *where.loops);
      /* A loop over max (h, 0) * max (w, 0) runs where loops over h and
         w would: as many more as there is room for.  */
      for (int k = 0; k < q->nin[a]; k++)
        {
          te_node *f[TE_MAX_LOOPS];
          int nf = 0;
          if (max_factors (q->inp[a][k].extent, f, &nf, TE_MAX_LOOPS)
              && nf > 1)
            for (int i = 0; i < nf && where.nloops < TE_MAX_LOOPS; i++)
              where.loops[where.nloops++]
                  = (te_loop) { .var = q->inp[a][k].var, .extent = f[i] };
        }
      ok = te_non_negative_where_run (ctx, lo, &where, &where)
           && te_non_negative_where_run (
               ctx, te_canon_int (ctx, te_sub (ctx, te_sub (ctx, c, hi),
                                               te_int (ctx, 1))),
               &where, &where);
    }
  free (q);
  return ok;
}

/* May the group FIRST..LAST run iteration by iteration, as far as T
   tells?  */
static bool
allows (te_program *p, int first, int last, const te_tensor *t)
{
  te_node *c;
  return apart (p, first, last, t, &c)
         || te_rows_tensor_ok (p, first, last, 1, t);
}

/* Does local array T of P live for one iteration of the group of stages
   FIRST..LAST: only they touch it, each iteration a slice of its own?
   Then the slice's length into *SPAN.  */
static bool
one_iteration (te_program *p, int first, int last, const te_tensor *t,
               te_node **span)
{
  if (t->kind != TE_TK_LOCAL || !t->size || te_sizes_read (p, t))
    return false;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      if (te_stage_accesses (st, t) && (s < first || s > last))
        return false;
      for (int k = 0; k < st->nloops; k++)
        if (te_reads (st->loops[k].extent, t)
            || (st->loops[k].start && te_reads (st->loops[k].start, t)))
          return false;
    }
  return apart (p, first, last, t, span) && *span;
}

/* ---- 3. zeros --------------------------------------------------------- */

/* Does each iteration of the group FIRST..LAST find T as a fresh one
   would be, without zeroing: every statement that writes T assigns it,
   at an index and under a guard free of the group's counter, in a stage
   before every stage that reads T?  */
static bool
starts_clean (const te_program *p, int first, int last, const te_tensor *t)
{
  int last_write = -1, first_read = -1;
  for (int s = first; s <= last; s++)
    {
      const te_stage *st = &p->stages[s];
      int var = st->loops[0].var;
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *x = &st->stmts[k];
          if (x->dst == t)
            {
              if (x->op != TE_SET || te_uses_var (x->index, var)
                  || (x->guard && te_uses_var (x->guard, var)))
                return false;
              for (int i = 0; i < x->ninner; i++)
                if (te_uses_var (x->inner[i].extent, var)
                    || (x->inner[i].start
                        && te_uses_var (x->inner[i].start, var)))
                  return false;
              for (int i = 1; i < st->nloops; i++)
                if (te_uses_var (st->loops[i].extent, var)
                    || (st->loops[i].start
                        && te_uses_var (st->loops[i].start, var)))
                  return false;
              last_write = s;
            }
          if (te_stmt_reads (x, t) && first_read < 0)
            first_read = s;
        }
    }
  return first_read < 0 || last_write < first_read;
}

/* ---- 4. the rewrite --------------------------------------------------- */

/* T's accesses in the group FIRST..LAST at their place in a slice of
   SPAN elements.  */
static void
to_slice (te_program *p, int first, int last, te_tensor *t, te_node *span)
{
  te_ctx *ctx = p->ctx;
  for (int s = first; s <= last; s++)
    {
      te_stage *st = &p->stages[s];
      te_node *v = te_var (ctx, st->loops[0].var), *zero = te_int (ctx, 0);
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          te_node *loads[MAX_ACCESS];
          int nl = te_loads_of (x->value, t, loads, MAX_ACCESS);
          for (int i = 0; i < nl; i++)
            {
              te_node *at = te_canon_int (
                  ctx, te_replace (ctx, loads[i]->args[0], v, zero));
              x->value = te_replace (ctx, x->value, loads[i],
                                     te_load (ctx, t, at));
            }
          if (x->dst == t)
            x->index = te_canon_int (ctx, te_replace (ctx, x->index, v,
                                                      zero));
        }
    }
  t->size = span;
}

/* A stage at AT, in GROUP over loop L, that zeroes T's SPAN elements.  */
static void
zero_stage (te_program *p, int at, int group, const te_loop *l, te_tensor *t,
            te_node *span)
{
  te_ctx *ctx = p->ctx;
  te_stage *z = te_program_insert_stage (p, at, p->stages[at].loc);
  z->nloops = 2;
  z->loops[0] = *l;
  z->loops[1] = (te_loop) { .var = te_program_new_var (p, "r"),
                           .extent = span };
  z->group = group;
  te_stage_add_stmt (p, z, t, te_var (ctx, z->loops[1].var), TE_SET,
                     te_float (ctx, t->type, 0), NULL, z->loc);
}

/* Stages FIRST..LAST as a group: their first counters renamed to
   FIRST's, T[0..NT) sliced.  The number of stages added.  */
static int
make_group (te_program *p, int first, int last, int group, te_tensor **ts,
            te_node **spans, int nt)
{
  te_ctx *ctx = p->ctx;
  te_loop l = p->stages[first].loops[0];
  for (int s = first; s <= last; s++)
    {
      te_stage *st = &p->stages[s];
      st->group = group;
      if (st->loops[0].var == l.var)
        {
          st->loops[0] = l;
          continue;
        }
      te_loop from = st->loops[0];
      for (int k = 1; k < st->nloops; k++)
        {
          st->loops[k].extent = te_rename_counters (ctx, st->loops[k].extent,
                                                    1, &from, &l);
          if (st->loops[k].start)
            st->loops[k].start = te_rename_counters (
                ctx, st->loops[k].start, 1, &from, &l);
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          x->index = te_rename_counters (ctx, x->index, 1, &from, &l);
          x->value = te_rename_counters (ctx, x->value, 1, &from, &l);
          if (x->guard)
            x->guard = te_rename_counters (ctx, x->guard, 1, &from, &l);
          for (int i = 0; i < x->ninner; i++)
            {
              x->inner[i].extent = te_rename_counters (
                  ctx, x->inner[i].extent, 1, &from, &l);
              if (x->inner[i].start)
                x->inner[i].start = te_rename_counters (
                    ctx, x->inner[i].start, 1, &from, &l);
            }
        }
      st->loops[0] = l;
    }
  int added = 0;
  for (int i = 0; i < nt; i++)
    {
      to_slice (p, first, last + added, ts[i], spans[i]);
      if (starts_clean (p, first, last + added, ts[i]))
        continue;
      int at = first;
      while (!te_stage_accesses (&p->stages[at], ts[i]))
        at++;
      zero_stage (p, at, group, &l, ts[i], spans[i]);
      added++;
    }
  return added;
}

bool
te_program_samples (te_program *p, te_diag *diag)
{
  (void) diag;
  int groups = 0;
  for (int first = 0; first < p->nstages; first++)
    {
      if (!joinable (&p->stages[first]))
        continue;
      if (p->stages[first].blas && !batched_product (p, &p->stages[first]))
        continue;
      int last = first;
      bool blas = p->stages[first].blas;
      for (int s = first + 1; s < p->nstages; s++)
        {
          bool ok = agrees (p, first, s);
          for (int i = 0; i < p->ntensors && ok; i++)
            ok = allows (p, first, s, p->tensors[i]);
          if (!ok)
            break;
          last = s;
          blas |= p->stages[s].blas;
        }
      if (last == first || !blas)
        continue;
      te_tensor *ts[16];
      te_node *spans[16];
      int nt = 0;
      for (int i = 0; i < p->ntensors && nt < 16; i++)
        if (one_iteration (p, first, last, p->tensors[i], &spans[nt]))
          ts[nt++] = p->tensors[i];
      if (!nt)
        continue;
      int added = make_group (p, first, last, ++groups, ts, spans, nt);
      const te_loop *l = &p->stages[first].loops[0];
      te_program_note (p, "samples: %d stages run one iteration of their "
                          "loop over %s at a time; %d temporar%s of one "
                          "iteration each",
                       last - first + 1, p->var_names
                                             ? p->var_names[l->var]
                                             : "the first counter",
                       nt, nt == 1 ? "y" : "ies");
      first = last + added;
    }
  return true;
}

/* lower.c -- the decisions the back ends share (lower.h).

   Before:  stage 0 (fused): for i < n:
                d_a[i] += d_y[i] * exp (x[i]) * c;
                d_b[i] += d_y[i] * exp (x[i]);
   After:   lower: stage 0: one nest, shared values once
            lower: s0: shared, node 12, in scope shared
            lower: s1: shared, node 14, in scope shared
            (s0 = exp (x[i]), s1 = d_y[i] * s0: the fast nest computes
            them once per iteration, then both statements.)

   1. Shape: a call stage is a call; a fused stage that is not reversed
      nor recurrent and whose statements have no loops of their own
      shares its values (TE_LW_SHARED); any other fused stage is one nest;
      the statements of any other stage are independent and each is a
      nest of its own (a loop distribution that is valid because the
      iterations of a backward stage touch disjoint elements of what they
      overwrite).
   2. NULL shadows (te_lower_skips): a statement is skipped when its
      destination is NULL or, for +=, when its value vanishes with a NULL
      shadow it reads; the other NULL-able shadows it reads are 0 (the
      back ends run a statement's loops that read such shadows twice:
      where all are there without a test per load, else with them).  A
      statement that writes the shadow of an optional input (one the
      kernel tests against NULL, te_tensor.primal) is skipped when that
      input is NULL too: its loads of the input sit behind their tests
      (te_optional_unguarded), and its shadow is not touched.
   3. Scopes.  The TE value is a DAG; a node used more than once is
      computed once into a local.  Where matters: a select's arm may hold
      a load that is out of bounds where its condition is false (a padded
      convolution), a reduction's terms use its counters, a guard
      protects its statement.  A scope is such a region (a guard, a
      statement's value and index, an arm, a reduction's terms, the
      shared values of a fused stage, a call's arguments).  At its start
      it binds, operands first, the nodes of its roots that it evaluates
      unconditionally (not through an arm or a reduction's terms) and
      that are used more than once anywhere below it (not counting what
      enclosing scopes bound), except those as cheap to repeat as to read
      (a load, conversion, negation or boolean over leaves or locals), and
      every reduction it evaluates.  The shared values of a fused stage
      count only operands outside arms and reductions and bind only
      computed nodes (worth_binding); a reduction there is bound when a
      bound node needs it.  A call's arguments bind only reductions.
   4. Each scope lists the selects it evaluates; their arms, and the
      terms of each reduction it binds, are scopes inside it.

   5. Runs.  In one nest, consecutive statements with the same loops of
      their own (counters and extents) run as one nest of those loops
      when they may (te_lower_run), as the fused stage of step 1 does:
      when every NULL-able shadow they touch is there, the nest computes
      their shared values once and then each statement without tests;
      otherwise each statement inside its own tests, in one nest, and
      the tests they all have once, around it.

      Before (a softmax's gradient after rows.c split its fused nest
      over i, j, i.e. one row):
          stage 0: for (fused) i < n:
            for j < m: d_x[j + m * i] += y[j + m * i] * d_y[j + m * i];
            for j < m: d_mx[0] += -(y[j + m * i] * d_y[j + m * i]);
      After:
          lower: stage 0 statements 0 to 1: one nest of their own loops
          lower: stage 0 statements 0 to 1: skipped when d_y is NULL
          if (d_x && d_y)
            for j < m: { s0 = y[..] * d_y[..]; d_x[..] += s0;
                         d_mx[0] += -s0; }
          else if (d_y)
            for j < m: { if (d_x) d_x[..] += ...; d_mx[0] += ...; }

      Why that is the same program.  Separately, all iterations of the
      first statement X run, then all of the second Y; in one nest,
      iteration j of Y runs after iterations 0..j of X and before
      j+1..  The two orders give the same values when Y reads nothing X
      writes, X reads nothing Y writes (so no statement sees an element
      at another time than it did), the loops' extents read neither,
      and the elements both write are only added to.  Added to by both,
      an element gets its terms in another order, so that is allowed
      only where that order is the program's own: both statements ran
      as one fused nest of these loops before rows.c gave each its
      loops (te_stmt.split), and one nest restores the order of that
      nest, restricted to one iteration of the stage's loops.  The
      shared values, computed before the first statement, read only
      tensors no statement of the run writes but its own destination,
      which it alone touches; they are taken from the guards and from
      the values that no guard protects (a guarded value may load out
      of bounds where its guard is false).

   6. A blas stage (passes/blas.c) whose statement te_gemm_match still
      reads as a matrix product, and that reads no NULL-able shadow as 0,
      keeps that reading (te_lw_stage.gemm): the back ends call the CBLAS
      inside the statement's NULL tests.
   6b. When such a stage adds into a local array (a convolution's
      d_x.col, passes/patches.c), it is also skipped where every
      statement reading the array is: with the shadows that skip them
      all (d_x for col2im).

   6c. When such a product's destination is a local array that no
      stage before it touches and that it fills (te_gemm_fills: every
      element once, a convolution's d_x.col), it assigns, beta 0
      (te_lw_stage.set; the tiled product's set form), and the back
      ends allocate the array without zeroing when the call will run
      (the sizes suit it, no NULL test skips it; te_lower_raw), zeroed
      otherwise: a whole-batch calloc cost bench/conv2d.c's gradient
      a memset of 9.4 MB.  Not a memset where the call does not run:
      GCC's strlen pass made malloc and a later memset of the same
      size one calloc.
   6d. In a group (te_stage.group, passes/samples.c), a product that
      fills its destination's slice (te_gemm_fills over its rows and
      columns, the slice of one iteration of the batch loops) right
      after the stage that zeroes the slice in each iteration assigns
      too, and that stage runs only where the call does not
      (te_lw_stage.unless).

   Each scope walks the distinct nodes below its roots that enclosing
   scopes did not bind, once (TE_WALK_LOWER).

   Limits: at most 32 NULL-able shadows per statement are told apart
   (a kernel has one per parameter).  */

#include "back/lower.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum lw_policy
{
  LW_SCOPE,  /* a guard, a value, an arm, a reduction's terms */
  LW_SHARED, /* the values a fused stage's statements share */
  LW_CALL    /* a call's arguments: reductions only */
} lw_policy;

/* A growing array of pointers.  */
typedef struct vec
{
  const void **v;
  int n, cap;
} vec;

typedef struct lw
{
  te_lowered *l;
  const te_program *p;
  int nids;
  int *local;          /* by node id: bound in an enclosing scope */
  int *undo;           /* node ids bound, innermost last */
  int nundo, capundo;
  unsigned *vis, *unc, *cnt, *clo;
  int *uses;
  unsigned epoch;
  bool oom;
} lw;

static void *
xalloc (lw *w, size_t n, size_t size)
{
  void *m = calloc (n ? n : 1, size);
  if (!m)
    w->oom = true;
  return m;
}

static void
vec_push (lw *w, vec *v, const void *x)
{
  if (v->n == v->cap)
    {
      int cap = v->cap ? 2 * v->cap : 16;
      const void **m = realloc (v->v, cap * sizeof *m);
      if (!m)
        {
          w->oom = true;
          return;
        }
      v->v = m;
      v->cap = cap;
    }
  v->v[v->n++] = x;
}

/* ---- scopes ------------------------------------------------------------ */

/* Nothing to compute for N: a leaf, bound outside, or made later.  */
static bool
cheap_leaf (const lw *w, const te_node *n)
{
  if (!n || n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return true;
  return n->id >= w->nids || w->local[n->id];
}

/* Should node N, used more than once in a scope, get a local?  A load,
   conversion, negation or boolean over leaves or locals is as cheap to
   repeat as to read.  */
static bool
bind_p (const lw *w, const te_node *n)
{
  if (n->op == TE_LOAD || n->op == TE_CAST || n->op == TE_NEG
      || n->type == TE_BOOL)
    {
      for (int k = 0; k < 3; k++)
        if (!cheap_leaf (w, n->args[k]))
          return true;
      return false;
    }
  return true;
}

/* Is N worth a local among a fused stage's shared values: computed?  */
static bool
worth_binding (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
    case TE_LOAD:
    case TE_CAST:
    case TE_NEG:
      return false;
    default:
      return n->type != TE_BOOL;
    }
}

/* The operands of N whose uses a scope counts: every one, or among a
   fused stage's shared values not the arms of a select nor a
   reduction's.  */
static int
counted_args (const te_node *n, lw_policy pol)
{
  if (pol != LW_SHARED)
    return te_op_arity (n->op);
  if (n->op == TE_REDUCE)
    return 0;
  return n->op == TE_SELECT ? 1 : te_op_arity (n->op);
}

/* Is operand K of N evaluated whenever N is?  */
static bool
unconditional_arg (const te_node *n, int k)
{
  if (n->op == TE_SELECT || n->op == TE_REDUCE)
    return k == 0;
  return true;
}

static void
count_use (lw *w, const te_node *n)
{
  if (w->cnt[n->id] != w->epoch)
    {
      w->cnt[n->id] = w->epoch;
      w->uses[n->id] = 0;
    }
  w->uses[n->id]++;
}

/* Post-order over the distinct nodes below ROOTS not bound outside,
   into ORDER, counting uses.  */
static void
walk_counts (lw *w, const te_node *const *roots, int nroots, lw_policy pol,
             vec *order)
{
  vec stack = { 0 }, next = { 0 };
  for (int r = 0; r < nroots; r++)
    {
      const te_node *root = roots[r];
      if (cheap_leaf (w, root))
        continue;
      count_use (w, root);
      if (w->vis[root->id] == w->epoch)
        continue;
      w->vis[root->id] = w->epoch;
      vec_push (w, &stack, root);
      vec_push (w, &next, (void *) 0);
      while (stack.n && !w->oom)
        {
          const te_node *n = stack.v[stack.n - 1];
          int k = (int) (intptr_t) next.v[next.n - 1];
          if (k >= te_op_arity (n->op))
            {
              vec_push (w, order, n);
              stack.n--;
              next.n--;
              continue;
            }
          next.v[next.n - 1] = (void *) (intptr_t) (k + 1);
          const te_node *a = n->args[k];
          if (cheap_leaf (w, a))
            continue;
          if (k < counted_args (n, pol))
            count_use (w, a);
          if (w->vis[a->id] == w->epoch)
            continue;
          w->vis[a->id] = w->epoch;
          vec_push (w, &stack, a);
          vec_push (w, &next, (void *) 0);
        }
    }
  free (stack.v);
  free (next.v);
  te_walk_count (w->p->ctx, TE_WALK_LOWER, order->n);
}

/* Mark in MARK (with the current epoch) the nodes below the N ROOTS that
   they evaluate whenever they are evaluated.  */
static void
mark_unconditional (lw *w, const te_node *const *roots, int n,
                    unsigned *mark)
{
  vec stack = { 0 };
  for (int r = 0; r < n; r++)
    if (!cheap_leaf (w, roots[r]) && mark[roots[r]->id] != w->epoch)
      {
        mark[roots[r]->id] = w->epoch;
        vec_push (w, &stack, roots[r]);
      }
  while (stack.n && !w->oom)
    {
      const te_node *x = stack.v[--stack.n];
      for (int k = 0; k < te_op_arity (x->op); k++)
        {
          const te_node *a = x->args[k];
          if (!unconditional_arg (x, k) || cheap_leaf (w, a)
              || mark[a->id] == w->epoch)
            continue;
          mark[a->id] = w->epoch;
          vec_push (w, &stack, a);
        }
    }
  free (stack.v);
}

static void
bind (lw *w, const te_node *n)
{
  if (w->nundo == w->capundo)
    {
      int cap = w->capundo ? 2 * w->capundo : 64;
      int *m = realloc (w->undo, cap * sizeof *m);
      if (!m)
        {
          w->oom = true;
          return;
        }
      w->undo = m;
      w->capundo = cap;
    }
  w->undo[w->nundo++] = n->id;
  w->local[n->id] = 1;
}

/* Forget the nodes bound since MARK (the length of the undo list).  */
static void
unbind (lw *w, int mark)
{
  while (w->nundo > mark)
    w->local[w->undo[--w->nundo]] = 0;
}

static te_lw_scope *lower_scope (lw *w, const te_node *const *roots,
                                 int nroots, lw_policy pol);

/* A scope inside the current ones, whose bindings end with it.  */
static te_lw_scope *
kid_scope (lw *w, const te_node *root)
{
  int mark = w->nundo;
  te_lw_scope *s = lower_scope (w, &root, 1, LW_SCOPE);
  unbind (w, mark);
  return s;
}

/* Which of ORDER (the post-order of a scope's walk, marks current) a
   scope under policy POL binds, bound in turn into BINDS, and
   which selects it evaluates, into SELS (step 3).  */
static void
choose (lw *w, lw_policy pol, const vec *order, vec *binds, vec *sels)
{
  /* What the scope evaluates itself: a fused stage's shared values, the
     nodes below those it binds; any other scope, what its roots do.  */
  unsigned *here = w->unc;
  if (pol == LW_SHARED)
    {
      vec chosen = { 0 };
      for (int i = 0; i < order->n; i++)
        {
          const te_node *n = order->v[i];
          if (w->unc[n->id] == w->epoch && w->cnt[n->id] == w->epoch
              && w->uses[n->id] >= 2 && worth_binding (n))
            vec_push (w, &chosen, n);
        }
      mark_unconditional (w, (const te_node *const *) chosen.v, chosen.n,
                          w->clo);
      free (chosen.v);
      here = w->clo;
    }
  for (int i = 0; i < order->n; i++)
    {
      const te_node *n = order->v[i];
      if (here[n->id] != w->epoch)
        continue;
      if (n->op == TE_SELECT)
        vec_push (w, sels, n);
      bool shared = w->unc[n->id] == w->epoch && w->cnt[n->id] == w->epoch
                    && w->uses[n->id] >= 2;
      bool yes;
      switch (pol)
        {
        case LW_SCOPE:
          yes = n->op == TE_REDUCE || (shared && bind_p (w, n));
          break;
        case LW_SHARED:
          yes = n->op == TE_REDUCE || (shared && worth_binding (n));
          break;
        case LW_CALL:
        default:
          yes = n->op == TE_REDUCE;
          break;
        }
      if (yes)
        {
          vec_push (w, binds, n);
          bind (w, n);
        }
    }
}

/* Does scope S compute something first: a local, or a select of its
   own whose arms do?  Then it cannot be inside an expression.  */
static bool
needs_stmts (const te_lw_scope *s)
{
  for (int i = 0; s && i < s->nselects; i++)
    if (s->selects[i].stmts)
      return true;
  return s && s->nbinds;
}

/* The scope of the NROOTS ROOTS under policy POL (step 3): its bindings
   stay bound (the caller unbinds them); its selects and reductions get
   scopes of their own (step 4).  */
static te_lw_scope *
lower_scope (lw *w, const te_node *const *roots, int nroots, lw_policy pol)
{
  te_lw_scope *s = xalloc (w, 1, sizeof *s);
  if (!s)
    return NULL;
  vec order = { 0 }, binds = { 0 }, sels = { 0 };
  w->epoch++;
  walk_counts (w, roots, nroots, pol, &order);
  mark_unconditional (w, roots, nroots, w->unc);
  choose (w, pol, &order, &binds, &sels);
  free (order.v);
  s->nbinds = binds.n;
  s->binds = xalloc (w, binds.n, sizeof *s->binds);
  s->nselects = sels.n;
  s->selects = xalloc (w, sels.n, sizeof *s->selects);
  for (int i = 0; s->binds && i < binds.n; i++)
    {
      te_lw_bind *b = &s->binds[i];
      b->node = binds.v[i];
      b->reduction = b->node->op == TE_REDUCE;
      b->id = b->reduction ? w->l->naccs++ : w->l->nshared++;
    }
  /* Nested scopes, after the marks of this one are used up.  */
  for (int i = 0; s->binds && i < binds.n; i++)
    if (s->binds[i].reduction)
      s->binds[i].terms = kid_scope (w, s->binds[i].node->args[1]);
  for (int i = 0; s->selects && i < sels.n; i++)
    {
      te_lw_select *x = &s->selects[i];
      x->node = sels.v[i];
      x->arms[0] = kid_scope (w, x->node->args[1]);
      x->arms[1] = kid_scope (w, x->node->args[2]);
      x->stmts = needs_stmts (x->arms[0]) || needs_stmts (x->arms[1]);
    }
  free (binds.v);
  free (sels.v);
  return s;
}

const te_lw_select *
te_lw_find_select (const te_lw_scope *s, const te_node *n)
{
  for (int i = 0; s && i < s->nselects; i++)
    if (s->selects[i].node == n)
      return &s->selects[i];
  return NULL;
}

/* ---- statements and stages --------------------------------------------- */

bool
te_lower_skips (const te_stmt *st, const te_tensor *t)
{
  return t == st->dst || t == st->dst->primal
         || (st->op == TE_ADD_TO && te_zero_if_null (st->value, t));
}

typedef struct nullable_set
{
  const te_tensor *items[32];
  int n;
} nullable_set;

static void
add_nullable (nullable_set *s, const te_tensor *t)
{
  for (int i = 0; i < s->n; i++)
    if (s->items[i] == t)
      return;
  if (s->n < 32)
    s->items[s->n++] = t;
}

static void
collect_nullable (te_node *n, void *data)
{
  if (n->op == TE_LOAD && n->u.tensor->nullable)
    add_nullable (data, n->u.tensor);
}

/* The NULL-able shadows statement ST writes or reads, and the optional
   input whose shadow it writes.  */
static void
stmt_nullable (const te_stmt *st, nullable_set *s)
{
  if (st->dst->nullable)
    add_nullable (s, st->dst);
  if (st->dst->primal)
    add_nullable (s, st->dst->primal);
  te_walk (st->value, collect_nullable, s);
  if (st->guard)
    te_walk (st->guard, collect_nullable, s);
}

static const te_tensor **
copy_tensors (lw *w, const te_tensor *const *items, int n)
{
  const te_tensor **m = xalloc (w, n, sizeof *m);
  if (m)
    memcpy (m, items, n * sizeof *m);
  return m;
}

/* Statement ST into L: its NULL tests when TESTS (step 2), its
   scopes.  */
static void
lower_stmt (lw *w, te_lw_stmt *l, const te_stmt *st, bool tests)
{
  l->st = st;
  if (tests)
    {
      nullable_set all = { { 0 }, 0 }, skip = { { 0 }, 0 },
                   zero = { { 0 }, 0 };
      stmt_nullable (st, &all);
      for (int i = 0; i < all.n; i++)
        add_nullable (te_lower_skips (st, all.items[i]) ? &skip : &zero,
                      all.items[i]);
      l->nskip = skip.n;
      l->skip = copy_tensors (w, skip.items, skip.n);
      l->nzero = zero.n;
      l->zero = copy_tensors (w, zero.items, zero.n);
    }
  int mark = w->nundo;
  if (st->guard)
    l->guard = lower_scope (w, (const te_node *const *) &st->guard, 1,
                            LW_SCOPE);
  const te_node *roots[2] = { st->value, st->index };
  l->body = lower_scope (w, roots, 2, LW_SCOPE);
  unbind (w, mark);
}

static te_lw_stmt *
lower_stmts (lw *w, const te_stage *s, bool tests)
{
  te_lw_stmt *m = xalloc (w, s->nstmts, sizeof *m);
  for (int k = 0; m && k < s->nstmts; k++)
    lower_stmt (w, &m[k], &s->stmts[k], tests);
  return m;
}

/* The roots of call stage C's scope: the values and offsets it passes.  */
static te_lw_scope *
lower_call (lw *w, const te_call *c)
{
  vec roots = { 0 };
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind == TE_PK_INT || a->kind == TE_PK_FLOAT)
        vec_push (w, &roots, a->value);
      else if (a->offset)
        vec_push (w, &roots, a->offset);
    }
  if (c->grad && c->ret && c->d_return)
    vec_push (w, &roots, c->d_return);
  int mark = w->nundo;
  te_lw_scope *s = lower_scope (w, (const te_node *const *) roots.v, roots.n,
                                LW_CALL);
  unbind (w, mark);
  free (roots.v);
  return s;
}

/* Does a statement of S read what another of S writes (a stage of
   rows.c, where a row's statistics are computed before they are read)?
   Then the statements cannot share locals computed before them all.  */
static bool
reads_own_writes (const te_stage *s)
{
  for (int a = 0; a < s->nstmts; a++)
    for (int b = 0; b < s->nstmts; b++)
      if (a != b
          && (te_reads (s->stmts[b].value, s->stmts[a].dst)
              || (s->stmts[b].guard
                  && te_reads (s->stmts[b].guard, s->stmts[a].dst))))
        return true;
  return false;
}

/* ---- runs (step 5) ----------------------------------------------------- */

/* Do statements X and Y have loops of their own, and the same?  */
static bool
same_inner (const te_stmt *x, const te_stmt *y)
{
  return x->ninner && x->ninner == y->ninner
         && te_loops_equal (x->inner, y->inner, x->ninner);
}


/* May statement X, earlier, and Y, with the same loops of their own, run
   interleaved in one nest of them (step 5)?  */
static bool
joinable (const te_stmt *x, const te_stmt *y)
{
  if (te_stmt_reads (x, y->dst) || te_stmt_reads (y, x->dst))
    return false;
  for (int k = 0; k < x->ninner; k++)
    if (te_reads (x->inner[k].extent, x->dst)
        || te_reads (x->inner[k].extent, y->dst))
      return false;
  if (x->dst != y->dst)
    return true;
  return x->op == TE_ADD_TO && y->op == TE_ADD_TO && x->split
         && x->split == y->split;
}

int
te_lower_run (const te_stage *s, int first)
{
  if (!s->fused || s->call)
    return 1;
  int n = 1;
  while (first + n < s->nstmts)
    {
      const te_stmt *y = &s->stmts[first + n];
      if (!same_inner (&s->stmts[first], y))
        break;
      bool ok = true;
      for (int k = first; ok && k < first + n; k++)
        ok = joinable (&s->stmts[k], y);
      if (!ok)
        break;
      n++;
    }
  return n;
}

/* Is T one of the N tensors TS?  */
static bool
among (const te_tensor *const *ts, int n, const te_tensor *t)
{
  for (int i = 0; i < n; i++)
    if (ts[i] == t)
      return true;
  return false;
}

/* The tests the slow statements M[0..N) all have into R's HOIST, taken
   out of theirs.  */
static void
hoist_tests (lw *w, te_lw_run *r, te_lw_stmt *m, int n)
{
  nullable_set common = { { 0 }, 0 };
  for (int i = 0; m[0].skip && i < m[0].nskip; i++)
    {
      bool all = true;
      for (int k = 1; all && k < n; k++)
        all = among (m[k].skip, m[k].nskip, m[0].skip[i]);
      if (all)
        add_nullable (&common, m[0].skip[i]);
    }
  r->nhoist = common.n;
  r->hoist = copy_tensors (w, common.items, common.n);
  for (int k = 0; k < n; k++)
    {
      int kept = 0;
      for (int i = 0; m[k].skip && i < m[k].nskip; i++)
        if (!among (common.items, common.n, m[k].skip[i]))
          m[k].skip[kept++] = m[k].skip[i];
      m[k].nskip = kept;
    }
}

/* The run of statements FIRST .. FIRST + N - 1 of stage S, whose slow
   statements go to M (the stage's, from FIRST), into R.  */
static void
lower_run (lw *w, te_lw_run *r, const te_stage *s, int first, int n,
           te_lw_stmt *m)
{
  r->first = first;
  r->n = n;
  nullable_set all = { { 0 }, 0 };
  vec roots = { 0 };
  for (int k = first; k < first + n; k++)
    {
      const te_stmt *st = &s->stmts[k];
      stmt_nullable (st, &all);
      vec_push (w, &roots, st->guard ? st->guard : st->value);
    }
  r->nall = all.n;
  r->all = copy_tensors (w, all.items, all.n);
  int mark = w->nundo;
  r->scope
      = lower_scope (w, (const te_node *const *) roots.v, roots.n, LW_SHARED);
  free (roots.v);
  r->fast = xalloc (w, n, sizeof *r->fast);
  for (int k = 0; r->fast && k < n; k++)
    lower_stmt (w, &r->fast[k], &s->stmts[first + k], false);
  unbind (w, mark);
  for (int k = 0; k < n; k++)
    if (all.n)
      lower_stmt (w, &m[k], &s->stmts[first + k], true);
    else
      m[k].st = &s->stmts[first + k];
  if (all.n)
    hoist_tests (w, r, m, n);
}

/* The statements of the one nest of stage S into L, in runs (step 5).  */
static void
lower_one (lw *w, te_lw_stage *l, const te_stage *s)
{
  l->nstmts = s->nstmts;
  l->stmts = xalloc (w, s->nstmts, sizeof *l->stmts);
  l->runs = xalloc (w, s->nstmts / 2 + 1, sizeof *l->runs);
  for (int k = 0; l->stmts && l->runs && k < s->nstmts;)
    {
      int n = te_lower_run (s, k);
      if (n == 1)
        lower_stmt (w, &l->stmts[k], &s->stmts[k], true);
      else
        lower_run (w, &l->runs[l->nruns++], s, k, n, &l->stmts[k]);
      k += n;
    }
}

/* Is stage S of P, in the group of stage S + 1, one that zeroes T in
   each iteration of the group's loop (passes/samples.c): T[r] = 0 over
   that loop and r < T's size?  */
static bool
zeroes_slice (const te_program *p, int s, const te_tensor *t)
{
  const te_stage *z = &p->stages[s];
  if (z->group != p->stages[s + 1].group || z->nloops != 2
      || z->nstmts != 1)
    return false;
  const te_stmt *x = &z->stmts[0];
  return x->dst == t && x->op == TE_SET && !x->guard && !x->ninner
         && x->index == te_var (p->ctx, z->loops[1].var)
         && te_is_const (x->value, 0) && !z->loops[1].start
         && z->loops[1].extent == t->size;
}

/* Steps 6c and 6d: the products of W's program that fill a local array
   (or the slice of an iteration) first assign into it, which is not
   zeroed.  */
static void
lower_sets (lw *w)
{
  const te_program *p = w->p;
  for (int s = 0; s < p->nstages && !w->oom; s++)
    {
      te_lw_stage *l = &w->l->stages[s];
      if (!l->gemm || l->gemm->c->kind != TE_TK_LOCAL
          || !te_gemm_fills ((te_program *) p, &p->stages[s], l->gemm))
        continue;
      bool before = false;
      for (int b = 0; b < s && !before; b++)
        before = te_stage_accesses (&p->stages[b], l->gemm->c);
      if (before)
        continue;
      l->set = true;
      l->gemm->beta = 0.0;
    }
  for (int s = 1; s < p->nstages && !w->oom; s++)
    {
      te_lw_stage *l = &w->l->stages[s];
      te_gemm slice;
      if (!l->gemm || l->set || !p->stages[s].group
          || l->gemm->c->kind != TE_TK_LOCAL
          || !zeroes_slice (p, s - 1, l->gemm->c))
        continue;
      slice = *l->gemm;
      slice.nbatch = 0;
      bool before = false;
      for (int b = 0; b < s - 1 && !before; b++)
        before = te_stage_accesses (&p->stages[b], l->gemm->c);
      if (before || !te_gemm_fills ((te_program *) p, &p->stages[s], &slice))
        continue;
      l->set = true;
      l->gemm->beta = 0.0;
      w->l->stages[s - 1].unless = l;
    }
}

void
te_lower_in_group (const te_lw_stage *g, te_lw_stage *out, te_stage *s,
                   te_gemm *gm)
{
  *out = *g;
  *s = te_stage_in_group (g->stage);
  out->stage = s;
  if (g->gemm)
    {
      *gm = *g->gemm;
      memmove (&gm->batch[0], &gm->batch[1],
               (gm->nbatch - 1) * sizeof *gm->batch);
      gm->nbatch--;
      out->gemm = gm;
    }
}

const te_lw_stage *
te_lower_raw (const te_lowered *l, const te_tensor *t)
{
  for (int s = 0; s < l->nstages; s++)
    if (l->stages[s].set && l->stages[s].gemm->c == t)
      return &l->stages[s];
  return NULL;
}

/* Stage S into L (step 1).  */
/* Step 6: blas stage S (passes/blas.c), lowered as L, a CBLAS call when
   its statement is still a matrix product and reads no shadow as 0 when
   NULL (a call cannot skip one factor's terms); else loops, and why.  */
static void
lower_gemm (lw *w, te_lw_stage *l, const te_stage *s)
{
  te_gemm g;
  if (s->nstmts != 1)
    l->blas_why = "not one statement";
  else if (!te_gemm_match ((te_program *) w->p, s, 0, &g, &l->blas_why))
    ;
  else if (l->stmts[0].nzero)
    l->blas_why = "reads a NULL shadow as 0";
  else
    {
      l->gemm = xalloc (w, 1, sizeof *l->gemm);
      if (l->gemm)
        *l->gemm = g;
    }
}

/* The NULL-able shadows whose NULL skips every statement of W's
   program that reads local array T (a statement reading T in its
   value, guard or index), into *OUT; none when no statement reads T.  */
static void
reader_skips (lw *w, const te_tensor *t, nullable_set *out)
{
  bool first = true;
  out->n = 0;
  for (int s = 0; s < w->p->nstages; s++)
    for (int k = 0; k < w->p->stages[s].nstmts; k++)
      {
        const te_stmt *st = &w->p->stages[s].stmts[k];
        if (!te_reads (st->value, t) && !(st->guard && te_reads (st->guard, t))
            && !te_reads (st->index, t))
          continue;
        nullable_set all = { { 0 }, 0 }, mine = { { 0 }, 0 };
        stmt_nullable (st, &all);
        for (int i = 0; i < all.n; i++)
          if (te_lower_skips (st, all.items[i]))
            add_nullable (&mine, all.items[i]);
        int kept = 0;
        for (int i = 0; i < (first ? mine.n : out->n); i++)
          {
            const te_tensor *x = first ? mine.items[i] : out->items[i];
            if (first || among (mine.items, mine.n, x))
              out->items[kept++] = x;
          }
        out->n = kept;
        first = false;
      }
}

/* Step 6b: a blas stage S (lowered as L) whose statement adds into a
   local array (a product over a convolution's patches, patches.c) is
   skipped, besides its own NULL tests, where every reader of the array
   is: d_x.col's product when d_x is NULL.  */
static void
skip_with_readers (lw *w, te_lw_stage *l, const te_stage *s)
{
  const te_stmt *st = &s->stmts[0];
  te_lw_stmt *m = &l->stmts[0];
  if (s->nstmts != 1 || st->dst->kind != TE_TK_LOCAL)
    return;
  nullable_set more = { { 0 }, 0 };
  reader_skips (w, st->dst, &more);
  if (!more.n)
    return;
  nullable_set skip = { { 0 }, 0 };
  for (int i = 0; i < m->nskip; i++)
    add_nullable (&skip, m->skip[i]);
  for (int i = 0; i < more.n; i++)
    add_nullable (&skip, more.items[i]);
  free (m->skip);
  m->nskip = skip.n;
  m->skip = copy_tensors (w, skip.items, skip.n);
}

static void
lower_stage (lw *w, te_lw_stage *l, const te_stage *s)
{
  l->stage = s;
  if (s->call)
    {
      l->shape = TE_LW_CALL;
      l->scope = lower_call (w, s->call);
      return;
    }
  bool inner = false;
  for (int k = 0; k < s->nstmts; k++)
    inner |= s->stmts[k].ninner > 0;
  if (s->fused && !s->reversed && !s->recurrent && !inner && s->nstmts
      && !reads_own_writes (s))
    {
      l->shape = TE_LW_SHARED;
      nullable_set all = { { 0 }, 0 };
      vec roots = { 0 };
      for (int k = 0; k < s->nstmts; k++)
        {
          stmt_nullable (&s->stmts[k], &all);
          /* A guarded value may load out of bounds where its guard is
             false (zero-guard.c's d_x[i + 1] behind i + 1 < n): as
             lower_run, share only the guard's.  */
          const te_stmt *st = &s->stmts[k];
          vec_push (w, &roots, st->guard ? st->guard : st->value);
        }
      l->nall = all.n;
      l->all = copy_tensors (w, all.items, all.n);
      int mark = w->nundo;
      l->scope = lower_scope (w, (const te_node *const *) roots.v, roots.n,
                              LW_SHARED);
      free (roots.v);
      l->fast = lower_stmts (w, s, false);
      unbind (w, mark);
      if (all.n)
        {
          l->nstmts = s->nstmts;
          l->stmts = lower_stmts (w, s, true);
        }
      return;
    }
  if (s->fused)
    {
      l->shape = TE_LW_ONE;
      lower_one (w, l, s);
      return;
    }
  l->shape = TE_LW_EACH;
  l->nstmts = s->nstmts;
  l->stmts = lower_stmts (w, s, true);
  if (s->blas && l->stmts)
    {
      skip_with_readers (w, l, s);
      lower_gemm (w, l, s);
    }
}

/* Two statements of stage L's one nest that add to the same element in
   every iteration of a loop, into L->chain (-1 if none).
   Such a pair is a reduction chain for GCC, and GCC 12.2 vectorizes one
   whose loads run backwards (or are permuted: GCC PR 110381) into wrong
   code: it adds the elements as if
   they came in the loop's order (seen with d_w[0] += x[2*i+1] * d_y[2*i+1];
   d_w[0] += x[2*i] * d_y[2*i]; at -O2, the adjoint of a weight shared by
   the two stores of a hand-unrolled loop, whose adjoints the reverse
   sweep orders backwards).  passes/gather.c adds such pairs as one
   statement where nothing between them forbids it; this keeps the rest
   from the vectorizer.  Statements with loops of their own share
   an innermost loop only when they run as one nest (a run of L's, step
   5): two sums into one element from nests of their own are no chain,
   and keeping the whole stage from being vectorized for them made a
   layer norm's gradient scalar.  */
static bool
one_innermost (const te_lw_stage *l, int a, int b)
{
  if (!l->stage->stmts[a].ninner || l->shape != TE_LW_ONE)
    return true;
  for (int r = 0; r < l->nruns; r++)
    if (l->runs[r].first <= a && a < l->runs[r].first + l->runs[r].n)
      return b < l->runs[r].first + l->runs[r].n;
  return false;
}

/* Does statement X's element move along every loop it runs in?  One
   that stays along an outer loop chains there too once GCC unrolls the
   loops inside (a gain per channel, d_w[k] over k < 2, twice per frame:
   GCC 12.2 at -O3 unrolled k and vectorized the frames).  */
static bool
moves_along_all (const te_stage *s, const te_stmt *x)
{
  for (int k = 0; k < s->nloops; k++)
    if (!te_uses_var (x->index, s->loops[k].var))
      return false;
  for (int k = 0; k < x->ninner; k++)
    if (!te_uses_var (x->index, x->inner[k].var))
      return false;
  return true;
}

static void
find_chain (te_lw_stage *l)
{
  const te_stage *s = l->stage;
  l->chain[0] = l->chain[1] = -1;
  if ((l->shape != TE_LW_ONE && l->shape != TE_LW_SHARED) || !s->nloops)
    return;
  for (int a = 0; a < s->nstmts; a++)
    for (int b = a + 1; b < s->nstmts; b++)
      {
        const te_stmt *x = &s->stmts[a], *y = &s->stmts[b];
        if (x->op != TE_ADD_TO || y->op != TE_ADD_TO || x->dst != y->dst
            || x->index != y->index || x->ninner != y->ninner)
          continue;
        if (moves_along_all (s, x) || !one_innermost (l, a, b))
          continue;
        l->chain[0] = a;
        l->chain[1] = b;
        return;
      }
}

te_lowered *
te_lower (const te_program *p)
{
  lw w;
  memset (&w, 0, sizeof w);
  w.p = p;
  w.nids = te_ctx_ids (p->ctx);
  w.l = xalloc (&w, 1, sizeof *w.l);
  w.local = xalloc (&w, w.nids, sizeof *w.local);
  w.vis = xalloc (&w, w.nids, sizeof *w.vis);
  w.unc = xalloc (&w, w.nids, sizeof *w.unc);
  w.cnt = xalloc (&w, w.nids, sizeof *w.cnt);
  w.clo = xalloc (&w, w.nids, sizeof *w.clo);
  w.uses = xalloc (&w, w.nids, sizeof *w.uses);
  if (!w.oom)
    {
      w.l->p = p;
      w.l->nids = w.nids;
      w.l->nstages = p->nstages;
      w.l->stages = xalloc (&w, p->nstages, sizeof *w.l->stages);
      for (int s = 0; w.l->stages && s < p->nstages && !w.oom; s++)
        {
          lower_stage (&w, &w.l->stages[s], &p->stages[s]);
          find_chain (&w.l->stages[s]);
        }
      if (w.l->stages)
        lower_sets (&w);
    }
  free (w.local);
  free (w.undo);
  free (w.vis);
  free (w.unc);
  free (w.cnt);
  free (w.clo);
  free (w.uses);
  if (w.oom)
    {
      te_lowered_free (w.l);
      return NULL;
    }
  return w.l;
}

/* ---- freeing and the dump ---------------------------------------------- */

static void
scope_free (te_lw_scope *s)
{
  if (!s)
    return;
  for (int i = 0; s->binds && i < s->nbinds; i++)
    scope_free (s->binds[i].terms);
  for (int i = 0; s->selects && i < s->nselects; i++)
    {
      scope_free (s->selects[i].arms[0]);
      scope_free (s->selects[i].arms[1]);
    }
  free (s->binds);
  free (s->selects);
  free (s);
}

static void
stmts_free (te_lw_stmt *m, int n)
{
  for (int k = 0; m && k < n; k++)
    {
      free (m[k].skip);
      free (m[k].zero);
      scope_free (m[k].guard);
      scope_free (m[k].body);
    }
  free (m);
}

void
te_lowered_free (te_lowered *l)
{
  if (!l)
    return;
  for (int s = 0; l->stages && s < l->nstages; s++)
    {
      te_lw_stage *g = &l->stages[s];
      stmts_free (g->stmts, g->nstmts);
      stmts_free (g->fast, g->fast ? g->stage->nstmts : 0);
      free (g->all);
      scope_free (g->scope);
      for (int r = 0; g->runs && r < g->nruns; r++)
        {
          stmts_free (g->runs[r].fast, g->runs[r].fast ? g->runs[r].n : 0);
          free (g->runs[r].all);
          free (g->runs[r].hoist);
          scope_free (g->runs[r].scope);
        }
      free (g->runs);
      free (g->gemm);
    }
  free (l->stages);
  free (l);
}

static void
scope_dump (FILE *f, const te_lw_scope *s, const char *where)
{
  if (!s)
    return;
  for (int i = 0; i < s->nbinds; i++)
    {
      const te_lw_bind *b = &s->binds[i];
      fprintf (f, "lower: %s%d: %s, node %d, in scope %s\n",
               b->reduction ? "acc" : "s", b->id,
               b->reduction ? "reduction" : "shared", b->node->id, where);
    }
  for (int i = 0; i < s->nbinds; i++)
    scope_dump (f, s->binds[i].terms, "terms");
  for (int i = 0; i < s->nselects; i++)
    {
      const te_lw_select *x = &s->selects[i];
      if (x->stmts)
        fprintf (f, "lower: select node %d: its arms are statements\n",
                 x->node->id);
      scope_dump (f, x->arms[0], "arm");
      scope_dump (f, x->arms[1], "arm");
    }
}

/* Statements M[0..N) of stage S, numbered from BASE; FAST: those of the
   fast nest.  */
static void
stmts_dump (FILE *f, int s, const te_lw_stmt *m, int n, int base, bool fast)
{
  for (int k = 0; m && k < n; k++)
    {
      for (int i = 0; i < m[k].nskip; i++)
        fprintf (f, "lower: stage %d statement %d: skipped when %s is NULL\n",
                 s, base + k, m[k].skip[i]->name);
      for (int i = 0; i < m[k].nzero; i++)
        fprintf (f, "lower: stage %d statement %d: reads %s as 0 when "
                    "NULL\n",
                 s, base + k, m[k].zero[i]->name);
      scope_dump (f, m[k].guard, fast ? "fast guard" : "guard");
      scope_dump (f, m[k].body, fast ? "fast value" : "value");
    }
}

void
te_lowered_dump (FILE *f, const te_lowered *l)
{
  static const char *const shapes[] = { "a call", "each statement its own "
                                        "nest", "one nest",
                                        "one nest, shared values once" };
  for (int s = 0; s < l->nstages; s++)
    {
      const te_lw_stage *g = &l->stages[s];
      fprintf (f, "lower: stage %d: %s\n", s, shapes[g->shape]);
      if (g->chain[0] >= 0)
        fprintf (f, "lower: stage %d: not vectorized: statements %d and %d "
                    "add to one element of '%s' in every iteration\n",
                 s, g->chain[0], g->chain[1],
                 g->stage->stmts[g->chain[0]].dst->name);
      if (g->gemm)
        fprintf (f, "lower: stage %d: %s: %s\n", s,
                 l->p->tiled ? "tiled" : "blas", te_gemm_text (l->p, g->gemm));
      else if (g->blas_why)
        fprintf (f, "lower: stage %d: blas: loops, %s\n", s, g->blas_why);
      if (g->set)
        fprintf (f, "lower: stage %d: the product fills '%s', not zeroed\n",
                 s, g->gemm->c->name);
      if (g->unless)
        fprintf (f, "lower: stage %d: runs where the product of stage %d "
                    "does not\n",
                 s, (int) (g->unless - l->stages));
      scope_dump (f, g->scope, g->shape == TE_LW_CALL ? "call" : "shared");
      if (g->fast)
        stmts_dump (f, s, g->fast, g->stage->nstmts, 0, true);
      for (int r = 0; r < g->nruns; r++)
        {
          const te_lw_run *x = &g->runs[r];
          int last = x->first + x->n - 1;
          fprintf (f, "lower: stage %d statements %d to %d: one nest of "
                      "their own loops\n",
                   s, x->first, last);
          for (int i = 0; i < x->nhoist; i++)
            fprintf (f, "lower: stage %d statements %d to %d: skipped when "
                        "%s is NULL\n",
                     s, x->first, last, x->hoist[i]->name);
          scope_dump (f, x->scope, "shared");
          stmts_dump (f, s, x->fast, x->n, x->first, true);
        }
      stmts_dump (f, s, g->stmts, g->nstmts, 0, false);
    }
  fprintf (f, "lower: %d shared locals, %d accumulators\n", l->nshared,
           l->naccs);
}

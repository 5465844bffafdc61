/* ad.c -- the reverse sweep: from a forward TE program to its gradient.

   Before:  stage 0: for i < n:  y[i] = tanh (b[i] + sum (p < k; 0; x[i*k+p]));
   After:   P: for i < n:         v0[i] = sum (p < k; 0; x[i*k+p]);
            T: for i < n:         d_b[i] += d_y[i] * (1 - tanh (b[i] + v0[i])^2);
                                  d0[i]  += d_y[i] * (1 - tanh (b[i] + v0[i])^2);
            B: for i < n, p < k:  d_x[i*k+p] += d0[i];

   1. Give every floating tensor its shadow: a pointer parameter of the
      gradient (may be NULL), or, for the return value, the scalar
      parameter d_return.
   2. Walk the stages last to first and, inside a stage, the statements
      last to first.  For T[w] = e over the loops L with adjoint G = dT[w]:
   3. Every reduction R in e gets a value temporary vR and an adjoint
      temporary dR, indexed by the iteration of L (so L's extents must not
      depend on its counters).  Stage P computes vR, inner reductions
      first; every later use of R reads vR, so a reduction is evaluated
      once, as in the forward.
   4. Stage T accumulates adjoints through e's DAG in reverse topological
      order, one rule per operation (deriv.c), all sums made by
      add_contribution.  A floating load A[r] receives dA[r] += adj, a
      floating scalar parameter a receives d_a[0] += adj, a reduction R
      receives dR[lin] += adj.
   5. Reductions, outermost first: stage I gives R's init its share of dR
      (sum: dR; prod: dR times the product of the terms; max/min: dR if
      the init is the extreme value), stage B over L and R's loops gives
      every term its share (sum: dR; prod: dR times the product of the
      other factors; max/min: dR for the first extreme term in iteration
      order, found by a min-reduction over the terms' ordinals in P).
   6. If T's value before the statement is itself read by the kernel
      (T in-out), stage F replaces dT[w] by the adjoint of that entry
      value, or 0.  A contribution that needs the entry value of an
      in-out T, which the forward overwrote, is refused.

   Every adjoint stage runs its iterations forwards: only stages whose
   iterations are independent reach here (roles.c).  Temporaries are
   zeroed when allocated, so a statement skipped for a NULL shadow leaves
   zeros for the statements that read them.  */

#include "ad/ad.h"
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REDS 32

/* Adjoint accumulation for the nodes of one expression.  */
typedef struct adjoints
{
  te_node **nodes; /* post-order: operands before users */
  te_node **sums;  /* adjoint of nodes[i] so far, or NULL */
  int n, cap;
  te_memo pos;     /* node -> its position plus one */
} adjoints;

/* A reduction of the statement being differentiated.  */
typedef struct red_info
{
  te_node *r;
  int nhome;        /* the loops of L whose counters R uses */
  te_loop home[TE_MAX_LOOPS];
  te_node *lin;     /* the iteration of those loops as one integer */
  te_node *size;    /* their number of iterations */
  te_tensor *val;   /* its value at each iteration of its home loops */
  te_tensor *adj;   /* its adjoint */
  te_tensor *first; /* max/min: ordinal of the first extreme term */
} red_info;

/* A forward statement's stored value as the current stage sees it
   (stored_value).  */
typedef struct stored_entry
{
  const te_stmt *q;
  int stage, nh;
  const te_loop *own;
  te_node *v, *y, *b, *c;
} stored_entry;

#define STORED_CACHE 64

/* The statement being differentiated and what its sweep made so far.  */
typedef struct sweep
{
  te_program *b;
  te_ctx *ctx;
  te_tensor **scalar_shadow;
  const te_program *fwd;
  const te_stage *fs;
  const te_stmt *st;
  /* The loops of ST: FS's, and in a block (blocks.c) ST's own after them
     (EXT), which every statement made for ST has as loops of its own.  */
  const te_stage *ls;
  te_stage ext;
  int nown;
  const te_loop *own;
  red_info reds[MAX_REDS];
  int nreds;
  te_node *self; /* adjoint of the entry value of T[w] so far */
  te_node *self_raw; /* the same before reuse */
  bool fused;    /* a recurrence: one backward stage, run backwards */
  const te_stage *fused_for; /* the forward stage whose one backward
                                stage is the last, if any */
  bool opt;      /* reuse forward results */
  te_node *reuse_from; /* the statement's value, which T[w] holds ... */
  te_node *reuse_to;   /* ... as this load */
  te_node *reuse_cond; /* the value select (C, A, 0): C and A, which the */
  te_node *reuse_arm;  /* load holds where C does */
  bool reused;
  /* value temporaries computed from an overwritten entry value */
  te_tensor *poisoned[MAX_REDS];
  te_loc poison_loc[MAX_REDS];
  const char *poison_name[MAX_REDS];
  int npoisoned;
  int ninner;    /* loops of the statements being added, inside */
  const te_loop *inner;
  te_diag *diag;
  int ntemps;
  /* What subst and reuse rewrote for the current statement: their
     rewrites are the same for every adjoint of it, which share most of
     their nodes.  */
  te_memo subst_memo[MAX_REDS];
  te_memo reuse_memo, quotient_memo;
  /* Forward tensors whose adjoint is zero by algebra (cancel.c).  */
  const te_tensor *cancelled[MAX_REDS];
  int ncancelled;
  const te_node *cancelled_reds[MAX_REDS];
  int ncancelled_reds;
  const te_node *numer_noted; /* reuse_numerator's last note */
  const te_stmt *stored_noted[MAX_REDS]; /* reuse_stored's notes */
  int nstored_noted;
  stored_entry stored[STORED_CACHE]; /* stored_value's memo */
  int nstored;
} sweep;

/* Is reduction R's adjoint zero by algebra (cancel.c)?  */
static bool
cancelled_red (const sweep *w, const te_node *r)
{
  for (int i = 0; i < w->ncancelled_reds; i++)
    if (w->cancelled_reds[i] == r)
      return true;
  return false;
}

/* Is T's adjoint zero by algebra (cancel.c)?  */
static bool
cancelled (const sweep *w, const te_tensor *t)
{
  for (int i = 0; i < w->ncancelled; i++)
    if (w->cancelled[i] == t)
      return true;
  return false;
}

/* Does condition COND, in the counters of the NLOOPS loops FROM, hold
   wherever the loops HERE run (FROM's counters named as HERE's): is each
   of its conjuncts L < R with R - L - 1 never negative there (u <= t
   inside u < t + 1)?  */
static bool
holds_within (te_ctx *ctx, te_node *cond, int nloops, const te_loop *from,
              const te_loop *here)
{
  te_node *ls[TE_MAX_LOOPS], *rs[TE_MAX_LOOPS];
  int other = 0;
  int n = te_conjunct_less (ctx, cond, false, ls, rs, TE_MAX_LOOPS, &other);
  if (n == 0 || other)
    return false;
  for (int i = 0; i < n; i++)
    {
      te_node *gap = te_canon_int (
          ctx, te_rename_counters (
                   ctx, te_sub (ctx, te_sub (ctx, rs[i], ls[i]),
                                te_int (ctx, 1)),
                   nloops, from, here));
      te_node *lo, *hi;
      if (!te_index_range (ctx, gap, nloops, here, &lo, &hi)
          || !te_non_negative (ctx, lo))
        return false;
    }
  return true;
}

/* Add to W's cancelled tensors the local arrays of FWD that only
   statements writing cancelled tensors read (or their own statements):
   no adjoint reaches them (the unscaled scores that only a softmax's
   cancelled maximum reads), so their statements need no reverse.  Each
   is noted in B.  */
static void
feeds_only_cancelled (sweep *w, const te_program *fwd, te_program *b)
{
  for (bool more = true; more;)
    {
      more = false;
      for (int i = 0; i < fwd->ntensors && w->ncancelled < MAX_REDS; i++)
        {
          const te_tensor *t = fwd->tensors[i];
          if (t->kind != TE_TK_LOCAL || !te_type_is_float (t->type)
              || cancelled (w, t))
            continue;
          bool dead = true, read = false;
          for (int s = 0; dead && s < fwd->nstages; s++)
            {
              const te_stage *fs = &fwd->stages[s];
              if (fs->call && (te_call_passes (fs, t, true)
                               || te_call_passes (fs, t, false)))
                dead = false;
              for (int k = 0; dead && k < fs->nstmts; k++)
                if (te_stmt_reads (&fs->stmts[k], t))
                  {
                    read = true;
                    dead = fs->stmts[k].dst == t
                           || cancelled (w, fs->stmts[k].dst);
                  }
            }
          if (!dead || !read)
            continue;
          w->cancelled[w->ncancelled++] = t;
          te_program_note (b, "cancel: %s gets no adjoint: only what gets "
                              "none reads it",
                           t->name);
          more = true;
        }
    }
}

/* Is R the value of a statement that writes a cancelled tensor (whose
   cancellation says it all)?  */
static bool
value_of_cancelled (const sweep *w, const te_node *r)
{
  for (int s = 0; s < w->fwd->nstages; s++)
    for (int k = 0; k < w->fwd->stages[s].nstmts; k++)
      {
        const te_stmt *st = &w->fwd->stages[s].stmts[k];
        if (st->value == r && cancelled (w, st->dst))
          return true;
      }
  return false;
}

/* Forget the rewrites of the previous statement.  */
static void
forget_rewrites (sweep *w)
{
  for (int i = 0; i < MAX_REDS; i++)
    te_memo_free (&w->subst_memo[i]);
  te_memo_free (&w->reuse_memo);
  te_memo_free (&w->quotient_memo);
}

static void
collect_node (te_node *n, void *data)
{
  adjoints *a = data;
  if (a->n == a->cap)
    {
      a->cap = a->cap ? a->cap * 2 : 32;
      a->nodes = realloc (a->nodes, a->cap * sizeof *a->nodes);
      a->sums = realloc (a->sums, a->cap * sizeof *a->sums);
      if (!a->nodes || !a->sums)
        abort ();
    }
  a->nodes[a->n] = n;
  a->sums[a->n++] = NULL;
  te_memo_put (&a->pos, n, (void *) (intptr_t) a->n);
  te_walk_count (n->ctx, TE_WALK_DERIV, 1);
}

static int
position (const adjoints *a, const te_node *n)
{
  return (int) (intptr_t) te_memo_get (&a->pos, n) - 1;
}

/* The one place where adjoints are summed: add C to the adjoint of N.
   False (an internal error in DIAG) if N is not a node of the expression:
   its adjoint would be lost.  */
static bool
add_contribution (te_ctx *ctx, adjoints *a, const te_node *n, te_node *c,
                  te_diag *diag)
{
  int i = position (a, n);
  if (i < 0)
    return te_diag_set (diag, TE_DIAG_INTERNAL, 0, "the reverse sweep lost "
                        "the adjoint of a '%s' node", te_op_name (n->op));
  a->sums[i] = a->sums[i] ? te_binary (ctx, TE_ADD, a->sums[i], c) : c;
  return true;
}

/* The contribution of node N to the adjoint of its operand K, given N's
   adjoint ADJ.  Every rule is linear in ADJ, so a sum of adjoints gives
   the sum of contributions, and an adjoint that flows only where C holds,
   c ? a : 0, gives c ? (contribution of a) : 0: the partial derivative
   is then never evaluated where C does not hold, where it may be
   infinite or NaN (sqrt at 0 behind x > 0 ? sqrt (x) : 0).  */
/* Is ADJ, or a summand of ADJ, an adjoint that flows only where a
   condition holds (c ? a : 0)?  Memoized in M.  */
static bool
guarded (te_node *adj, te_memo *m)
{
  bool sum = adj->op == TE_ADD && te_type_is_float (adj->type);
  bool sel = adj->op == TE_SELECT
             && (te_is_const (adj->args[1], 0)
                 || te_is_const (adj->args[2], 0));
  if (sel)
    return true;
  if (!sum)
    return false;
  void *known = te_memo_get (m, adj);
  if (known)
    return known == TE_MEMO_TRUE;
  te_walk_count (adj->ctx, TE_WALK_DERIV, 1);
  bool r = guarded (adj->args[0], m) || guarded (adj->args[1], m);
  te_memo_put (m, adj, r ? TE_MEMO_TRUE : TE_MEMO_FALSE);
  return r;
}

static te_node *
share_1 (te_ctx *ctx, te_node *n, int k, te_node *adj, te_diag *diag,
         te_memo *m, te_memo *g)
{
  bool sum = adj->op == TE_ADD && te_type_is_float (adj->type);
  bool sel = adj->op == TE_SELECT
             && (te_is_const (adj->args[1], 0)
                 || te_is_const (adj->args[2], 0));
  /* A sum without a guarded summand takes the rule once: distributed,
     a node's adjoint would have a term per path from the root, and the
     paths through a DAG whose nodes are used twice are exponentially
     many (issue 12).  */
  if ((!sum && !sel) || (sum && !guarded (adj, g)))
    return deriv_adjoint (ctx, n, k, adj, diag);
  /* ADJ is a DAG of sums and selects: each of its nodes once.  */
  te_node *r = te_memo_get (m, adj);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_DERIV, 1);
  if (sum)
    {
      te_node *a = share_1 (ctx, n, k, adj->args[0], diag, m, g);
      te_node *b = a ? share_1 (ctx, n, k, adj->args[1], diag, m, g) : NULL;
      r = b ? te_binary (ctx, TE_ADD, a, b) : NULL;
    }
  else
    {
      bool first = te_is_const (adj->args[2], 0);
      te_node *c = share_1 (ctx, n, k, adj->args[first ? 1 : 2], diag, m, g);
      if (!c)
        return NULL;
      te_node *zero = te_float (ctx, n->args[k]->type, 0);
      c = te_cast (ctx, n->args[k]->type, c);
      r = first ? te_select (ctx, adj->args[0], c, zero)
                : te_select (ctx, adj->args[0], zero, c);
    }
  if (r)
    te_memo_put (m, adj, r);
  return r;
}

static te_node *
share (te_ctx *ctx, te_node *n, int k, te_node *adj, te_diag *diag)
{
  te_memo m = { 0 }, g = { 0 };
  te_node *r = share_1 (ctx, n, k, adj, diag, &m, &g);
  te_memo_free (&m);
  te_memo_free (&g);
  return r;
}

/* Propagate SEED, the adjoint of E, down to E's leaves: loads, scalar
   parameters and reductions (whose operands are handled in their own
   stages).  */
static bool
propagate (te_ctx *ctx, adjoints *a, te_node *e, te_node *seed,
           const char *name, te_diag *diag)
{
  te_walk (e, collect_node, a);
  if (!add_contribution (ctx, a, e, seed, diag))
    return false;
  for (int i = a->n - 1; i >= 0; i--)
    {
      te_node *n = a->nodes[i], *adj = a->sums[i];
      if (!adj || n->op == TE_LOAD || n->op == TE_PARAM
          || n->op == TE_REDUCE)
        continue;
      /* Adjoints that distribute over guarded sums can double with each
         node: refuse before the context fills the memory.  */
      if (!te_ctx_within_budget (ctx, name, diag))
        return false;
      for (int k = 0; k < te_op_arity (n->op); k++)
        {
          te_node *arg = n->args[k];
          if (!te_type_is_float (arg->type))
            continue;
          te_node *c = share (ctx, n, k, adj, diag);
          if (!c
              || !add_contribution (ctx, a, arg, te_cast (ctx, arg->type, c),
                                    diag))
            return false;
        }
    }
  return true;
}

/* ---- reductions: temporaries and substitution -------------------------- */

static red_info *
find_red (sweep *w, const te_node *r)
{
  for (int i = 0; i < w->nreds; i++)
    if (w->reds[i].r == r)
      return &w->reds[i];
  return NULL;
}

static void
collect_red (te_node *n, void *data)
{
  sweep *w = data;
  if (n->op == TE_REDUCE && !find_red (w, n) && w->nreds < MAX_REDS)
    w->reds[w->nreds++].r = n;
}

static te_tensor *
new_temp (sweep *w, const char *prefix, te_type type, te_node *size)
{
  char name[32];
  snprintf (name, sizeof name, "%s%d", prefix, w->ntemps++);
  te_tensor *t = te_program_add_tensor (w->b, name, type, TE_TK_LOCAL, -1,
                                        w->st->loc);
  t->size = size;
  t->role = TE_ROLE_TEMP;
  return t;
}

/* X with every reduction of the statement whose value temporary exists
   replaced by a load of it.  */
static te_node *
subst (sweep *w, te_node *x)
{
  /* Outer reductions first: replacing an inner one changes the outer.  */
  for (int i = w->nreds - 1; i >= 0; i--)
    if (w->reds[i].val)
      x = te_replace_memo (w->ctx, x, w->reds[i].r,
                           te_load (w->ctx, w->reds[i].val, w->reds[i].lin),
                           &w->subst_memo[i]);
  return x;
}

/* R's home: the loops of L whose counters it uses, their iteration
   number and count.  False if R uses another counter or if the home
   loops' extents use counters outside them.  */
static bool
find_home (sweep *w, red_info *ri)
{
  te_ctx *ctx = w->ctx;
  const te_stage *fs = w->ls;
  for (int v = 0; v < w->b->nvars; v++)
    {
      bool in_l = false;
      for (int k = 0; k < fs->nloops; k++)
        in_l |= fs->loops[k].var == v;
      if (!in_l && te_uses_var_free (ri->r, v))
        return false;
    }
  ri->nhome = 0;
  for (int k = 0; k < fs->nloops; k++)
    if (te_uses_var_free (ri->r, fs->loops[k].var))
      ri->home[ri->nhome++] = fs->loops[k];
  if (!te_linearize_box (ctx, ri->nhome, ri->home, &ri->lin, &ri->size))
    return false;
  return true;
}

/* The ordinal of an iteration of reduction R's loops, and whether R's
   extents allow one.  */
static te_node *
ordinal (te_ctx *ctx, const te_node *r)
{
  te_node *ord = te_int (ctx, 0);
  for (int k = 0; k < r->u.red.nloops; k++)
    {
      const te_loop *l = &r->u.red.loops[k];
      for (int j = 0; j < r->u.red.nloops; j++)
        if (te_uses_var (l->extent, r->u.red.loops[j].var))
          return NULL;
      ord = te_add (ctx, te_mul (ctx, ord, l->extent), te_var (ctx, l->var));
    }
  return ord;
}

static te_stage *new_stage (sweep *w, int nhome, const te_loop *home,
                             int nextra, const te_loop *extra);

/* Give NS, a statement made for the current one, its loops of its own:
   the statement's own in a block, then those of the reduction whose
   terms it runs over (W->inner).  */
static void
own_loops (sweep *w, te_stmt *ns)
{
  int n = w->nown + w->ninner;
  if (!n)
    return;
  ns->ninner = n;
  ns->inner = te_alloc (w->ctx, n * sizeof *ns->inner);
  if (w->nown)
    memcpy (ns->inner, w->own, w->nown * sizeof *ns->inner);
  if (w->ninner)
    memcpy (ns->inner + w->nown, w->inner, w->ninner * sizeof *ns->inner);
}

/* Step 3: temporaries, and a stage P per reduction, inner ones first so
   that outer ones read their values.  */
static bool
prepare_reductions (sweep *w, te_node *guard)
{
  te_ctx *ctx = w->ctx;
  te_walk (w->st->value, collect_red, w);
  if (w->nreds == MAX_REDS)
    return te_diag_set (w->diag, TE_DIAG_USER, w->st->loc,
                        "too many reductions in one statement");
  for (int i = 0; i < w->nreds; i++)
    {
      red_info *ri = &w->reds[i];
      te_node *r = ri->r;
      if (!find_home (w, ri))
        return te_diag_set (w->diag, TE_DIAG_USER, w->st->loc,
                            "a reduction inside a loop whose bounds depend "
                            "on another loop, or over terms that are "
                            "themselves reductions over the outer terms, is "
                            "not supported yet");
      te_node *value = te_reduce_node (ctx, r->u.red.kind, r->u.red.nloops,
                                       r->u.red.loops, subst (w, r->args[0]),
                                       subst (w, r->args[1]));
      ri->val = new_temp (w, "v", r->type, ri->size);
      ri->adj = new_temp (w, "d", r->type, ri->size);
      te_node *g = guard;
      /* In a recurrence, at the start of each iteration of its one
         stage (the last one), which then holds every use of vR.  */
      if (w->fused && ri->nhome != w->ls->nloops)
        return te_diag_set (w->diag, TE_DIAG_USER, w->st->loc,
                            "a reduction in a recurrence must use every "
                            "loop counter of its nest; not supported yet");
      te_stage *p = w->fused ? &w->b->stages[w->b->nstages - 1]
                             : new_stage (w, ri->nhome, ri->home, 0, NULL);
      if (g)
        for (int k = 0; k < w->ls->nloops; k++)
          if (te_uses_var_free (g, w->ls->loops[k].var)
              && !te_uses_var_free (r, w->ls->loops[k].var))
            g = NULL; /* computed where the guard cannot be told: all */
      own_loops (w, te_stage_add_stmt (w->b, p, ri->val, ri->lin, TE_SET,
                                       value, g, w->st->loc));
      if (r->u.red.kind == TE_RED_MAX || r->u.red.kind == TE_RED_MIN)
        {
          te_node *ord = ordinal (ctx, r);
          if (!ord)
            return te_diag_set (w->diag, TE_DIAG_USER, w->st->loc,
                                "a max or min reduction over a domain whose "
                                "bounds depend on its own loops is not "
                                "supported yet");
          te_node *none = te_int (ctx, INT64_MAX);
          te_node *hit = te_binary (ctx, TE_EQ, subst (w, r->args[1]),
                                    te_load (ctx, ri->val, ri->lin));
          te_node *first = te_reduce_node (
              ctx, TE_RED_MIN, r->u.red.nloops, r->u.red.loops, none,
              te_select (ctx, hit, ord, none));
          ri->first = new_temp (w, "f", TE_I64, ri->size);
          own_loops (w, te_stage_add_stmt (w->b, p, ri->first, ri->lin,
                                           TE_SET, first, g, w->st->loc));
        }
    }
  return true;
}

/* ---- reuse of forward results ------------------------------------------ */

/* X with A/B * E and E * (A/B) rewritten as A * Y where E/B is the value
   the forward stored in Y (softmax: d_y / s * exp (x - m) is d_y * y).  */
static te_node *
reuse_quotient_1 (te_ctx *ctx, te_node *x, te_node *from, te_node *to,
                  te_memo *m)
{
  if (!x || x->op == TE_REDUCE || x->op == TE_LOAD)
    return x;
  te_node *r = te_memo_get (m, x);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_REWRITE, 1);
  r = x;
  if (x->op == TE_MUL && from->op == TE_DIV)
    for (int k = 0; k < 2 && r == x; k++)
      {
        te_node *q = x->args[k], *e = x->args[1 - k];
        if (q->op == TE_DIV && q->args[1] == from->args[1]
            && e == from->args[0])
          r = te_mul (ctx, q->args[0], to);
      }
  if (r == x)
    {
      te_node *args[3] = { NULL, NULL, NULL };
      bool changed = false;
      for (int i = 0; i < 3; i++)
        {
          args[i] = reuse_quotient_1 (ctx, x->args[i], from, to, m);
          changed |= args[i] != x->args[i];
        }
      if (changed)
        switch (x->op)
          {
          case TE_CAST:
            r = te_cast (ctx, x->type, args[0]);
            break;
          case TE_SELECT:
            r = te_select (ctx, args[0], args[1], args[2]);
            break;
          default:
            if (te_op_arity (x->op) == 1)
              r = te_unary (ctx, x->op, args[0]);
            else
              r = te_binary (ctx, x->op, args[0], args[1]);
          }
    }
  te_memo_put (m, x, r);
  return r;
}


/* The arithmetic the rewrites below descend through: X's negation, sum,
   difference, product or quotient rebuilt with F (DATA, operand, DEPTH)
   for its operands; X itself for any other node.  */
typedef te_node *(*arith_fn) (void *data, te_node *x, int depth);

static te_node *
rebuild_arith (te_ctx *ctx, te_node *x, arith_fn f, void *data, int depth)
{
  switch (x->op)
    {
    case TE_NEG:
      return te_neg (ctx, f (data, x->args[0], depth));
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_DIV:
      return te_binary (ctx, x->op, f (data, x->args[0], depth),
                        f (data, x->args[1], depth));
    default:
      return x;
    }
}

#define MAX_FACTORS 16

/* X with every product that has all the factors of the product FROM
   among its own taking TO for them (1 / z * (e * g) with FROM 1 / z * e:
   TO * g), within DEPTH levels of X's arithmetic.  */
typedef struct factors_rw
{
  te_ctx *ctx;
  te_node *from, *to;
} factors_rw;

static te_node *
replace_factors_1 (void *data, te_node *x, int depth)
{
  factors_rw *rw = data;
  if (depth < 0)
    return x;
  if (x == rw->from)
    return rw->to;
  te_node *fx[MAX_FACTORS], *ff[MAX_FACTORS];
  int nx = x->op == TE_MUL ? te_factors (x, fx, MAX_FACTORS) : -1;
  int nf = nx > 0 ? te_factors (rw->from, ff, MAX_FACTORS) : -1;
  if (nf > 1)
    {
      bool used[MAX_FACTORS] = { false };
      int found = 0;
      for (int i = 0; i < nf; i++)
        for (int j = 0; j < nx; j++)
          if (!used[j] && fx[j] == ff[i])
            {
              used[j] = true;
              found++;
              break;
            }
      if (found == nf)
        {
          te_node *r = rw->to;
          for (int j = 0; j < nx; j++)
            if (!used[j])
              r = te_mul (rw->ctx, r, replace_factors_1 (rw, fx[j],
                                                         depth - 1));
          return r;
        }
    }
  return rebuild_arith (rw->ctx, x, replace_factors_1, rw, depth - 1);
}

static te_node *
replace_factors (te_ctx *ctx, te_node *x, te_node *from, te_node *to,
                 int depth)
{
  factors_rw rw = { ctx, from, to };
  return replace_factors_1 (&rw, x, depth);
}

/* X with the value FROM the forward stored replaced by TO, the load
   that holds it: FROM itself (memo RM), as a quotient's numerator and
   divisor (reuse_quotient_1, memo QM) and as factors of a product
   (replace_factors: d_p * e * (1 / s) / s with FROM e * (1 / s)).  */
static te_node *
stored_rewrite (te_ctx *ctx, te_node *x, te_node *from, te_node *to,
                te_memo *rm, te_memo *qm)
{
  x = te_replace_memo (ctx, x, from, to, rm);
  x = reuse_quotient_1 (ctx, x, from, to, qm);
  if (from->op == TE_MUL)
    x = replace_factors (ctx, x, from, to, 8);
  return x;
}

/* X with the arm A of the statement's value select (C, A, 0) replaced by
   the load of the element, inside X's arithmetic where a select on C
   picks it (p[u] = u <= t ? e[u] / z : 0: e[u] / z is p[u] where
   u <= t).  */
static te_node *
reuse_in_arm (void *data, te_node *x, int depth)
{
  sweep *w = data;
  te_ctx *ctx = w->ctx;
  if (depth < 0)
    return x;
  if (x->op == TE_SELECT && x->args[0] == w->reuse_cond
      && te_is_const (x->args[2], 0))
    {
      te_memo rm = { 0 }, qm = { 0 };
      te_node *arm = stored_rewrite (ctx, x->args[1], w->reuse_arm,
                                     w->reuse_to, &rm, &qm);
      te_memo_free (&rm);
      te_memo_free (&qm);
      return arm == x->args[1] ? x : te_select (ctx, x->args[0], arm,
                                                 x->args[2]);
    }
  return rebuild_arith (ctx, x, reuse_in_arm, w, depth - 1);
}

/* X with the statement's value replaced by the load of the element that
   holds it, where the current stage binds that element's counters.  */
static te_node *
reuse (sweep *w, te_node *x)
{
  if (!w->reuse_from)
    return x;
  const te_stage *cur = &w->b->stages[w->b->nstages - 1];
  for (int k = 0; k < w->ls->nloops; k++)
    {
      bool bound = false;
      for (int j = 0; j < cur->nloops; j++)
        bound |= cur->loops[j].var == w->ls->loops[k].var;
      for (int j = 0; j < w->nown; j++)
        bound |= w->own[j].var == w->ls->loops[k].var;
      if (!bound && te_uses_var (w->reuse_to, w->ls->loops[k].var))
        return x;
    }
  te_node *y = stored_rewrite (w->ctx, x, w->reuse_from, w->reuse_to,
                               &w->reuse_memo, &w->quotient_memo);
  if (w->reuse_arm)
    y = reuse_in_arm (w, y, 8);
  if (y != x && !w->reused)
    {
      te_program_note (w->b, "reuse: %s is %s",
                       te_node_string (w->b, w->st->value),
                       te_node_string (w->b, w->reuse_to));
      w->reused = true;
    }
  return y;
}

/* Does each element of output T hold, when the forward returns, the
   value the one statement that writes it stored: no call writes T (the
   statements that write T write disjoint elements, which roles.c
   checks: a padded row's zeroed tail, a causal row's)?  */
static bool
holds_stored_values (const te_program *fwd, const te_tensor *t)
{
  if (t->role != TE_ROLE_OUTPUT)
    return false;
  for (int s = 0; s < fwd->nstages; s++)
    if (fwd->stages[s].call && te_call_passes (&fwd->stages[s], t, false))
      return false;
  return true;
}

/* The loops the statements made now run in, into HERE (room for 2 *
   TE_MAX_LOOPS): the current backward stage's, the statement's own in a
   block, and with INNER the reduction's whose terms they run over.
   Their number.  */
static int
loops_here (const sweep *w, bool inner, te_loop *here)
{
  const te_stage *cur = &w->b->stages[w->b->nstages - 1];
  int nh = 0;
  for (int k = 0; k < cur->nloops; k++)
    here[nh++] = cur->loops[k];
  for (int k = 0; k < w->nown && nh < 2 * TE_MAX_LOOPS; k++)
    here[nh++] = w->own[k];
  for (int k = 0; inner && k < w->ninner && nh < 2 * TE_MAX_LOOPS; k++)
    here[nh++] = w->inner[k];
  return nh;
}

/* The value the forward stored in the element load L reads, in the
   counters of the NH loops HERE: L's tensor a local array that one
   unguarded statement writes, the element that statement's iteration
   with HERE's counters wrote; NULL otherwise.  Canonical.  */
static te_node *
written_value (sweep *w, te_node *l, int nh, const te_loop *here)
{
  const te_program *fwd = w->fwd;
  const te_tensor *t = l->u.tensor;
  if (t->kind != TE_TK_LOCAL)
    return NULL;
  /* Written over fewer loops (a row's 1 / z read in the loop over the
     row): those of HERE that L's index uses.  */
  te_loop used[2 * TE_MAX_LOOPS];
  int nu = 0;
  for (int j = 0; j < nh; j++)
    if (te_uses_var (l->args[0], here[j].var))
      used[nu++] = here[j];
  te_node *v = NULL;
  int writers = 0;
  for (int s = 0; s < fwd->nstages; s++)
    for (int k = 0; k < fwd->stages[s].nstmts; k++)
      {
        const te_stage *qs = &fwd->stages[s];
        const te_stmt *q = &qs->stmts[k];
        if (q->dst != t)
          continue;
        writers++;
        if (q->op != TE_SET || q->guard || q->ninner || qs->recurrent)
          continue;
        v = te_same_element (w->ctx, qs->nloops, qs->loops, q->index,
                             q->value, nh, here, l->args[0]);
        if (!v && nu < nh)
          v = te_same_element (w->ctx, qs->nloops, qs->loops, q->index,
                               q->value, nu, used, l->args[0]);
      }
  return writers == 1 && v ? te_canon_loads (w->ctx, v) : NULL;
}

/* QUOT, the value a statement stored (in the counters of the NH loops
   HERE), as a quotient A / S into *A and *S: A / S itself, or A * R with
   R 1 / S or a load of a local array that holds it (the reciprocal of a
   sum computed once).  */
static bool
as_quotient (sweep *w, te_node *quot, int nh, const te_loop *here,
             te_node **a, te_node **sv)
{
  if (quot->op == TE_DIV)
    {
      *a = quot->args[0];
      *sv = quot->args[1];
      return true;
    }
  if (quot->op != TE_MUL)
    return false;
  for (int i = 0; i < 2; i++)
    {
      te_node *r = quot->args[i];
      te_node *v = r->op == TE_LOAD ? written_value (w, r, nh, here) : r;
      if (v && v->op == TE_DIV && te_is_const (v->args[0], 1))
        {
          *a = quot->args[1 - i];
          *sv = v->args[1];
          return true;
        }
    }
  return false;
}

/* X with E rewritten as Y * S where the forward stored E / S in output Y
   (an element the current stage's iteration names: the same loops, up to
   their counters) and E is not that statement's own value (reuse's):
   the exponentials a softmax divides are its outputs times the sum.  */
static te_node *
reuse_numerator_in (sweep *w, te_node *x, int nh, const te_loop *here)
{
  te_node *canon = NULL;
  const te_program *fwd = w->fwd;
  for (int s = 0; s < fwd->nstages; s++)
    {
      const te_stage *qs = &fwd->stages[s];
      for (int k = 0; k < qs->nstmts; k++)
        {
          const te_stmt *q = &qs->stmts[k];
          te_node *quot = q->value, *cond = NULL, *num, *den;
          if (quot->op == TE_SELECT && te_is_const (quot->args[2], 0))
            {
              cond = quot->args[0];
              quot = quot->args[1];
            }
          if (q->op != TE_SET || q->guard || q->ninner || qs->recurrent
              || q == w->st || qs->nloops != nh
              || !holds_stored_values (fwd, q->dst)
              || !as_quotient (w, quot, qs->nloops, qs->loops, &num, &den))
            continue;
          /* The same loops, or, for a quotient picked where COND holds
             (a causal row's u <= t ? e[u] / z : 0), loops within Q's
             where it holds.  */
          bool same = true;
          for (int l = 0; l < nh && same; l++)
            same = te_rename_counters (w->ctx, qs->loops[l].extent, nh,
                                       qs->loops, here)
                       == here[l].extent
                   || (cond && te_loop_within (w->ctx, nh, here, qs->loops,
                                               l));
          if (same && cond)
            same = holds_within (w->ctx, cond, nh, qs->loops, here);
          /* Each iteration of Q its own element of the output, which
             holds that iteration's quotient.  */
          te_node *index = te_canon_int (w->ctx, q->index), *lo, *span;
          int none = 0;
          const te_loop *in = NULL;
          te_loop rev[TE_MAX_LOOPS]; /* innermost first: the order
                                        te_rows_apart places them in */
          for (int l = 0; l < qs->nloops; l++)
            rev[l] = qs->loops[qs->nloops - 1 - l];
          if (!same
              || !te_rows_apart (w->ctx, qs->nloops, rev, 1, &index, &none,
                                 &in, qs, &lo, &span))
            continue;
          te_node *e = te_canon_loads (
              w->ctx, te_rename_counters (w->ctx, num, nh, qs->loops, here));
          /* A load is worth replacing only when it is of a local array
             the gradient would compute again (the exponentials an
             in-place softmax divides).  */
          if ((e->op == TE_LOAD && e->u.tensor->kind != TE_TK_LOCAL)
              || e->op == TE_CONST || e->op == TE_PARAM)
            continue;
          if (!canon)
            canon = te_canon_loads (w->ctx, x);
          /* Also what the forward stored in E's element, where it is a
             local array one statement wrote (the exponentials).  */
          te_node *def = e->op == TE_LOAD ? written_value (w, e, nh, here)
                                          : NULL;
          if (!te_contains (canon, e) && !(def && te_contains (canon, def)))
            continue;
          te_node *sv = te_rename_counters (w->ctx, den, nh, qs->loops,
                                            here);
          te_node *yv = te_load (w->ctx, q->dst,
                                 te_rename_counters (w->ctx, q->index, nh,
                                                     qs->loops, here));
          canon = te_replace (w->ctx, canon, e, te_mul (w->ctx, yv, sv));
          if (def)
            canon = te_replace (w->ctx, canon, def, te_mul (w->ctx, yv, sv));
          x = canon;
          if (w->numer_noted == e)
            continue;
          w->numer_noted = e;
          te_program_note (w->b, "reuse: %s is %s * %s",
                           te_node_string (w->b, e),
                           te_node_string (w->b, yv),
                           te_node_string (w->b, sv));
        }
    }
  return x;
}

/* Is N a select one of whose arms is 0 (an adjoint that flows only
   where its condition holds, or does not)?  */
static bool
zero_select (const te_node *n)
{
  return n->op == TE_SELECT
         && (te_is_const (n->args[1], 0) || te_is_const (n->args[2], 0));
}

/* X with reuse_numerator_in applied, within DEPTH levels of its
   arithmetic, to the arm of each select with a zero arm, in the loops
   its condition narrows (u <= t ? e[u] / z : 0 over u < T: e over
   u < t + 1).  */
typedef struct arms_rw
{
  sweep *w;
  int nh;
  const te_loop *here;
} arms_rw;

static te_node *
numerator_in_arms (void *data, te_node *x, int depth)
{
  arms_rw *rw = data;
  sweep *w = rw->w;
  te_ctx *ctx = w->ctx;
  if (depth < 0)
    return x;
  if (zero_select (x))
    {
      bool first = te_is_const (x->args[2], 0);
      te_loop narrow[2 * TE_MAX_LOOPS];
      memcpy (narrow, rw->here, rw->nh * sizeof *narrow);
      if (!te_narrow_loops (ctx, x->args[0], !first, rw->nh, narrow))
        return x;
      arms_rw in = { w, rw->nh, narrow };
      te_node *arm = reuse_numerator_in (w, x->args[first ? 1 : 2], rw->nh,
                                         narrow);
      arm = numerator_in_arms (&in, arm, depth);
      return first ? te_select (ctx, x->args[0], arm, x->args[2])
                   : te_select (ctx, x->args[0], x->args[1], arm);
    }
  return rebuild_arith (ctx, x, numerator_in_arms, rw, depth - 1);
}

static te_node *
reuse_numerator (sweep *w, te_node *x)
{
  if (!w->opt)
    return x;
  te_loop here[2 * TE_MAX_LOOPS];
  int nh = loops_here (w, true, here);
  x = reuse_numerator_in (w, x, nh, here);
  arms_rw rw = { w, nh, here };
  return numerator_in_arms (&rw, x, 4);
}

/* The rewrite of reuse_stored: V (a value the forward stored) is Y;
   where V is C / B with C a constant, X / B is X * Y / C, X / (B * Z)
   is X * Y / (C * Z) and B elsewhere C / Y.  */
typedef struct stored_rw
{
  te_node *v, *y, *b, *c;
  te_memo memo;
} stored_rw;

static te_node *
stored_1 (te_ctx *ctx, stored_rw *s, te_node *x)
{
  if (!x)
    return NULL;
  if (x == s->v)
    return s->y;
  if (s->b && x == s->b)
    return te_binary (ctx, TE_DIV, s->c, s->y);
  if (x->op == TE_CONST || x->op == TE_PARAM || x->op == TE_VAR)
    return x;
  te_node *r = te_memo_get (&s->memo, x);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_REWRITE, 1);
  r = NULL;
  if (s->b && x->op == TE_DIV)
    {
      te_node *den = x->args[1], *rest = NULL;
      bool hit = den == s->b;
      if (!hit && den->op == TE_MUL)
        for (int k = 0; k < 2 && !hit; k++)
          if (den->args[k] == s->b)
            {
              hit = true;
              rest = stored_1 (ctx, s, den->args[1 - k]);
            }
      if (hit)
        {
          te_node *num = te_mul (ctx, stored_1 (ctx, s, x->args[0]), s->y);
          te_node *d = te_is_const (s->c, 1) ? rest
                       : rest ? te_mul (ctx, s->c, rest) : s->c;
          r = d ? te_binary (ctx, TE_DIV, num, d) : num;
        }
    }
  if (!r)
    {
      te_node *args[3] = { NULL, NULL, NULL };
      bool changed = false;
      for (int i = 0; i < te_op_arity (x->op); i++)
        {
          args[i] = stored_1 (ctx, s, x->args[i]);
          changed |= args[i] != x->args[i];
        }
      r = changed ? te_rebuild (ctx, x, args) : x;
    }
  te_memo_put (&s->memo, x, r);
  return r;
}

/* Does N read an in-out tensor (whose value the gradient sees is the
   final one)?  */
static bool
reads_inout (const te_program *fwd, const te_node *n)
{
  for (int i = 0; i < fwd->ntensors; i++)
    if (fwd->tensors[i]->role == TE_ROLE_INOUT && te_reads (n, fwd->tensors[i]))
      return true;
  return false;
}

/* reuse_stored's view of forward statement Q (of stage QS) from the
   current stage, whose loops are the NH loops HERE: its value V in
   their counters (NULL when Q is no such statement), the element Y that
   holds it, and B, C where V is C / B.  Memoized per stage, as the
   value is renamed once for all the adjoints of a statement.  */
static const stored_entry *
stored_value (sweep *w, const te_stage *qs, const te_stmt *q, int nh,
              const te_loop *here)
{
  int cur = w->b->nstages - 1;
  for (int i = 0; i < STORED_CACHE; i++)
    if (w->stored[i].q == q && w->stored[i].stage == cur
        && w->stored[i].nh == nh && w->stored[i].own == w->own)
      return &w->stored[i];
  stored_entry *e = &w->stored[w->nstored++ % STORED_CACHE];
  memset (e, 0, sizeof *e);
  e->q = q;
  e->stage = cur;
  e->nh = nh;
  e->own = w->own;
  if (!holds_stored_values (w->fwd, q->dst) || reads_inout (w->fwd, q->value))
    return e;
  bool same = true;
  for (int l = 0; l < qs->nloops && same; l++)
    same = te_canon_int (w->ctx, te_rename_counters (w->ctx,
                                                     qs->loops[l].extent,
                                                     qs->nloops, qs->loops,
                                                     here))
           == te_canon_int (w->ctx, here[l].extent);
  te_node *index = te_canon_int (w->ctx, q->index), *lo, *span;
  int none = 0;
  const te_loop *in = NULL;
  te_loop rev[TE_MAX_LOOPS]; /* innermost first */
  for (int l = 0; l < qs->nloops; l++)
    rev[l] = qs->loops[qs->nloops - 1 - l];
  if (!same
      || !te_rows_apart (w->ctx, qs->nloops, rev, 1, &index, &none, &in, qs,
                         &lo, &span))
    return e;
  te_node *v = te_canon_loads (
      w->ctx, te_rename_counters (w->ctx, q->value, qs->nloops, qs->loops,
                                  here));
  if (v->op == TE_LOAD || v->op == TE_CONST || v->op == TE_PARAM
      || v->op == TE_VAR)
    return e;
  e->v = v;
  e->y = te_load (w->ctx, q->dst,
                  te_rename_counters (w->ctx, q->index, qs->nloops,
                                      qs->loops, here));
  if (v->op == TE_DIV && v->args[0]->op == TE_CONST
      && !te_is_const (v->args[0], 0) && v->args[1]->op != TE_CONST
      && v->args[1]->op != TE_PARAM)
    {
      e->c = v->args[0];
      e->b = v->args[1];
    }
  return e;
}

/* X with a value V the forward stored in output Y read from Y: a
   statement of the forward that alone writes Y, each iteration its own
   element, over loops with the extents of the current stage's outermost
   ones (a row's statistics, mean[i] and rstd[i] of a layer norm, read
   in the loops over the row's elements); where V is C / B (C a
   constant: rstd = 1 / sqrt (var + eps)), divisions by B multiply by Y
   and B is C / Y (stored_1).  */
static te_node *
reuse_stored (sweep *w, te_node *x)
{
  if (!w->opt)
    return x;
  te_loop here[2 * TE_MAX_LOOPS];
  int nh = loops_here (w, false, here);
  te_node *canon = NULL;
  const te_program *fwd = w->fwd;
  for (int s = 0; s < fwd->nstages; s++)
    {
      const te_stage *qs = &fwd->stages[s];
      for (int k = 0; k < qs->nstmts; k++)
        {
          const te_stmt *q = &qs->stmts[k];
          if (q->op != TE_SET || q->guard || q->ninner || qs->recurrent
              || qs->nloops > nh || qs->nloops == 0)
            continue;
          const stored_entry *e = stored_value (w, qs, q, nh, here);
          if (!e->v)
            continue;
          stored_rw rw = { e->v, e->y, e->b, e->c, { 0 } };
          if (!canon)
            canon = te_canon_loads (w->ctx, x);
          te_node *y = stored_1 (w->ctx, &rw, canon);
          te_memo_free (&rw.memo);
          if (y == canon)
            continue;
          canon = x = y;
          bool noted = false;
          for (int i = 0; i < w->nstored_noted; i++)
            noted |= w->stored_noted[i] == q;
          if (noted || w->nstored_noted == MAX_REDS)
            continue;
          w->stored_noted[w->nstored_noted++] = q;
          te_program_note (w->b, "reuse: %s is %s",
                           te_node_string (w->b, e->v),
                           te_node_string (w->b, e->y));
        }
    }
  return x;
}

/* An in-out tensor of the forward that ADJ, a contribution of a
   statement of stage FS, reads where the forward read its entry value:
   FS comes no later than the last stage writing it, and the statement
   does not write it (its own destination is needs_entry's).  The
   gradient would read the value the forward left; NULL if there is
   none.  */
static const te_tensor *
entry_read_elsewhere (sweep *w, te_node *adj)
{
  const te_program *fwd = w->fwd;
  int here = (int) (w->fs - fwd->stages);
  for (int i = 0; i < fwd->ntensors; i++)
    {
      const te_tensor *x = fwd->tensors[i];
      if (x->role != TE_ROLE_INOUT || x == w->st->dst || !te_reads (adj, x))
        continue;
      for (int s = here; s < fwd->nstages; s++)
        if (te_stage_writes (&fwd->stages[s], x))
          return x;
    }
  return NULL;
}

/* Does ADJ, which reuse made of RAW, read the entry value of T, the
   statement's in-out destination?  Its loads of T are entry values,
   except those reuse put there for the statement's value, which the
   forward left in T (y[i] = tanh (y[i]): the adjoint of the entry is
   d_y[i] * (1 - y[i] * y[i]), y's final values).  */
static bool
needs_entry (sweep *w, te_node *raw, te_node *adj, const te_tensor *t)
{
  if (!te_reads (adj, t))
    return false;
  if (!w->reuse_from || te_contains (adj, w->reuse_from))
    return true;
  te_node *opaque = te_param_ref (w->ctx, w->reuse_from->type, -1);
  return te_reads (te_replace (w->ctx, raw, w->reuse_from, opaque), t);
}

/* ---- emitting contributions -------------------------------------------- */

/* A new backward stage over NHOME loops HOME and NEXTRA loops EXTRA.  */
static te_stage *
new_stage (sweep *w, int nhome, const te_loop *home, int nextra,
           const te_loop *extra)
{
  te_stage *s = te_program_add_stage (w->b, w->st->loc);
  s->nloops = 0;
  for (int k = 0; k < nhome && s->nloops < TE_MAX_LOOPS; k++)
    s->loops[s->nloops++] = home[k];
  for (int k = 0; k < nextra && s->nloops < TE_MAX_LOOPS; k++)
    s->loops[s->nloops++] = extra[k];
  s->nest = w->fs->nest;
  return s;
}

/* Propagate SEED through E and turn the leaves' adjoints into statements
   of stage S (which is the last stage of W->b).  SELF_OK: a load of the
   written element may receive an adjoint here (not inside a reduction's
   terms).  */
static bool
contribute (sweep *w, te_node *e, te_node *seed, bool self_ok,
            te_node *guard)
{
  te_ctx *ctx = w->ctx;
  const te_stmt *st = w->st;
  te_tensor *t = st->dst;
  bool inout = t->role == TE_ROLE_INOUT;
  adjoints a = { 0 };
  bool ok = propagate (ctx, &a, e, seed, w->fwd->name, w->diag);
  for (int i = 0; ok && i < a.n; i++)
    {
      te_node *n = a.nodes[i], *adj = a.sums[i];
      te_tensor *dst = NULL;
      te_node *index = te_int (ctx, 0);
      if (!adj)
        continue;
      te_node *raw = subst (w, adj);
      adj = reuse_numerator (w, reuse (w, raw));
      if (n->op == TE_LOAD && te_type_is_float (n->type))
        {
          if (n->u.tensor == t && n->args[0] == st->index)
            {
              if (!self_ok)
                {
                  ok = te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                                    "'%s' is read inside a reduction that "
                                    "it receives; not supported yet",
                                    t->name);
                  break;
                }
              w->self = w->self ? te_binary (ctx, TE_ADD, w->self, adj) : adj;
              w->self_raw = w->self_raw ? te_binary (ctx, TE_ADD, w->self_raw,
                                                     raw)
                                        : raw;
              continue;
            }
          if (cancelled (w, n->u.tensor))
            continue;
          dst = n->u.tensor->accum ? n->u.tensor->accum : n->u.tensor->shadow;
          index = n->args[0];
        }
      else if (n->op == TE_PARAM && te_type_is_float (n->type)
               && n->u.index >= 0)
        dst = w->scalar_shadow[n->u.index];
      else if (n->op == TE_REDUCE)
        {
          if (cancelled_red (w, n))
            continue;
          red_info *ri = find_red (w, n);
          if (!ri)
            {
              ok = te_diag_set (w->diag, TE_DIAG_INTERNAL, st->loc,
                                "the reverse sweep lost the adjoint of a "
                                "reduction");
              break;
            }
          dst = ri->adj;
          index = ri->lin;
        }
      if (!dst)
        continue;
      /* Only here: the rewrite walks the whole adjoint.  */
      adj = reuse_stored (w, adj);
      /* An adjoint that flows only where C holds becomes a statement
         guarded by C: its index may be outside the array elsewhere (a
         padded convolution's taps).  */
      te_node *g = guard;
      while (adj->op == TE_SELECT
             && (te_is_const (adj->args[1], 0) || te_is_const (adj->args[2], 0)))
        {
          bool first = te_is_const (adj->args[2], 0);
          te_node *c = first ? adj->args[0] : te_not (ctx, adj->args[0]);
          g = g ? te_binary (ctx, TE_AND, g, c) : c;
          adj = adj->args[first ? 1 : 2];
        }
      const te_tensor *x = entry_read_elsewhere (w, adj);
      if (x)
        ok = te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                          "the gradient needs the entry value of '%s', "
                          "which a later statement overwrites",
                          x->name);
      else if (inout && needs_entry (w, raw, adj, t))
        ok = te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                          "the gradient needs the entry value of '%s', "
                          "which this statement overwrites",
                          t->name);
      te_stmt *ns = te_stage_add_stmt (w->b, &w->b->stages[w->b->nstages - 1],
                                       dst, index, TE_ADD_TO, adj, g,
                                       st->loc);
      own_loops (w, ns);
    }
  free (a.nodes);
  te_memo_free (&a.pos);
  free (a.sums);
  return ok;
}

/* Step 5 for reduction RI: the shares of its init and of its terms.  */
static bool
reverse_reduction (sweep *w, red_info *ri)
{
  te_ctx *ctx = w->ctx;
  te_node *r = ri->r;
  te_node *d = te_load (ctx, ri->adj, ri->lin);
  te_node *v = te_load (ctx, ri->val, ri->lin);
  te_node *init = subst (w, r->args[0]);
  te_node *body = subst (w, r->args[1]);
  te_node *zero = te_float (ctx, r->type, 0);
  te_node *init_seed, *body_seed;
  switch (r->u.red.kind)
    {
    case TE_RED_SUM: /* d(init + sum t)/dinit = d/dt = 1 */
      init_seed = body_seed = d;
      break;
    case TE_RED_PROD:
      /* d/dinit = prod t; d/dt_k = init * prod_{j != k} t_j, which is
         v / t_k unless t_k is 0: then the product is formed again with
         the factor k left out (the cost of one more forward, only for
         factors that are 0).  */
      {
        te_node *terms = te_reduce_node (ctx, TE_RED_PROD, r->u.red.nloops,
                                         r->u.red.loops,
                                         te_float (ctx, r->type, 1), body);
        init_seed = te_mul (ctx, d, terms);
        te_loop fresh[TE_MAX_LOOPS];
        te_node *other = body, *same = te_bool (ctx, true);
        for (int k = 0; k < r->u.red.nloops; k++)
          {
            const te_loop *l = &r->u.red.loops[k];
            fresh[k] = (te_loop) { .var = te_program_new_var (w->b, NULL),
                                   .extent = l->extent };
            te_node *nv = te_var (ctx, fresh[k].var);
            other = te_replace (ctx, other, te_var (ctx, l->var), nv);
            for (int j = 0; j < k; j++)
              fresh[k].extent = te_replace (ctx, fresh[k].extent,
                                            te_var (ctx, r->u.red.loops[j].var),
                                            te_var (ctx, fresh[j].var));
            same = te_binary (ctx, TE_AND, same,
                              te_binary (ctx, TE_EQ, nv, te_var (ctx, l->var)));
          }
        te_node *excl = te_reduce_node (
            ctx, TE_RED_PROD, r->u.red.nloops, fresh, init,
            te_select (ctx, same, te_float (ctx, r->type, 1), other));
        te_node *nonzero = te_binary (ctx, TE_NE, body, zero);
        body_seed = te_mul (ctx, d, te_select (ctx, nonzero,
                                               te_div (ctx, v, body), excl));
        break;
      }
    case TE_RED_MAX:
    case TE_RED_MIN:
      /* The init comes first: it takes the adjoint if it is extreme;
         else the first extreme term does.  */
      {
        te_node *init_wins = te_binary (ctx, TE_EQ, init, v);
        init_seed = te_select (ctx, init_wins, d, zero);
        te_node *first = te_binary (ctx, TE_EQ, ordinal (ctx, r),
                                    te_load (ctx, ri->first, ri->lin));
        body_seed = te_select (ctx, te_binary (ctx, TE_AND,
                                               te_not (ctx, init_wins), first),
                               d, zero);
        break;
      }
    default:
      return te_diag_set (w->diag, TE_DIAG_INTERNAL, w->st->loc,
                          "unknown reduction kind");
    }
  /* The statement's guard, where R's home can tell it; elsewhere dR is
     zero where the guard is false, which is enough.  */
  te_node *g = w->st->guard;
  for (int k = 0; g && k < w->ls->nloops; k++)
    if (te_uses_var_free (g, w->ls->loops[k].var)
        && !te_uses_var_free (r, w->ls->loops[k].var))
      g = NULL;
  if (w->fused)
    {
      /* Inside the one backward stage of a recurrence, at R's home.  */
      if (!contribute (w, r->args[0], init_seed, true, w->st->guard))
        return false;
      w->ninner = r->u.red.nloops;
      w->inner = r->u.red.loops;
      bool ok = contribute (w, r->args[1], body_seed, false, w->st->guard);
      w->ninner = 0;
      w->inner = NULL;
      return ok;
    }
  new_stage (w, ri->nhome, ri->home, 0, NULL);
  if (!contribute (w, r->args[0], init_seed, true, g))
    return false;
  new_stage (w, ri->nhome, ri->home, r->u.red.nloops, r->u.red.loops);
  return contribute (w, r->args[1], body_seed, false, g);
}

/* Step 1: shadows of every floating tensor and scalar parameter of FWD,
   as tensors of the backward program B.  */
static void
make_shadows (te_program *fwd, te_program *b, te_tensor **scalar_shadow)
{
  char name[256];
  for (int i = 0; i < fwd->nparams; i++)
    {
      te_param *q = &fwd->params[i];
      scalar_shadow[i] = NULL;
      if (q->shadow < 0)
        continue;
      snprintf (name, sizeof name, "d_%s", q->name);
      te_program_add_param (b, name, TE_PK_PTR_FLOAT, q->type, q->loc);
      te_tensor *s = te_program_add_tensor (b, name, q->type, TE_TK_PARAM,
                                            q->shadow, q->loc);
      s->nullable = true;
      s->role = TE_ROLE_INOUT;
      if (q->kind == TE_PK_FLOAT)
        scalar_shadow[i] = s;
      else if (q->tensor)
        {
          q->tensor->shadow = s;
          if (q->tensor->optional)
            s->primal = q->tensor;
        }
    }
  if (fwd->ret)
    {
      int k = te_program_add_param (b, "d_return", TE_PK_FLOAT,
                                    fwd->ret_type, 0);
      te_tensor *s = te_program_add_tensor (b, "d_return", fwd->ret_type,
                                            TE_TK_SCALAR, k, 0);
      s->role = TE_ROLE_INPUT;
      fwd->ret->shadow = s;
    }
}

/* The zeroed adjoint of T, a local array of the forward recomputed in
   the gradient's prologue by WHAT.  */
static void
local_shadow (te_program *b, te_tensor *t, const char *what)
{
  char name[256];
  if (t->shadow)
    return;
  te_program_note (b, "recompute: %s, a local array of the forward, in "
                      "the gradient's prologue%s",
                   t->name, what);
  snprintf (name, sizeof name, "d_%s", t->name);
  t->shadow = te_program_add_tensor (b, name, t->type, TE_TK_LOCAL, -1,
                                     t->loc);
  t->shadow->size = t->size;
  t->shadow->role = TE_ROLE_TEMP;
}

/* Call stage FS of the forward, in the prologue when it writes a local
   array (or returns a value): it runs again there, so it must write
   nothing else, the gradient writing only shadows.  */
static bool
call_temporaries (te_program *b, const te_stage *fs, te_diag *diag)
{
  const te_call *c = fs->call;
  bool local = c->ret != NULL;
  const char *other = NULL;
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].writes)
      {
        if (c->args[i].tensor->kind == TE_TK_LOCAL)
          local = true;
        else
          other = c->args[i].tensor->name;
      }
  if (!local)
    return true;
  if (other)
    {
      te_diag_set (diag, TE_DIAG_USER, fs->loc,
                   "the gradient would call '%s' again for the local "
                   "array it writes, and so write '%s' again; not "
                   "supported yet",
                   c->name, other);
      te_diag_note (diag, "pass '%s' only outputs of the kernel or only "
                          "local arrays",
                    c->name);
      return false;
    }
  te_stage *copy = te_program_add_stage (b, fs->loc);
  *copy = *fs;
  char what[256];
  snprintf (what, sizeof what, " (a call of %s)", c->name);
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].writes)
      local_shadow (b, c->args[i].tensor, what);
  if (c->ret)
    local_shadow (b, c->ret, what);
  return true;
}

/* Temporaries of the forward: the backward recomputes every stage that
   writes a local array, first, in the forward's order, and gives each a
   zeroed adjoint; an output that later stages read gets a zeroed array
   for the adjoints of those reads (its shadow must stay unchanged).  */
static bool
temporaries (te_program *fwd, te_program *b, te_diag *diag)
{
  te_ctx *ctx = fwd->ctx;
  char name[256];
  for (int s = 0; s < fwd->nstages; s++)
    {
      const te_stage *fs = &fwd->stages[s];
      te_stage *copy = NULL;
      if (fs->call && !call_temporaries (b, fs, diag))
        return false;
      for (int k = 0; k < fs->nstmts; k++)
        {
          const te_stmt *st = &fs->stmts[k];
          te_tensor *t = st->dst;
          if (t->kind == TE_TK_LOCAL)
            {
              if (!copy)
                {
                  copy = te_program_add_stage (b, fs->loc);
                  copy->nloops = fs->nloops;
                  memcpy (copy->loops, fs->loops, sizeof copy->loops);
                  copy->nest = fs->nest;
                  /* A recurrence's statements run together, in order.  */
                  copy->recurrent = fs->recurrent;
                  copy->fused = fs->recurrent;
                }
              te_stmt *c = te_stage_add_stmt (b, copy, t, st->index, st->op,
                                              st->value, st->guard, st->loc);
              c->ninner = st->ninner;
              c->inner = st->inner;
              local_shadow (b, t, "");
            }
          else if (t->read_back && t->shadow)
            {
              /* Large enough for the elements every writer writes.  */
              te_loop all[2 * TE_MAX_LOOPS];
              memcpy (all, fs->loops, fs->nloops * sizeof *all);
              memcpy (all + fs->nloops, st->inner, st->ninner * sizeof *all);
              te_node *size = te_index_bound (ctx, st->index,
                                              fs->nloops + st->ninner, all);
              if (!size)
                return te_diag_set (diag, TE_DIAG_USER, st->loc,
                                    "cannot bound the elements of '%s' that "
                                    "this statement writes; later stages "
                                    "read it",
                                    t->name);
              if (!t->accum)
                {
                  snprintf (name, sizeof name, "e_%s", t->name);
                  t->accum = te_program_add_tensor (b, name, t->type,
                                                    TE_TK_LOCAL, -1, t->loc);
                  t->accum->role = TE_ROLE_TEMP;
                  t->accum->size = size;
                }
              else
                t->accum->size = te_binary (ctx, TE_MAX, t->accum->size, size);
            }
        }
    }
  return true;
}

/* Statement ST of a block carries a recurrence over its one loop of its
   own (te_stmt.own_recurrent: c[j + 1] = c[j] / 2 + g[j + 1]): its
   adjoint statements, from FIRST on in the block's stage MAIN, run that
   loop from its last iteration down, counter J as E - 1 - J, and the one
   that adds to the destination's own adjoint (d_c[j] += d_c[j + 1] / 2)
   first, so that every other reads each element's adjoint complete
   (the later iterations and statements having added to it).  NSTAGES:
   the backward's stages before ST's, which must have made none.  */
static bool
own_loop_down (sweep *w, te_stage *main, int first, int nstages,
               const te_stmt *st)
{
  te_ctx *ctx = w->ctx;
  te_tensor *d = st->dst->shadow;
  if (!main || w->b->nstages != nstages || st->ninner != 1)
    return te_diag_set (w->diag, TE_DIAG_INTERNAL, st->loc,
                        "the adjoints of a recurrence over a loop of its "
                        "own left its block's stage");
  const te_loop *own = &st->inner[0];
  te_node *v = te_var (ctx, own->var);
  te_node *down = te_canon_int (
      ctx, te_sub (ctx, te_sub (ctx, own->extent, te_int (ctx, 1)), v));
  int nself = 0;
  for (int k = first; k < main->nstmts; k++)
    {
      te_stmt *x = &main->stmts[k];
      if (x->ninner != 1 || x->inner[0].var != own->var)
        return te_diag_set (w->diag, TE_DIAG_INTERNAL, st->loc,
                            "an adjoint of a recurrence over a loop of its "
                            "own outside that loop");
      x->index = te_canon_int (ctx, te_replace (ctx, x->index, v, down));
      x->value = te_canon_loads (ctx, te_replace (ctx, x->value, v, down));
      if (x->guard)
        x->guard = te_canon_loads (ctx, te_replace (ctx, x->guard, v, down));
      if (x->dst == d)
        {
          /* To the front, keeping the others' order, unless it reads
             what one of them writes (a temporary of the adjoint).  */
          for (int j = first + nself; j < k; j++)
            if (te_reads (x->value, main->stmts[j].dst)
                || (x->guard && te_reads (x->guard, main->stmts[j].dst)))
              return te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                                  "'%s' is updated in an inner loop from "
                                  "its values of that loop's earlier "
                                  "iterations, and carried by the loop "
                                  "around it; not supported yet",
                                  st->dst->name);
          te_stmt self = *x;
          memmove (&main->stmts[first + nself + 1],
                   &main->stmts[first + nself],
                   (k - first - nself) * sizeof *x);
          main->stmts[first + nself++] = self;
        }
    }
  if (nself > 1)
    return te_diag_set (w->diag, TE_DIAG_INTERNAL, st->loc,
                        "a recurrence over a loop of its own adds to its "
                        "own adjoint twice");
  return true;
}

/* Steps 2-6 for statement ST of forward stage FS.  */
static bool
reverse_stmt (sweep *w, const te_stage *fs, const te_stmt *st)
{
  te_ctx *ctx = w->ctx;
  te_tensor *t = st->dst;
  if (!t->shadow || cancelled (w, t))
    return true;
  w->fs = fs;
  w->st = st;
  w->ls = fs;
  w->nown = 0;
  w->own = NULL;
  if (st->ninner)
    {
      if (!fs->recurrent)
        return te_diag_set (w->diag, TE_DIAG_INTERNAL, st->loc,
                            "a statement with loops of its own outside a "
                            "block");
      w->ext = *fs;
      for (int k = 0; k < st->ninner; k++)
        {
          if (w->ext.nloops == TE_MAX_LOOPS)
            return te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                                "too many nested loops");
          w->ext.loops[w->ext.nloops++] = st->inner[k];
        }
      w->ls = &w->ext;
      w->nown = st->ninner;
      w->own = st->inner;
    }
  forget_rewrites (w);
  w->nreds = 0;
  w->self = w->self_raw = NULL;
  w->fused = fs->recurrent;
  te_stage *main = NULL;
  if (w->fused)
    {
      /* A recurrence: every iteration's adjoints are complete when the
         iterations after it have run, so one stage runs them backwards,
         each iteration's statements together, the last statement's
         first: the stage of all the statements of FS.  */
      if (t->role == TE_ROLE_INOUT)
        return te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                            "the gradient needs the entry value of '%s', "
                            "which this statement overwrites",
                            t->name);
      if (w->fused_for == fs)
        main = &w->b->stages[w->b->nstages - 1];
      else
        {
          main = new_stage (w, fs->nloops, fs->loops, 0, NULL);
          main->reversed = true;
          main->fused = true;
          w->fused_for = fs;
        }
    }
  if (!prepare_reductions (w, st->guard))
    return false;
  /* A reduction over the entry value of an in-out T (y[i] += ...) gets a
     value temporary computed from T's final value: wrong, but harmless
     if nothing reads it (a sum's gradient does not); checked at the end,
     when unused temporaries are gone.  */
  if (t->role == TE_ROLE_INOUT)
    for (int i = 0; i < w->nreds; i++)
      if (te_reads (w->reds[i].r, t) && w->npoisoned < MAX_REDS)
        {
          w->poisoned[w->npoisoned] = w->reds[i].val;
          w->poison_loc[w->npoisoned] = st->loc;
          w->poison_name[w->npoisoned++] = t->name;
        }
  w->reuse_from = w->reuse_to = w->reuse_cond = w->reuse_arm = NULL;
  te_memo_free (&w->reuse_memo);
  te_memo_free (&w->quotient_memo);
  w->reused = false;
  if (w->opt && t->kind != TE_TK_RETURN && t->kind != TE_TK_SCALAR
      && st->value->op != TE_LOAD && st->value->op != TE_CONST
      && st->value->op != TE_PARAM)
    {
      w->reuse_from = subst (w, st->value);
      w->reuse_to = te_load (ctx, t, st->index);
      if (st->value->op == TE_SELECT && te_is_const (st->value->args[2], 0)
          && st->value->args[1]->op != TE_LOAD)
        {
          w->reuse_cond = subst (w, st->value->args[0]);
          w->reuse_arm = subst (w, st->value->args[1]);
        }
    }
  te_node *g = te_load (ctx, t->shadow, st->index);
  if (t->accum)
    g = te_add (ctx, g, te_load (ctx, t->accum, st->index));
  if (!main)
    new_stage (w, fs->nloops, fs->loops, 0, NULL);
  int first_stmt = main ? main->nstmts : 0, nstages = w->b->nstages;
  if (!contribute (w, st->value, g, true, st->guard))
    return false;
  /* Outermost reductions first: their terms feed the inner ones.  */
  for (int i = w->nreds - 1; i >= 0; i--)
    if (!cancelled_red (w, w->reds[i].r) && !reverse_reduction (w, &w->reds[i]))
      return false;
  if (st->own_recurrent
      && !own_loop_down (w, main, first_stmt, nstages, st))
    return false;
  if (t->role == TE_ROLE_INOUT)
    {
      if (w->self && needs_entry (w, w->self_raw, w->self, t))
        return te_diag_set (w->diag, TE_DIAG_USER, st->loc,
                            "the gradient needs the entry value of '%s', "
                            "which this statement overwrites",
                            t->name);
      te_stage *f = new_stage (w, fs->nloops, fs->loops, 0, NULL);
      te_stage_add_stmt (w->b, f, t->shadow, st->index, TE_SET,
                         w->self ? w->self : te_float (ctx, t->type, 0),
                         st->guard, st->loc);
    }
  return true;
}

/* Call stage FS of the forward, reversed: a call of the callee's
   gradient, each argument's adjoint passed where the adjoints of its
   array accumulate (an input's), or are (an output's, which the
   gradient reads and leaves), the result's adjoint last.  */
static void
reverse_call (sweep *w, const te_stage *fs)
{
  te_ctx *ctx = w->ctx;
  te_call *c = te_alloc (ctx, sizeof *c);
  *c = *fs->call;
  c->grad = true;
  c->args = te_alloc (ctx, (c->nargs + 1) * sizeof *c->args);
  memcpy (c->args, fs->call->args, c->nargs * sizeof *c->args);
  for (int i = 0; i < c->nargs; i++)
    {
      te_call_arg *a = &c->args[i];
      te_tensor *t = a->tensor;
      if (a->kind != TE_PK_FLOAT && a->kind != TE_PK_PTR_FLOAT)
        continue;
      a->adj = !a->writes && t->accum ? t->accum : t->shadow;
    }
  if (c->ret)
    c->d_return = c->ret->shadow
                      ? te_load (ctx, c->ret->shadow, te_int (ctx, 0))
                      : te_float (ctx, c->ret->type, 0);
  te_stage *s = te_program_add_stage (w->b, fs->loc);
  s->call = c;
  s->nest = fs->nest;
}

/* Is local T of the forward FWD computed, in the stages the gradient's
   prologue runs again, from the entry value of an in-out array that a
   stage at or after the reading one overwrites (directly, or through
   another such local)?  The prologue would compute it from the value the
   forward left.  Sets *LOC to the statement that reads it and *NAME to
   the array.  */
static bool
stale_local (const te_program *fwd, const te_tensor *t, int depth,
             te_loc *loc, const char **name)
{
  if (depth > 8)
    return false;
  for (int s = 0; s < fwd->nstages; s++)
    for (int k = 0; k < fwd->stages[s].nstmts; k++)
      {
        const te_stmt *st = &fwd->stages[s].stmts[k];
        if (st->dst != t)
          continue;
        for (int i = 0; i < fwd->ntensors; i++)
          {
            const te_tensor *x = fwd->tensors[i];
            if (x == t || !te_reads (st->value, x))
              continue;
            if (x->role == TE_ROLE_INOUT)
              for (int w = s; w < fwd->nstages; w++)
                if (te_stage_writes (&fwd->stages[w], x))
                  {
                    *loc = st->loc;
                    *name = x->name;
                    return true;
                  }
            if (x->kind == TE_TK_LOCAL
                && stale_local (fwd, x, depth + 1, loc, name))
              return true;
          }
      }
  return false;
}

/* Refuse a gradient B of FWD whose adjoint statements (those that write
   no local array of the forward: not the prologue) read a local array
   the prologue computes from an overwritten entry value (stale_local):
   an Euler step whose state enters in an in-out array, whose gradient
   needs every step's state.  */
static bool
check_stale (const te_program *fwd, const te_program *b, te_diag *diag)
{
  for (int i = 0; i < fwd->ntensors; i++)
    {
      const te_tensor *t = fwd->tensors[i];
      te_loc loc;
      const char *name;
      if (t->kind != TE_TK_LOCAL || !stale_local (fwd, t, 0, &loc, &name))
        continue;
      for (int s = 0; s < b->nstages; s++)
        for (int k = 0; k < b->stages[s].nstmts; k++)
          {
            const te_stmt *st = &b->stages[s].stmts[k];
            bool prologue = false;
            for (int j = 0; j < fwd->ntensors; j++)
              prologue |= st->dst == fwd->tensors[j]
                          && fwd->tensors[j]->kind == TE_TK_LOCAL;
            if (prologue
                || !(te_reads (st->value, t)
                     || (st->guard && te_reads (st->guard, t))))
              continue;
            te_diag_set (diag, TE_DIAG_USER, loc,
                         "the gradient needs the entry value of '%s', "
                         "which a later statement overwrites",
                         name);
            te_diag_note (diag, "the gradient needs the states that "
                                "follow from it; pass the initial state "
                                "in an array of its own that the kernel "
                                "only reads, not in '%s'",
                          name);
            return false;
          }
    }
  return true;
}

te_program *
ad_reverse (te_program *fwd, bool opt, te_diag *diag)
{
  te_ctx *ctx = fwd->ctx;
  char name[256];
  if (!te_ctx_within_budget (ctx, fwd->name, diag))
    return NULL;
  snprintf (name, sizeof name, "%s_grad", fwd->name);
  te_program *b = te_program_new (ctx, name);
  b->forward = fwd;
  for (int i = 0; i < fwd->nparams; i++)
    {
      te_param *q = &fwd->params[i];
      te_program_add_param (b, q->name, q->kind, q->type, q->loc);
    }
  /* The backward reads the forward's tensors as they are.  */
  for (int i = 0; i < fwd->ntensors; i++)
    te_program_share_tensor (b, fwd->tensors[i]);
  /* What the forward's passes found the gradient needs of the sizes.  */
  b->nrequires = fwd->nrequires;
  b->requires = fwd->requires;
  sweep w;
  memset (&w, 0, sizeof w);
  w.b = b;
  w.fwd = fwd;
  w.ctx = ctx;
  w.diag = diag;
  w.opt = opt;
  w.scalar_shadow = te_alloc (ctx, sizeof (te_tensor *) * (fwd->nparams + 1));
  make_shadows (fwd, b, w.scalar_shadow);
  for (int v = 0; v < fwd->nvars; v++)
    {
      te_program_new_var (b, fwd->var_names[v]);
      te_program_set_var_loop (b, v, te_program_var_loop (fwd, v));
    }
  /* Which of them the forward ran on threads: the gradient may too
     (lib/passes/parallel.c).  */
  for (int i = 0; i < fwd->nparallel; i++)
    te_program_set_parallel_loop (b, fwd->parallel_loops[i]);
  b->parallel_all = fwd->parallel_all;
  b->vect_rest = fwd->vect_rest;
  b->wide_vectors = fwd->wide_vectors;
  if (!temporaries (fwd, b, diag))
    return NULL;
  if (opt)
    {
      w.ncancelled = ad_cancelled (fwd, w.cancelled, MAX_REDS);
      for (int i = 0; i < w.ncancelled; i++)
        te_program_note (b, "cancel: %s gets no adjoint: the results do "
                            "not change when an element of it moves",
                         w.cancelled[i]->name);
      feeds_only_cancelled (&w, fwd, b);
      w.ncancelled_reds = ad_cancelled_reductions (fwd, w.cancelled_reds,
                                                   MAX_REDS);
      for (int i = 0; i < w.ncancelled_reds; i++)
        if (!value_of_cancelled (&w, w.cancelled_reds[i]))
          te_program_note (b, "cancel: %s gets no adjoint: the results do "
                            "not change when it moves",
                         te_node_string (b, w.cancelled_reds[i]));
    }
  for (int s = fwd->nstages - 1; s >= 0; s--)
    {
      if (fwd->stages[s].call)
        reverse_call (&w, &fwd->stages[s]);
      for (int k = fwd->stages[s].nstmts - 1; k >= 0; k--)
        if (!reverse_stmt (&w, &fwd->stages[s], &fwd->stages[s].stmts[k]))
          return NULL;
    }
  forget_rewrites (&w);
  te_program_drop_unread (b);
  if (!te_ctx_within_budget (ctx, fwd->name, diag)
      || !check_stale (fwd, b, diag))
    return NULL;
  for (int i = 0; i < w.npoisoned; i++)
    for (int k = 0; k < b->ntensors; k++)
      if (b->tensors[k] == w.poisoned[i])
        {
          te_diag_set (diag, TE_DIAG_USER, w.poison_loc[i],
                       "the gradient needs the entry value of '%s', which "
                       "this statement overwrites",
                       w.poison_name[i]);
          return NULL;
        }
  return b;
}

/* ad.c -- the reverse sweep: from a forward TE program to its gradient.

   Before:  stage 0: for i < n:  y[i] = a * x[i] + y[i];     (y in-out)
   After:   stage 0: for i < n:  d_x[i] += d_y[i] * a;
                                 d_a[0] += d_y[i] * x[i];
                                 d_y[i] = d_y[i];

   1. Give every floating tensor its shadow: a pointer parameter of the
      gradient (may be NULL), or, for the return value, the scalar
      parameter d_return.
   2. Walk the stages last to first and, inside a stage, the statements
      last to first.  For T[w] = e with adjoint G = dT[w], accumulate
      adjoints through e's DAG in reverse topological order, one rule per
      operation (deriv.c), all sums made by add_contribution.
   3. Every floating load A[r] in e receives dA[r] += adj; every floating
      scalar parameter a receives d_a[0] += adj.  A statement of the
      backward stage is guarded like the forward one.
   4. If T's value before the statement is itself read by the kernel
      (T in-out), the adjoint of that entry value replaces dT[w]:
      dT[w] = adj (T[w]), or 0 when e does not read T[w].
   5. A contribution that needs the entry value of an in-out T, which the
      forward overwrote, is refused.

   The serial order of iterations of each loop nest is kept: only stages
   whose iterations are independent reach here (roles.c), so the adjoint
   stage may run its iterations in any order, and it runs them forwards.  */

#include "ad.h"

#include <stdlib.h>
#include <string.h>

/* Adjoint accumulation for the nodes of one expression.  */
typedef struct adjoints
{
  te_node **nodes; /* post-order: operands before users */
  te_node **sums;  /* adjoint of nodes[i] so far, or NULL */
  int n, cap;
} adjoints;

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
}

static int
position (const adjoints *a, const te_node *n)
{
  for (int i = 0; i < a->n; i++)
    if (a->nodes[i] == n)
      return i;
  return -1;
}

/* The one place where adjoints are summed: add C to the adjoint of N.  */
static void
add_contribution (te_ctx *ctx, adjoints *a, const te_node *n, te_node *c)
{
  int i = position (a, n);
  te_assert (i >= 0);
  if (i < 0)
    return;
  a->sums[i] = a->sums[i] ? te_binary (ctx, TE_ADD, a->sums[i], c) : c;
}

/* Propagate the seed SEED of E down to every leaf of E.  */
static bool
propagate (te_ctx *ctx, adjoints *a, te_node *e, te_node *seed,
           te_diag *diag)
{
  te_walk (e, collect_node, a);
  add_contribution (ctx, a, e, seed);
  for (int i = a->n - 1; i >= 0; i--)
    {
      te_node *n = a->nodes[i], *adj = a->sums[i];
      if (!adj || n->op == TE_LOAD || n->op == TE_PARAM)
        continue;
      if (n->op == TE_REDUCE)
        return te_diag_set (diag, TE_DIAG_INTERNAL, 0,
                            "reductions are not differentiated yet");
      for (int k = 0; k < te_op_arity (n->op); k++)
        {
          te_node *arg = n->args[k];
          if (!te_type_is_float (arg->type))
            continue;
          te_node *c = deriv_adjoint (ctx, n, k, adj, diag);
          if (!c)
            return false;
          add_contribution (ctx, a, arg, te_cast (ctx, arg->type, c));
        }
    }
  return true;
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
        q->tensor->shadow = s;
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

/* Steps 2-5 for statement ST of a forward stage, appending to stage BS of
   the backward program B.  */
static bool
reverse_stmt (te_program *b, te_stage *bs, const te_stmt *st,
              te_tensor **scalar_shadow, te_diag *diag)
{
  te_ctx *ctx = b->ctx;
  te_tensor *t = st->dst;
  if (!t->shadow)
    return true;
  te_node *g = te_load (ctx, t->shadow, st->index);
  adjoints a = { 0 };
  bool ok = propagate (ctx, &a, st->value, g, diag);
  te_node *self = NULL;
  bool inout = t->role == TE_ROLE_INOUT;
  for (int i = 0; ok && i < a.n; i++)
    {
      te_node *n = a.nodes[i], *adj = a.sums[i];
      te_tensor *dst = NULL;
      if (!adj)
        continue;
      if (n->op == TE_LOAD && te_type_is_float (n->type))
        {
          if (n->u.tensor == t && n->args[0] == st->index)
            {
              self = self ? te_binary (ctx, TE_ADD, self, adj) : adj;
              continue;
            }
          dst = n->u.tensor->shadow;
        }
      else if (n->op == TE_PARAM && te_type_is_float (n->type))
        dst = scalar_shadow[n->u.index];
      if (!dst)
        continue;
      if (inout && te_reads (adj, t))
        ok = te_diag_set (diag, TE_DIAG_USER, st->loc,
                          "the gradient needs the entry value of '%s', "
                          "which this statement overwrites",
                          t->name);
      te_node *index = n->op == TE_LOAD ? n->args[0] : te_int (ctx, 0);
      te_stage_add_stmt (b, bs, dst, index, TE_ADD_TO, adj, st->guard,
                         st->loc);
    }
  if (ok && inout)
    {
      if (self && te_reads (self, t))
        ok = te_diag_set (diag, TE_DIAG_USER, st->loc,
                          "the gradient needs the entry value of '%s', "
                          "which this statement overwrites",
                          t->name);
      te_stage_add_stmt (b, bs, t->shadow, st->index, TE_SET,
                         self ? self : te_float (ctx, t->type, 0), st->guard,
                         st->loc);
    }
  free (a.nodes);
  free (a.sums);
  return ok;
}

te_program *
ad_reverse (te_program *fwd, te_diag *diag)
{
  te_ctx *ctx = fwd->ctx;
  char name[256];
  snprintf (name, sizeof name, "%s_grad", fwd->name);
  te_program *b = te_program_new (ctx, name);
  for (int i = 0; i < fwd->nparams; i++)
    {
      te_param *q = &fwd->params[i];
      te_program_add_param (b, q->name, q->kind, q->type, q->loc);
    }
  /* The backward reads the forward's tensors as they are.  */
  for (int i = 0; i < fwd->ntensors; i++)
    te_program_share_tensor (b, fwd->tensors[i]);
  te_tensor **scalar_shadow
      = te_alloc (ctx, sizeof (te_tensor *) * (fwd->nparams + 1));
  make_shadows (fwd, b, scalar_shadow);
  b->var_names = fwd->var_names;
  b->nvars = fwd->nvars;
  for (int s = fwd->nstages - 1; s >= 0; s--)
    {
      const te_stage *fs = &fwd->stages[s];
      te_stage *bs = te_program_add_stage (b, fs->loc);
      bs->nloops = fs->nloops;
      memcpy (bs->loops, fs->loops, sizeof bs->loops);
      for (int k = fs->nstmts - 1; k >= 0; k--)
        if (!reverse_stmt (b, bs, &fs->stmts[k], scalar_shadow, diag))
          return NULL;
    }
  return b;
}

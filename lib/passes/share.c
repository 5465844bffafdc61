/* share.c -- one sum for the adjoints that sum the same terms times
   different factors.

   Before:  for j < m, i < n:
              d_v[j] += -(r[j] * ((x[j + m*i] - mu[j]) * (g[j] * d_y[j + m*i])));
              d_gamma[j] += r[j] * (x[j + m*i] - mu[j]) * d_y[j + m*i];
              d_x[j + m*i] += ...;
   After:   for j < m, i < n:
              t0[j] += (x[j + m*i] - mu[j]) * d_y[j + m*i];
              d_x[j + m*i] += ...;
            for j < m:
              d_v[j] += -(r[j] * g[j]) * t0[j];
              d_gamma[j] += r[j] * t0[j];
   A batch norm's gradient sums d_y * xhat once for d_gamma and once for
   the variance's adjoint, and d_y once for d_beta and once for the
   mean's: each sum runs over the batch, the factors that tell them apart
   depend on the feature only.  An expert sums each once.

   1. A candidate is an addition statement of a stage that is neither
      fused, recurrent, reversed, parallel nor a product for the BLAS,
      with no guard and no loops of its own, whose element does not move
      along at least one loop of the stage (a sum over it), whose array
      no other statement of the stage reads or writes, and whose element
      uses only counters of loops with extents free of counters.
   2. Its value is a sign (negations) times a product of factors
      (te_factors).  A factor is outer when it uses no counter the
      element does not use and reads nothing the stage writes; the rest
      are the inner factors, a multiset, nonempty.
   3. Candidates with the same element counters and the same inner
      multiset (hash-consing: the same nodes) form a group; a group of
      two or more sums the product of its inner factors once into a new
      temporary indexed by those counters (in the first member's place),
      and a stage right after adds, for each member, its sign times its
      outer factors times that sum to its element.  Exact in real
      arithmetic (distributivity); the order of the multiplications and
      of the rounding changes, as factoring out does.  Where an outer
      factor is infinite or NaN, the sum it multiplies is 0 only where
      every term was 0 times it, NaN both ways.  */

#include "passes/passes.h"
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_FACT = 16, MAX_CAND = 32 };

typedef struct cand
{
  int stmt;
  bool neg;
  int mask;      /* the stage's loops the element uses */
  int nouter, ninner;
  te_node *outer[MAX_FACT];
  te_node *inner[MAX_FACT]; /* by node id */
  int group;     /* -1: alone */
} cand;

static bool
stage_writes_read (const te_stage *s, const te_node *n)
{
  for (int k = 0; k < s->nstmts; k++)
    if (te_reads (n, s->stmts[k].dst))
      return true;
  return false;
}

static int
by_id (const void *a, const void *b)
{
  int x = (*(te_node *const *) a)->id, y = (*(te_node *const *) b)->id;
  return (x > y) - (x < y);
}

/* Steps 1 and 2 for statement K of stage S: fill *C; false when it is
   no candidate.  */
static bool
candidate (const te_program *p, const te_stage *s, int k, cand *c)
{
  const te_stmt *x = &s->stmts[k];
  if (x->op != TE_ADD_TO || x->guard || x->ninner
      || !te_type_is_float (x->dst->type))
    return false;
  int all = (1 << s->nloops) - 1;
  c->mask = te_stage_loop_mask (s, x->index, p->nvars);
  if (c->mask < 0 || c->mask == all)
    return false;
  for (int l = 0; l < s->nloops; l++)
    if ((c->mask & (1 << l))
        && te_stage_loop_mask (s, s->loops[l].extent, p->nvars) != 0)
      return false;
  for (int o = 0; o < s->nstmts; o++)
    if (o != k && (s->stmts[o].dst == x->dst
                   || te_stmt_reads (&s->stmts[o], x->dst)))
      return false;
  te_node *v = x->value;
  c->neg = false;
  while (v->op == TE_NEG)
    {
      c->neg = !c->neg;
      v = v->args[0];
    }
  te_node *f[MAX_FACT];
  int nf = te_factors (v, f, MAX_FACT);
  if (nf < 0)
    return false;
  c->stmt = k;
  c->nouter = c->ninner = 0;
  c->group = -1;
  for (int i = 0; i < nf; i++)
    {
      te_node *g = f[i];
      while (g->op == TE_NEG)
        {
          c->neg = !c->neg;
          g = g->args[0];
        }
      int m = te_stage_loop_mask (s, g, p->nvars);
      if (m >= 0 && (m & ~c->mask) == 0 && !stage_writes_read (s, g))
        c->outer[c->nouter++] = g;
      else
        c->inner[c->ninner++] = g;
    }
  if (!c->ninner)
    return false;
  qsort (c->inner, c->ninner, sizeof c->inner[0], by_id);
  return true;
}

static bool
same_inner (const cand *a, const cand *b)
{
  return a->mask == b->mask && a->ninner == b->ninner
         && !memcmp (a->inner, b->inner, a->ninner * sizeof a->inner[0]);
}

static te_node *
product (te_ctx *ctx, te_node *const *f, int n, te_node *last)
{
  te_node *r = NULL;
  for (int i = 0; i < n; i++)
    r = r ? te_binary (ctx, TE_MUL, r, f[i]) : f[i];
  if (last)
    r = r ? te_binary (ctx, TE_MUL, r, last) : last;
  return r;
}

/* Step 3 for stage SI: share the first group found; whether it did (a
   stage was inserted after SI).  */
static bool
share (te_program *p, int si, int *ntemps)
{
  te_ctx *ctx = p->ctx;
  te_stage *s = &p->stages[si];
  if (s->call || s->fused || s->recurrent || s->reversed || s->par || s->blas
      || s->nloops < 2)
    return false;
  cand c[MAX_CAND];
  int nc = 0;
  for (int k = 0; k < s->nstmts && nc < MAX_CAND; k++)
    if (candidate (p, s, k, &c[nc]))
      nc++;
  int lead = -1, members = 0;
  for (int a = 0; a < nc && lead < 0; a++)
    {
      members = 1;
      for (int b = a + 1; b < nc; b++)
        if (same_inner (&c[a], &c[b])
            && c[b].inner[0]->type == c[a].inner[0]->type
            && s->stmts[c[b].stmt].dst->type == s->stmts[c[a].stmt].dst->type)
          {
            c[b].group = a;
            members++;
          }
      if (members > 1)
        lead = a;
      else
        for (int b = a + 1; b < nc; b++)
          if (c[b].group == a)
            c[b].group = -1;
    }
  if (lead < 0)
    return false;
  c[lead].group = lead;
  te_loop loops[TE_MAX_LOOPS];
  int nl = 0, ids[TE_MAX_LOOPS];
  for (int l = 0; l < s->nloops; l++)
    if (c[lead].mask & (1 << l))
      {
        ids[nl] = s->loop_ids[l];
        loops[nl++] = s->loops[l];
      }
  te_node *lin, *size;
  if (!te_linearize (ctx, nl, loops, &lin, &size))
    return false;
  char name[32];
  snprintf (name, sizeof name, "t%d", (*ntemps)++);
  te_stmt *first = &s->stmts[c[lead].stmt];
  te_type type = first->dst->type;
  te_tensor *t = te_program_add_tensor (p, name, type, TE_TK_LOCAL, -1,
                                        first->loc);
  t->size = size;
  t->role = TE_ROLE_TEMP;
  te_node *sum = te_load (ctx, t, lin);
  te_stmt moved[MAX_CAND];
  int nm = 0;
  for (int i = 0; i < nc; i++)
    if (c[i].group == lead)
      {
        moved[nm] = s->stmts[c[i].stmt];
        te_node *v = product (ctx, c[i].outer, c[i].nouter, sum);
        moved[nm++].value = c[i].neg ? te_neg (ctx, v) : v;
      }
  /* The first member sums the inner product into T; the others go.  */
  first->dst = t;
  first->index = lin;
  first->value = product (ctx, c[lead].inner, c[lead].ninner, NULL);
  int keep = 0;
  for (int k = 0; k < s->nstmts; k++)
    {
      bool drop = false;
      for (int i = 0; i < nc; i++)
        drop |= c[i].group == lead && i != lead && c[i].stmt == k;
      if (!drop)
        s->stmts[keep++] = s->stmts[k];
    }
  s->nstmts = keep;
  char names[256] = "";
  for (int i = 0; i < nm; i++)
    {
      size_t len = strlen (names);
      snprintf (names + len, sizeof names - len, "%s%s",
                i == 0 ? "" : i == nm - 1 ? " and " : ", ",
                moved[i].dst->name);
    }
  te_program_note (p, "share: %s add up %s once, in %s", names,
                   te_node_string (p, first->value), name);
  te_loc loc = s->loc;
  int nest = s->nest;
  te_stage *n = te_program_insert_stage (p, si + 1, loc);
  n->nest = nest;
  for (int l = 0; l < nl; l++)
    {
      n->loop_ids[n->nloops] = ids[l];
      te_stage_add_loop (n, loops[l].var, loops[l].extent);
    }
  for (int i = 0; i < nm; i++)
    te_stage_add_stmt (p, n, moved[i].dst, moved[i].index, TE_ADD_TO,
                       moved[i].value, NULL, moved[i].loc);
  return true;
}

bool
te_program_share (te_program *p, te_diag *diag)
{
  (void) diag;
  int ntemps = 0;
  for (int s = 0; s < p->nstages; s++)
    while (share (p, s, &ntemps))
      ;
  return true;
}

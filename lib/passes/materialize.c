/* materialize.c -- computing once what several iterations share.

   Before:  for i < n, j < m:  d_x[i*m + j] += g[j] / sqrt (v[j] / n + eps) * d_y[i*m + j];
   After:   for j < m:         m0[j] = g[j] / sqrt (v[j] / n + eps);
            for i < n, j < m:  d_x[i*m + j] += m0[j] * d_y[i*m + j];

   A subexpression of a backward statement that uses only some of its
   stage's counters (batch norm's inverse deviation, layer norm's, a
   softmax row's sum) is the same in every iteration of the other loops.
   When it costs more than a load, it is computed once per iteration of
   the loops it uses into a temporary of the gradient, which every stage
   that needs it reads.

   Cost model: a load, a constant, a counter or a parameter costs 0; +, -,
   *, compares and selects cost 1; a division 4; sqrt and every other
   math function 20.  A subexpression is materialized when it costs 4 or
   more (a division or a math call) and the loops it leaves out would run
   it again: materializing costs one store and one load per element.

   1. For every statement of a stage that is not fused for a recurrence,
      take the largest subexpressions, evaluated whenever the statement
      is (not inside a select's arms or a reduction's terms), that use a
      strict subset of the stage's counters and cost enough.
   2. The loops of that subset must have extents free of counters.  The
      temporary is indexed by their iteration, in the stage's order, and
      computed by a new stage placed before the first stage that needs it.
   3. The same subexpression elsewhere (same counters) reads the same
      temporary.  Each decision is noted.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

#define MAX_MAT 64

static int
cost (const te_node *n)
{
  int c;
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
    case TE_LOAD:
      return 0;
    case TE_REDUCE:
      return 1000;
    case TE_DIV:
    case TE_MOD:
      c = 4;
      break;
    case TE_NEG:
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_MIN:
    case TE_MAX:
    case TE_CAST:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    case TE_SELECT:
      c = 1;
      break;
    default: /* the math functions */
      c = 20;
      break;
    }
  for (int i = 0; i < 3; i++)
    if (n->args[i])
      c += cost (n->args[i]);
  return c;
}

typedef struct mat
{
  te_node *node;
  te_tensor *t;
  te_node *load;
} mat;

typedef struct matter
{
  te_program *p;
  mat m[MAX_MAT];
  int n;
} matter;

static mat *
find_mat (matter *mt, const te_node *n)
{
  for (int i = 0; i < mt->n; i++)
    if (mt->m[i].node == n)
      return &mt->m[i];
  return NULL;
}

/* Make the temporary for N, used by stage number S, over the loops of
   MASK; a new stage is inserted before S.  */
static mat *
materialize (matter *mt, int s, te_node *n, int mask)
{
  te_program *p = mt->p;
  te_ctx *ctx = p->ctx;
  te_stage *st = &p->stages[s];
  te_loop loops[TE_MAX_LOOPS];
  int nl = 0;
  for (int k = 0; k < st->nloops; k++)
    if (mask & (1 << k))
      loops[nl++] = st->loops[k];
  te_node *lin, *size;
  if (!te_linearize (ctx, nl, loops, &lin, &size))
    return NULL;
  if (mt->n == MAX_MAT)
    return NULL;
  char name[32];
  snprintf (name, sizeof name, "m%d", mt->n);
  te_tensor *t = te_program_add_tensor (p, name, n->type, TE_TK_LOCAL, -1,
                                        st->loc);
  t->size = size;
  t->role = TE_ROLE_TEMP;
  te_loc loc = st->loc;
  int nest = st->nest;
  te_stage *ns = te_program_insert_stage (p, s, loc);
  ns->nest = nest;
  ns->nloops = nl;
  memcpy (ns->loops, loops, sizeof loops);
  te_stage_add_stmt (p, ns, t, lin, TE_SET, n, NULL, loc);
  mat *m = &mt->m[mt->n++];
  m->node = n;
  m->t = t;
  m->load = te_load (ctx, t, lin);
  te_program_note (p, "materialize: %s into %s", te_node_string (p, n),
                   te_node_string (p, m->load));
  return m;
}

/* Step 1 for the value N of a statement of stage S (whose index in the
   program may move when a stage is inserted: *S is updated).  Returns N
   with what was materialized replaced.  */
static te_node *
visit (matter *mt, int *s, te_node *n)
{
  te_program *p = mt->p;
  mat *m = find_mat (mt, n);
  if (m)
    return m->load;
  if (n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR
      || n->op == TE_LOAD || n->op == TE_REDUCE || !te_type_is_float (n->type))
    return n;
  const te_stage *st = &p->stages[*s];
  int mask = te_stage_loop_mask (st, n, p->nvars);
  int all = (1 << st->nloops) - 1;
  if (mask >= 0 && mask != all && cost (n) >= 4)
    {
      m = materialize (mt, *s, n, mask);
      if (m)
        {
          (*s)++;
          return m->load;
        }
    }
  /* Operands evaluated whenever N is: not a select's arms.  */
  te_node *args[3] = { n->args[0], n->args[1], n->args[2] };
  int last = n->op == TE_SELECT ? 1 : te_op_arity (n->op);
  bool changed = false;
  for (int i = 0; i < last; i++)
    {
      args[i] = visit (mt, s, n->args[i]);
      changed |= args[i] != n->args[i];
    }
  if (!changed)
    return n;
  switch (n->op)
    {
    case TE_CAST:
      return te_cast (p->ctx, n->type, args[0]);
    case TE_SELECT:
      return te_select (p->ctx, args[0], args[1], args[2]);
    default:
      if (te_op_arity (n->op) == 1)
        return te_unary (p->ctx, n->op, args[0]);
      return te_binary (p->ctx, n->op, args[0], args[1]);
    }
}

bool
te_program_materialize (te_program *p, te_diag *diag)
{
  (void) diag;
  matter mt;
  memset (&mt, 0, sizeof mt);
  mt.p = p;
  for (int s = 0; s < p->nstages; s++)
    {
      if (p->stages[s].recurrent || p->stages[s].reversed
          || p->stages[s].nloops < 2)
        continue;
      for (int k = 0; k < p->stages[s].nstmts; k++)
        {
          if (p->stages[s].stmts[k].ninner)
            continue;
          te_node *v = visit (&mt, &s, p->stages[s].stmts[k].value);
          p->stages[s].stmts[k].value = v;
        }
    }
  return true;
}

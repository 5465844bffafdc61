/* extent.c -- step 2 of the gradient check (check.c): the number of
   elements of every pointer parameter at the chosen sizes, and the
   values of the index arrays.

   Before:  stage 0: for i < n:  y[i] = x[i + 1],  n = 3
   After:   x has 4 elements, y 3.

   Every statement of the forward is walked over its loops; its integer
   nodes are evaluated where they do not depend on floating-point data,
   and each access of a pointer parameter records the largest element.
   Branches whose condition is not known are walked as branches that may
   not run: their accesses count, but one at an unknown or negative index
   does not refuse the kernel.  */

#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* The walk of step 2 over the forward: integer nodes are evaluated (when
   they do not depend on floating-point data), loads and stores of
   pointer parameters recorded.  */
typedef struct xw
{
  ck_state *ck;
  int nslots;
  uint64_t *stamp; /* a node's value is valid when its stamp is TICK */
  int64_t *val;
  bool *known;
  uint64_t tick;   /* advanced whenever a counter changes */
  int64_t *var;
  int unsure;      /* inside a branch that may not run */
  int64_t *hi;     /* by parameter: 1 + the largest index accessed */
  long visits;
} xw;

static bool xw_eval (xw *w, const te_node *n, int64_t *v, bool *known);

/* Access of tensor T at index I (KNOWN: I is known).  */
static bool
xw_access (xw *w, const te_tensor *t, int64_t i, bool known)
{
  if (t->kind != TE_TK_PARAM)
    return true;
  if (!known)
    return w->unsure
           || ck_refuse (w->ck, "an index of `%s' depends on floating-point data",
                      t->name);
  if (i < 0)
    return w->unsure
           || ck_refuse (w->ck, "`%s' is accessed at index %lld%s and the "
                      "chosen index values", t->name, (long long) i,
                      w->ck->res->at);
  if (i >= CK_MAX_ELEMS)
    return ck_refuse (w->ck, "`%s' has more than %d elements%s; give smaller "
                   "sizes with check-sizes=", t->name, CK_MAX_ELEMS,
                   w->ck->res->at);
  if (i + 1 > w->hi[t->param])
    w->hi[t->param] = i + 1;
  return true;
}

/* Run FN (W, DATA) at every point of LOOPS[K..NLOOPS-1].  */
static bool
xw_loops (xw *w, int nloops, const te_loop *loops, int k,
          bool (*fn) (xw *, const void *), const void *data)
{
  if (k == nloops)
    return fn (w, data);
  int64_t extent;
  bool known;
  w->tick++;
  if (!xw_eval (w, loops[k].extent, &extent, &known))
    return false;
  if (!known)
    return ck_refuse (w->ck, "the extent of a loop depends on floating-point "
                   "data");
  for (int64_t i = 0; i < extent; i++)
    {
      w->var[loops[k].var] = i;
      w->tick++;
      if (!xw_loops (w, nloops, loops, k + 1, fn, data))
        return false;
    }
  w->tick++;
  return true;
}

/* The body of reduction DATA at one point of its loops.  */
static bool
xw_reduce_body (xw *w, const void *data)
{
  int64_t v;
  bool known;
  const te_node *n = data;
  return xw_eval (w, n->args[1], &v, &known);
}

/* C's conversion of V to integer type TYPE.  */
static int64_t
xw_wrap (te_type type, int64_t v)
{
  switch (type)
    {
    case TE_BOOL:
      return v != 0;
    case TE_I32:
      return (int32_t) (uint32_t) (uint64_t) v;
    case TE_U32:
      return (int64_t) (uint32_t) (uint64_t) v;
    case TE_I64:
    case TE_F32:
    case TE_F64:
      break;
    }
  return v;
}

/* Integer operation N on known operands A and B, into *V.  False when N
   is not an integer operation (its value stays unknown).  */
static bool
xw_int_op (xw *w, const te_node *n, int64_t a, int64_t b, int64_t *v)
{
  uint64_t ua = (uint64_t) a, ub = (uint64_t) b;
  switch (n->op)
    {
    case TE_NEG: *v = (int64_t) (0 - ua); return true;
    case TE_ADD: *v = (int64_t) (ua + ub); return true;
    case TE_SUB: *v = (int64_t) (ua - ub); return true;
    case TE_MUL: *v = (int64_t) (ua * ub); return true;
    case TE_DIV:
    case TE_MOD:
      if (b == 0 || (a == INT64_MIN && b == -1))
        return ck_refuse (w->ck, "an integer division by zero%s", w->ck->res->at);
      *v = n->op == TE_DIV ? a / b : a % b;
      return true;
    case TE_MIN: *v = a < b ? a : b; return true;
    case TE_MAX: *v = a > b ? a : b; return true;
    case TE_CAST: *v = a; return true;
    case TE_LT: *v = a < b; return true;
    case TE_LE: *v = a <= b; return true;
    case TE_GT: *v = a > b; return true;
    case TE_GE: *v = a >= b; return true;
    case TE_EQ: *v = a == b; return true;
    case TE_NE: *v = a != b; return true;
    case TE_NOT: *v = !a; return true;
    case TE_CONST: case TE_PARAM: case TE_VAR: case TE_LOAD: case TE_AND:
    case TE_OR: case TE_SELECT: case TE_REDUCE: case TE_EXP: case TE_EXP2:
    case TE_EXPM1: case TE_LOG: case TE_LOG2: case TE_LOG10: case TE_LOG1P:
    case TE_SQRT: case TE_CBRT: case TE_SIN: case TE_COS: case TE_TAN:
    case TE_ASIN: case TE_ACOS: case TE_ATAN: case TE_SINH: case TE_COSH:
    case TE_TANH: case TE_ERF: case TE_ERFC: case TE_FABS: case TE_FLOOR:
    case TE_CEIL: case TE_TRUNC: case TE_ROUND: case TE_POW: case TE_ATAN2:
    case TE_HYPOT: case TE_FMAX: case TE_FMIN: case TE_NUM_OPS:
      break;
    }
  return false;
}

/* Load node N: record the access, and its value when it is an integer
   parameter or an element of an index array already filled.  */
static bool
xw_load (xw *w, const te_node *n, int64_t *v, bool *known)
{
  const te_tensor *t = n->u.tensor;
  int64_t i = 0;
  bool ki = true;
  if (t->kind == TE_TK_SCALAR)
    {
      *known = !te_type_is_float (n->type);
      *v = *known ? w->ck->ints[t->param] : 0;
      return true;
    }
  if (n->args[0] && !xw_eval (w, n->args[0], &i, &ki))
    return false;
  if (!xw_access (w, t, i, ki))
    return false;
  *known = (t->kind == TE_TK_PARAM && !te_type_is_float (t->type) && ki
            && i >= 0);
  *v = *known ? ck_index_value (t->param, i) : 0;
  return true;
}

/* && || or select N: only the operands that run, when the first one is
   known; all of them, as branches that may not run, when it is not.  */
static bool
xw_cond (xw *w, const te_node *n, int64_t *v, bool *known)
{
  int64_t a, b = 0, c = 0;
  bool ka, kb = true, kc = true, ok = xw_eval (w, n->args[0], &a, &ka);
  bool sel = n->op == TE_SELECT;
  /* The second operand runs when the first does not decide.  */
  bool second = !ka || (sel ? a != 0 : n->op == TE_AND ? a != 0 : a == 0);
  w->unsure += !ka;
  if (ok && second)
    ok = xw_eval (w, n->args[1], &b, &kb);
  if (ok && sel && (!ka || !a))
    ok = xw_eval (w, n->args[2], &c, &kc);
  w->unsure -= !ka;
  if (sel)
    {
      *known = ka && (a ? kb : kc);
      *v = a ? b : c;
    }
  else if (second)
    {
      *known = ka && kb;
      *v = n->op == TE_AND ? a && b : a || b;
    }
  else
    {
      *known = ka;
      *v = n->op == TE_OR;
    }
  return ok;
}

/* Evaluate N (recording the accesses it makes) into *V; *KNOWN says
   whether the value is known.  False when the kernel is refused.  */
static bool
xw_eval (xw *w, const te_node *n, int64_t *v, bool *known)
{
  if (n->id < 0 || n->id >= w->nslots)
    return ck_refuse (w->ck, "node %d is not in the program (an internal error "
                   "of tensorgrad)", n->id);
  if (w->stamp[n->id] == w->tick)
    {
      *v = w->val[n->id];
      *known = w->known[n->id];
      return true;
    }
  if (++w->visits > CK_MAX_OPS)
    return ck_refuse (w->ck, "its forward evaluates more than %ld operations%s; "
                   "give smaller sizes with check-sizes=", CK_MAX_OPS,
                   w->ck->res->at);
  int64_t a = 0, b = 0;
  bool ka = true, ok = true;
  *v = 0;
  *known = false;
  switch (n->op)
    {
    case TE_CONST:
      *known = !te_type_is_float (n->type);
      *v = *known ? n->u.i : 0;
      break;
    case TE_PARAM:
      *known = !te_type_is_float (n->type);
      *v = *known ? w->ck->ints[n->u.index] : 0;
      break;
    case TE_VAR:
      *known = true;
      *v = w->var[n->u.index];
      break;
    case TE_LOAD:
      ok = xw_load (w, n, v, known);
      break;
    case TE_AND:
    case TE_OR:
    case TE_SELECT:
      ok = xw_cond (w, n, v, known);
      break;
    case TE_REDUCE:
      ok = (xw_eval (w, n->args[0], &a, &ka)
            && xw_loops (w, n->u.red.nloops, n->u.red.loops, 0,
                         xw_reduce_body, n));
      break;
    default:
      /* Every other operation: its operands, then xw_int_op, which names
         every case.  */
      for (int k = 0; ok && k < te_op_arity (n->op); k++)
        {
          bool kk;
          ok = xw_eval (w, n->args[k], k ? &b : &a, &kk);
          ka = ka && kk;
        }
      if (ok && ka && !te_type_is_float (n->type)
          && xw_int_op (w, n, a, b, v))
        {
          *v = xw_wrap (n->type, *v);
          *known = true;
        }
      ok = ok && !w->ck->res->why[0];
      break;
    }
  if (!ok)
    return false;
  w->stamp[n->id] = w->tick;
  w->val[n->id] = *v;
  w->known[n->id] = *known;
  return true;
}

/* Statement DATA at one point of its loops.  */
static bool
xw_stmt (xw *w, const void *data)
{
  const te_stmt *st = data;
  int64_t g = 1, i, v;
  bool kg = true, ki, kv;
  if (st->guard && !xw_eval (w, st->guard, &g, &kg))
    return false;
  if (kg && !g)
    return true;
  w->unsure += !kg;
  bool ok = (xw_eval (w, st->index, &i, &ki)
             && xw_access (w, st->dst, i, ki)
             && xw_eval (w, st->value, &v, &kv));
  w->unsure -= !kg;
  return ok;
}

/* Statement DATA over its own inner loops.  */
static bool
xw_stmt_nest (xw *w, const void *data)
{
  const te_stmt *st = data;
  return xw_loops (w, st->ninner, st->inner, 0, xw_stmt, st);
}

/* Largest node id and counter number of N.  */
static void
xw_count (te_node *n, void *data)
{
  int *m = data;
  if (n->id > m[0])
    m[0] = n->id;
  if (n->op == TE_VAR && n->u.index > m[1])
    m[1] = n->u.index;
  for (int i = 0; n->op == TE_REDUCE && i < n->u.red.nloops; i++)
    if (n->u.red.loops[i].var > m[1])
      m[1] = n->u.red.loops[i].var;
}

/* The largest node id of P into M[0], its largest counter number into
   M[1].  */
static void
count_nodes (const te_program *p, int *m)
{
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nloops; k++)
        {
          te_walk (st->loops[k].extent, xw_count, m);
          m[1] = m[1] > st->loops[k].var ? m[1] : st->loops[k].var;
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          const te_stmt *t = &st->stmts[k];
          for (int l = 0; l < t->ninner; l++)
            {
              te_walk (t->inner[l].extent, xw_count, m);
              m[1] = m[1] > t->inner[l].var ? m[1] : t->inner[l].var;
            }
          te_walk (t->index, xw_count, m);
          te_walk (t->value, xw_count, m);
          if (t->guard)
            te_walk (t->guard, xw_count, m);
        }
    }
}

/* Step 2: the number of elements of every pointer parameter, and the
   values of the index arrays.  */
bool
ck_find_extents (ck_state *ck)
{
  const te_program *p = ck->fwd;
  int m[2] = { 0, p->nvars };
  count_nodes (p, m);
  xw w;
  memset (&w, 0, sizeof w);
  w.ck = ck;
  w.nslots = m[0] + 1;
  w.stamp = calloc (w.nslots, sizeof (uint64_t));
  w.val = calloc (w.nslots, sizeof (int64_t));
  w.known = calloc (w.nslots, sizeof (bool));
  w.var = calloc (m[1] + 1, sizeof (int64_t));
  w.hi = calloc (p->nparams, sizeof (int64_t));
  w.tick = 1;
  bool ok = true;
  for (int s = 0; ok && s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; ok && k < st->nstmts; k++)
        ok = xw_loops (&w, st->nloops, st->loops, 0, xw_stmt_nest,
                       &st->stmts[k]);
    }
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      te_param_kind kind = p->params[q].kind;
      if (kind != TE_PK_PTR_FLOAT && kind != TE_PK_PTR_INT)
        continue;
      cp->n = w.hi[q] > 0 ? w.hi[q] : 1;
      if (kind == TE_PK_PTR_INT)
        {
          cp->idx = calloc (cp->n, sizeof (int64_t));
          for (int64_t e = 0; e < cp->n; e++)
            cp->idx[e] = ck_index_value (q, e);
        }
    }
  ck->ops = w.visits;
  free (w.stamp);
  free (w.val);
  free (w.known);
  free (w.var);
  free (w.hi);
  return ok;
}


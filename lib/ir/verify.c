/* verify.c -- the invariants every pass of the pipeline relies on.

   A pass may assume what this file checks, and must leave a program that
   passes it.  In a checking build (./configure --enable-checking, the
   default while tensorgrad is young) the pipeline runs the verifier on
   the lifted program and after every pass; a failure is an internal
   error that names the pass, never a silently wrong gradient.

       stage 0: for i < n                  stage 0: for i < n
         y[i] = x[i*i]         fails:        "index of a load of 'x' is
                                              not affine in the counters"

   1. Nodes, once each (memoized on the DAG by node id): every operand
      present and older than its user (so the DAG is acyclic), the types
      of operands and result consistent with the operation, parameters
      and counters numbered within the program, every loaded tensor
      listed in the program (a tensor a pass dropped is stale), every
      index integer and affine in the counters (quasi-affine: a division
      or remainder by a constant, a gather through an integer array, a
      select of affine pieces), every reduction with loops over distinct
      counters and an init of its own type.
   2. Tensors and parameters: kinds agree (a pointer parameter is a
      PARAM tensor of its element type, a by-value float a SCALAR one),
      a local array has an integer size, a static variable a constant
      size, its variable, its values if it is constant, no adjoint, and
      no statement writes it; in a forward program (which
      lib/passes/inline.c copies by tensor id) ids are distinct.
   3. Stages: no two share their statements or call (a stage copied by
      value and kept twice), at most TE_MAX_LOOPS distinct counters, integer extents
      that use only outer counters and parameters, statements whose
      counters (free in index, value and guard) the stage or the
      statement's inner loops bind, values of the destination's type,
      boolean guards; a reduction never rebinds a counter of its stage.
      A call stage has no loops and no statements.
   4. With roles decided: every parameter tensor has a role (unused is
      one: an array passed on to a kernel that never reads it), active
      parameters a shadow number in the gradient's list.
   5. A backward program of FWD (the gradient ABI, DESIGN.md section 2):
      the shadow of each active parameter listed, as the parameter of
      the gradient its shadow number says; it writes no tensor of the forward's parameters, never the shadow
      of an output (f_grad leaves an output's adjoint unchanged), and
      only adds (+=) to the shadow of an input.
   6. A load of a tensor the kernel tests against NULL (te_tensor.optional)
      runs only where its test holds (te_optional_unguarded): no pass may
      move it out from under its select or guard.

   Limits: the checks are structural; whether a pass preserved the
   kernel's meaning is the fuzzer's and the testsuite's business.  */

#include "ir/te.h"
#include "ir/verify.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct verifier
{
  const te_program *p;
  const te_program *fwd; /* P is its backward program, or NULL */
  te_diag *diag;
  int nids;              /* node ids are below this */
  int nwords;            /* 64-bit words of a counter set */
  unsigned char *seen;   /* node id -> checked */
  signed char *degree;   /* integer node id -> degree in the counters + 1,
                            0 not computed, -1 not affine */
  uint64_t **free_vars;  /* node id -> counters used freely, or NULL */
  uint64_t **red_vars;   /* node id -> counters bound by its reductions */
  const char *where;     /* what is being checked, for messages */
} verifier;

static bool
fail (verifier *v, te_loc loc, const char *fmt, const char *a,
      const char *b)
{
  char what[256];
  snprintf (what, sizeof what, fmt, a ? a : "", b ? b : "");
  if (v->diag && v->diag->kind == TE_DIAG_NONE)
    {
      te_diag_set (v->diag, TE_DIAG_INTERNAL, loc, "%s", what);
      snprintf (v->diag->where, sizeof v->diag->where, "%s", v->where);
    }
  return false;
}

/* Is pointer parameter Q of P that of an optional tensor?  */
static bool
optional_param (const te_program *p, int q)
{
  const te_tensor *t = te_param_tensor (p, q);
  return t && t->optional;
}

static bool
is_int (te_type t)
{
  return t == TE_I32 || t == TE_U32 || t == TE_I64;
}

static bool
listed (const te_program *p, const te_tensor *t)
{
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i] == t)
      return true;
  return false;
}

/* ---- counter sets --------------------------------------------------- */

static uint64_t *
new_set (verifier *v)
{
  uint64_t *s = calloc (v->nwords, sizeof *s);
  if (!s)
    abort ();
  return s;
}

static void
set_add (uint64_t *s, int var)
{
  s[var / 64] |= (uint64_t) 1 << (var % 64);
}

static bool
set_has (const uint64_t *s, int var)
{
  return (s[var / 64] >> (var % 64)) & 1;
}

static void
set_union (verifier *v, uint64_t *s, const uint64_t *t)
{
  for (int w = 0; w < v->nwords; w++)
    s[w] |= t[w];
}

static const uint64_t *free_vars (verifier *v, const te_node *n);

/* The counters N uses freely: not bound by a reduction inside N.  */
static const uint64_t *
free_vars (verifier *v, const te_node *n)
{
  if (v->free_vars[n->id])
    return v->free_vars[n->id];
  uint64_t *s = new_set (v);
  if (n->op == TE_VAR && n->u.index >= 0 && n->u.index < v->p->nvars)
    set_add (s, n->u.index);
  for (int k = 0; k < 3; k++)
    if (n->args[k])
      set_union (v, s, free_vars (v, n->args[k]));
  if (n->op == TE_REDUCE)
    {
      for (int k = 0; k < n->u.red.nloops; k++)
        if (n->u.red.loops[k].extent)
          set_union (v, s, free_vars (v, n->u.red.loops[k].extent));
      for (int k = 0; k < n->u.red.nloops; k++)
        {
          int var = n->u.red.loops[k].var;
          if (var >= 0 && var < v->p->nvars)
            s[var / 64] &= ~((uint64_t) 1 << (var % 64));
        }
    }
  v->free_vars[n->id] = s;
  return s;
}

/* The counters the reductions inside N bind.  */
static const uint64_t *
red_vars (verifier *v, const te_node *n)
{
  if (v->red_vars[n->id])
    return v->red_vars[n->id];
  uint64_t *s = new_set (v);
  for (int k = 0; k < 3; k++)
    if (n->args[k])
      set_union (v, s, red_vars (v, n->args[k]));
  if (n->op == TE_REDUCE)
    for (int k = 0; k < n->u.red.nloops; k++)
      {
        int var = n->u.red.loops[k].var;
        if (var >= 0 && var < v->p->nvars)
          set_add (s, var);
      }
  v->red_vars[n->id] = s;
  return s;
}

/* ---- affine indices ------------------------------------------------- */

/* The degree of integer N in the counters (0 or 1), or -1 when N is not
   (quasi-)affine in them.  */
static int
degree (verifier *v, const te_node *n)
{
  if (v->degree[n->id])
    return v->degree[n->id] - 1 + (v->degree[n->id] < 0);
  int d = -1, a, b;
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
      d = 0;
      break;
    case TE_VAR:
      d = 1;
      break;
    case TE_LOAD: /* a gather: an element of an integer array */
      d = 0;
      break;
    case TE_NEG:
    case TE_CAST:
      d = degree (v, n->args[0]);
      break;
    case TE_ADD:
    case TE_SUB:
    case TE_MIN:
    case TE_MAX:
      a = degree (v, n->args[0]);
      b = degree (v, n->args[1]);
      d = a < 0 || b < 0 ? -1 : a > b ? a : b;
      break;
    case TE_MUL:
      a = degree (v, n->args[0]);
      b = degree (v, n->args[1]);
      d = a < 0 || b < 0 || a + b > 1 ? -1 : a + b;
      break;
    case TE_DIV:
    case TE_MOD:
      /* Quasi-affine: by a constant or a parameter.  */
      a = degree (v, n->args[0]);
      b = degree (v, n->args[1]);
      d = a < 0 || b != 0 ? -1 : a;
      break;
    case TE_SELECT:
      /* Piecewise: clamped indices, a seed's first iteration.  */
      a = degree (v, n->args[1]);
      b = degree (v, n->args[2]);
      d = a < 0 || b < 0 ? -1 : a > b ? a : b;
      break;
    case TE_REDUCE: /* an integer reduction: a count */
      d = 0;
      break;
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    TE_CASE_MATH:
    case TE_NUM_OPS:
      d = -1;
      break;
    }
  v->degree[n->id] = d < 0 ? -1 : d + 1;
  return d;
}

/* ---- nodes ---------------------------------------------------------- */

static bool check_node (verifier *v, const te_node *n);

static bool
check_loops (verifier *v, int nloops, const te_loop *loops,
             const char *what)
{
  for (int k = 0; k < nloops; k++)
    {
      const te_loop *l = &loops[k];
      if (l->var < 0 || l->var >= v->p->nvars)
        return fail (v, 0, "%s has a loop over an unknown counter", what,
                     NULL);
      for (int j = 0; j < k; j++)
        if (loops[j].var == l->var)
          return fail (v, 0, "%s has two loops over counter '%s'", what,
                       v->p->var_names[l->var]);
      if (!l->extent)
        return fail (v, 0, "%s has a loop without an extent", what, NULL);
      if (!check_node (v, l->extent))
        return false;
      if (!is_int (l->extent->type))
        return fail (v, 0, "%s has a loop extent of type %s", what,
                     te_type_name (l->extent->type));
      if (l->start && !check_node (v, l->start))
        return false;
      if (l->start && !is_int (l->start->type))
        return fail (v, 0, "%s has a loop start of type %s", what,
                     te_type_name (l->start->type));
    }
  return true;
}

/* Operand K of N, of type TYPE (or any integer type when TYPE is
   TE_I64, any floating type of N's when it is N's).  */
static bool
operand_is (verifier *v, const te_node *n, int k, te_type type)
{
  te_type t = n->args[k]->type;
  bool ok = type == TE_I64 ? is_int (t) : t == type;
  if (!ok)
    {
      char what[64];
      snprintf (what, sizeof what, "operand %d", k);
      return fail (v, 0, "%s of '%s' has the wrong type", what,
                   te_op_name (n->op));
    }
  return true;
}

/* Check the types of N against its operation.  */
static bool
check_types (verifier *v, const te_node *n)
{
  const te_program *p = v->p;
  te_type t = n->type;
  switch (n->op)
    {
    case TE_CONST:
      return true;
    case TE_PARAM:
      {
        int q = n->u.index;
        if (q < 0 || q >= p->nparams)
          return fail (v, 0, "a parameter outside the program's list (%s)",
                       "", NULL);
        te_param_kind k = p->params[q].kind;
        bool ptr = k == TE_PK_PTR_FLOAT || k == TE_PK_PTR_INT;
        if (ptr != (t == TE_BOOL))
          return fail (v, 0, ptr ? "pointer parameter '%s' read as %s, "
                                   "not as its test against NULL"
                                 : "parameter '%s' read as %s",
                       p->params[q].name, te_type_name (t));
        if (ptr && !optional_param (p, q))
          return fail (v, 0, "pointer parameter '%s' tested against NULL "
                       "but not optional", p->params[q].name, NULL);
        if (k == TE_PK_FLOAT ? !te_type_is_float (t) : te_type_is_float (t))
          return fail (v, 0, "parameter '%s' read as %s",
                       p->params[q].name, te_type_name (t));
        return true;
      }
    case TE_VAR:
      if (n->u.index < 0 || n->u.index >= p->nvars)
        return fail (v, 0, "a counter outside the program's list", NULL,
                     NULL);
      return true;
    case TE_LOAD:
      if (!n->u.tensor)
        return fail (v, 0, "a load without a tensor", NULL, NULL);
      if (!listed (p, n->u.tensor))
        return fail (v, 0, "a load of '%s', which the program no longer "
                     "lists", n->u.tensor->name, NULL);
      if (t != n->u.tensor->type)
        return fail (v, 0, "a load of '%s' of type %s", n->u.tensor->name,
                     te_type_name (t));
      if (!is_int (n->args[0]->type))
        return fail (v, 0, "a load of '%s' at a non-integer index",
                     n->u.tensor->name, NULL);
      if (degree (v, n->args[0]) < 0)
        return fail (v, 0, "the index of a load of '%s' is not affine in "
                     "the counters", n->u.tensor->name, NULL);
      return true;
    case TE_NEG:
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_DIV:
    case TE_MIN:
    case TE_MAX:
      if (t == TE_BOOL)
        return fail (v, 0, "boolean '%s'", te_op_name (n->op), NULL);
      for (int k = 0; k < te_op_arity (n->op); k++)
        if (!operand_is (v, n, k, te_type_is_float (t) ? t : TE_I64))
          return false;
      return true;
    case TE_MOD:
      if (!is_int (t))
        return fail (v, 0, "'%%' of type %s", te_type_name (t), NULL);
      return operand_is (v, n, 0, TE_I64) && operand_is (v, n, 1, TE_I64);
    case TE_CAST:
      return true;
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
      if (t != TE_BOOL)
        return fail (v, 0, "comparison '%s' not boolean", te_op_name (n->op),
                     NULL);
      if (te_type_is_float (n->args[0]->type)
          ? n->args[1]->type != n->args[0]->type
          : te_type_is_float (n->args[1]->type))
        return fail (v, 0, "comparison '%s' of mixed types",
                     te_op_name (n->op), NULL);
      return true;
    case TE_AND:
    case TE_OR:
    case TE_NOT:
      if (t != TE_BOOL)
        return fail (v, 0, "'%s' not boolean", te_op_name (n->op), NULL);
      for (int k = 0; k < te_op_arity (n->op); k++)
        if (!operand_is (v, n, k, TE_BOOL))
          return false;
      return true;
    case TE_SELECT:
      return operand_is (v, n, 0, TE_BOOL) && operand_is (v, n, 1, t)
             && operand_is (v, n, 2, t);
    TE_CASE_MATH:
      if (!te_type_is_float (t))
        return fail (v, 0, "'%s' of type %s", te_op_name (n->op),
                     te_type_name (t));
      for (int k = 0; k < te_op_arity (n->op); k++)
        if (!operand_is (v, n, k, t))
          return false;
      return true;
    case TE_REDUCE:
      if (n->u.red.nloops < 1 || n->u.red.nloops > TE_MAX_LOOPS
          || !n->u.red.loops)
        return fail (v, 0, "a reduction without loops", NULL, NULL);
      if ((unsigned) n->u.red.kind > TE_RED_MIN)
        return fail (v, 0, "a reduction of unknown kind", NULL, NULL);
      if (!check_loops (v, n->u.red.nloops, n->u.red.loops, "a reduction"))
        return false;
      return operand_is (v, n, 0, t) && operand_is (v, n, 1, t);
    case TE_NUM_OPS:
      break;
    }
  return fail (v, 0, "a node of unknown operation", NULL, NULL);
}

static bool
check_node (verifier *v, const te_node *n)
{
  if (!n)
    return fail (v, 0, "a missing expression", NULL, NULL);
  if (n->id < 0 || n->id >= v->nids || (unsigned) n->op >= TE_NUM_OPS)
    return fail (v, 0, "a node that is not of this program's context",
                 NULL, NULL);
  if (v->seen[n->id])
    return true;
  int arity = te_op_arity (n->op);
  for (int k = 0; k < 3; k++)
    {
      if ((k < arity) != (n->args[k] != NULL))
        return fail (v, 0, "'%s' with a wrong number of operands",
                     te_op_name (n->op), NULL);
      if (k < arity && n->args[k]->id >= n->id)
        return fail (v, 0, "'%s' with an operand younger than itself",
                     te_op_name (n->op), NULL);
      if (k < arity && !check_node (v, n->args[k]))
        return false;
    }
  if (!check_types (v, n))
    return false;
  v->seen[n->id] = 1;
  return true;
}

/* ---- programs ------------------------------------------------------- */

static bool
check_tensors (verifier *v)
{
  const te_program *p = v->p;
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if (!t)
        return fail (v, 0, "a missing tensor", NULL, NULL);
      for (int j = 0; j < i; j++)
        if (p->tensors[j] == t)
          return fail (v, t->loc, "tensor '%s' listed twice", t->name, NULL);
        else if (p->tensors[j]->id == t->id && !v->fwd)
          return fail (v, t->loc, "tensors '%s' and '%s' share an id",
                       p->tensors[j]->name, t->name);
      if (!te_type_is_float (t->type) && !is_int (t->type))
        return fail (v, t->loc, "tensor '%s' of type %s", t->name,
                     te_type_name (t->type));
      switch (t->kind)
        {
        case TE_TK_PARAM:
        case TE_TK_SCALAR:
          {
            /* A backward program lists the forward's tensors too: their
               parameter numbers are the forward's, which come first.  */
            const te_program *owner = v->fwd && listed (v->fwd, t) ? v->fwd
                                                                    : p;
            if (t->param < 0 || t->param >= owner->nparams)
              return fail (v, t->loc, "tensor '%s' of no parameter",
                           t->name, NULL);
            const te_param *q = &owner->params[t->param];
            bool ok = t->kind == TE_TK_SCALAR
                          ? q->kind == TE_PK_FLOAT
                          : q->kind == TE_PK_PTR_FLOAT
                                || q->kind == TE_PK_PTR_INT;
            if (!ok || q->type != t->type)
              return fail (v, t->loc, "tensor '%s' does not match parameter "
                           "'%s'", t->name, q->name);
            break;
          }
        case TE_TK_LOCAL:
          if (!t->size)
            return fail (v, t->loc, "local array '%s' has no size", t->name,
                         NULL);
          if (!check_node (v, t->size))
            return false;
          if (!is_int (t->size->type))
            return fail (v, t->loc, "local array '%s' has a size of type %s",
                         t->name, te_type_name (t->size->type));
          break;
        case TE_TK_RETURN:
          if (!te_type_is_float (t->type))
            return fail (v, t->loc, "return value '%s' is not floating",
                         t->name, NULL);
          break;
        case TE_TK_STATIC:
          if (!t->size || t->size->op != TE_CONST || t->size->u.i < 1
              || !t->decl || (t->constant && !t->init))
            return fail (v, t->loc, "static variable '%s' without its size, "
                         "its variable or its values", t->name, NULL);
          if (t->shadow || t->accum || t->nullable)
            return fail (v, t->loc, "static variable '%s' has an adjoint",
                         t->name, NULL);
          break;
        default:
          return fail (v, t->loc, "tensor '%s' of unknown kind", t->name,
                       NULL);
        }
    }
  if (p->ret && !listed (p, p->ret))
    return fail (v, 0, "the return value '%s' is not listed", p->ret->name,
                 NULL);
  return true;
}

static bool
check_params (verifier *v, bool roles)
{
  const te_program *p = v->p;
  for (int i = 0; i < p->nparams; i++)
    {
      const te_param *q = &p->params[i];
      bool fl = te_type_is_float (q->type);
      if ((q->kind == TE_PK_FLOAT || q->kind == TE_PK_PTR_FLOAT) != fl)
        return fail (v, q->loc, "parameter '%s' of the wrong type", q->name,
                     NULL);
      if (q->tensor && !listed (p, q->tensor))
        return fail (v, q->loc, "the tensor of parameter '%s' is not listed",
                     q->name, NULL);
      if (q->tensor && q->tensor->param != i)
        return fail (v, q->loc, "the tensor of parameter '%s' is another's",
                     q->name, NULL);
      if (!roles || v->fwd)
        continue;
      if (q->tensor && (unsigned) q->tensor->role > TE_ROLE_TEMP)
        return fail (v, q->loc, "parameter '%s' has no role", q->name, NULL);
      bool active = q->kind == TE_PK_FLOAT || q->kind == TE_PK_PTR_FLOAT;
      if (active != (q->shadow >= 0))
        return fail (v, q->loc, "parameter '%s' %s a shadow", q->name,
                     active ? "lacks" : "has");
    }
  return true;
}

/* The forward parameter whose shadow is tensor T of the backward
   program, or NULL.  */
static const te_tensor *
shadow_of (const te_program *fwd, const te_tensor *t)
{
  for (int i = 0; i < fwd->ntensors; i++)
    if (fwd->tensors[i]->shadow == t)
      return fwd->tensors[i];
  return NULL;
}

/* The gradient ABI for a statement of a backward program writing DST.  */
static bool
check_abi (verifier *v, const te_stmt *st)
{
  const te_tensor *dst = st->dst;
  if (listed (v->fwd, dst) && dst->kind == TE_TK_PARAM)
    return fail (v, st->loc, "the gradient writes '%s', a parameter of the "
                 "kernel", dst->name, NULL);
  const te_tensor *of = shadow_of (v->fwd, dst);
  if (!of || of->kind == TE_TK_LOCAL)
    return true;
  if (of->role == TE_ROLE_OUTPUT)
    return fail (v, st->loc, "the gradient writes '%s', the adjoint of "
                 "output '%s'", dst->name, of->name);
  if ((of->role == TE_ROLE_INPUT || of->kind == TE_TK_SCALAR)
      && st->op != TE_ADD_TO)
    return fail (v, st->loc, "the gradient sets '%s', the adjoint of input "
                 "'%s', instead of adding to it", dst->name, of->name);
  return true;
}

static bool
check_stmt (verifier *v, const te_stage *s, const te_stmt *st)
{
  const te_program *p = v->p;
  if (!st->dst || !listed (p, st->dst))
    return fail (v, st->loc, "a statement writes %s%s", st->dst ? "'" : "",
                 st->dst ? st->dst->name : "a tensor the program does not "
                                           "list");
  if (st->dst->kind == TE_TK_SCALAR)
    return fail (v, st->loc, "a statement writes '%s', a parameter passed "
                 "by value", st->dst->name, NULL);
  if (st->dst->kind == TE_TK_STATIC)
    return fail (v, st->loc, "a statement writes '%s', a variable of static "
                 "storage", st->dst->name, NULL);
  if (st->op != TE_SET && st->op != TE_ADD_TO)
    return fail (v, st->loc, "a statement of unknown kind", NULL, NULL);
  if (st->ninner < 0 || (st->ninner && !st->inner)
      || s->nloops + st->ninner > 2 * TE_MAX_LOOPS)
    return fail (v, st->loc, "a statement with bad inner loops", NULL, NULL);
  if (!check_loops (v, st->ninner, st->inner, "a statement"))
    return false;
  if (!check_node (v, st->index) || !check_node (v, st->value)
      || (st->guard && !check_node (v, st->guard)))
    return false;
  if (!is_int (st->index->type))
    return fail (v, st->loc, "a store to '%s' at a non-integer index",
                 st->dst->name, NULL);
  if (degree (v, st->index) < 0)
    return fail (v, st->loc, "the index of a store to '%s' is not affine in "
                 "the counters", st->dst->name, NULL);
  if (te_type_is_float (st->dst->type) ? st->value->type != st->dst->type
                                        : !is_int (st->value->type))
    return fail (v, st->loc, "a value of type %s stored to '%s'",
                 te_type_name (st->value->type), st->dst->name);
  if (st->guard && st->guard->type != TE_BOOL)
    return fail (v, st->loc, "a guard of the store to '%s' is not boolean",
                 st->dst->name, NULL);

  /* Counters: bound by the stage or the inner loops, never rebound.  */
  uint64_t *bound = new_set (v);
  for (int k = 0; k < s->nloops; k++)
    set_add (bound, s->loops[k].var);
  for (int k = 0; k < st->ninner; k++)
    {
      if (set_has (bound, st->inner[k].var))
        {
          free (bound);
          return fail (v, st->loc, "an inner loop of the store to '%s' "
                       "rebinds a counter of its stage", st->dst->name,
                       NULL);
        }
      const uint64_t *fs = st->inner[k].start
                               ? free_vars (v, st->inner[k].start)
                               : NULL;
      for (int var = 0; fs && var < v->p->nvars; var++)
        if (set_has (fs, var) && !set_has (bound, var))
          {
            free (bound);
            return fail (v, st->loc, "an inner loop of the store to '%s' "
                         "starts at a counter no outer loop binds",
                         st->dst->name, NULL);
          }
      set_add (bound, st->inner[k].var);
    }
  const te_node *parts[3] = { st->index, st->value, st->guard };
  bool ok = true;
  for (int k = 0; k < 3 && ok; k++)
    {
      if (!parts[k])
        continue;
      const uint64_t *fv = free_vars (v, parts[k]);
      const uint64_t *rv = red_vars (v, parts[k]);
      for (int var = 0; var < p->nvars && ok; var++)
        {
          const char *name = p->var_names[var] ? p->var_names[var] : "?";
          if (set_has (fv, var) && !set_has (bound, var))
            ok = fail (v, st->loc, "the store to '%s' uses counter '%s', "
                       "which no loop of its stage binds",
                       st->dst->name, name);
          else if (set_has (rv, var) && set_has (bound, var))
            ok = fail (v, st->loc, "a reduction in the store to '%s' rebinds "
                       "counter '%s' of its stage", st->dst->name, name);
        }
    }
  free (bound);
  if (ok && v->fwd)
    ok = check_abi (v, st);
  return ok;
}

static bool
check_call (verifier *v, const te_stage *s)
{
  const te_call *c = s->call;
  if (s->nloops || s->nstmts)
    return fail (v, s->loc, "call stage of '%s' with loops or statements",
                 c->name, NULL);
  if (c->nargs < 0 || (c->nargs && !c->args))
    return fail (v, s->loc, "call of '%s' with bad arguments", c->name, NULL);
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->value && !check_node (v, a->value))
        return false;
      if (a->offset && !check_node (v, a->offset))
        return false;
      if ((a->tensor && !listed (v->p, a->tensor))
          || (a->adj && !listed (v->p, a->adj)))
        return fail (v, s->loc, "call of '%s' passes an array the program "
                     "does not list", c->name, NULL);
      if ((a->kind == TE_PK_PTR_FLOAT || a->kind == TE_PK_PTR_INT)
          && !a->tensor)
        return fail (v, s->loc, "call of '%s' passes no array for a pointer",
                     c->name, NULL);
    }
  if (c->ret && !listed (v->p, c->ret))
    return fail (v, s->loc, "call of '%s' returns into an unlisted array",
                 c->name, NULL);
  return true;
}

/* Stages refer to one another only by number; a stage copied by value
   and kept beside its original would share their statements or call, and
   a change to one would change the other.  */
static bool
check_no_sharing (verifier *v)
{
  const te_program *p = v->p;
  for (int i = 0; i < p->nstages; i++)
    for (int j = 0; j < i; j++)
      {
        const te_stage *a = &p->stages[i], *b = &p->stages[j];
        if ((a->nstmts && a->stmts == b->stmts)
            || (a->call && a->call == b->call))
          {
            char what[64];
            snprintf (what, sizeof what, "%d and %d", j, i);
            return fail (v, a->loc, "stages %s share their %s", what,
                         a->call ? "call" : "statements");
          }
      }
  return true;
}

/* The shadows of backward program P's forward: each active parameter's
   tensor has its shadow listed in P, as the parameter its number says.  */
static bool
check_shadows (verifier *v)
{
  const te_program *fwd = v->fwd;
  for (int i = 0; i < fwd->nparams; i++)
    {
      const te_param *q = &fwd->params[i];
      const te_tensor *t = q->tensor;
      if (!t || !t->shadow || q->shadow < 0)
        continue;
      if (!listed (v->p, t->shadow))
        return fail (v, q->loc, "the shadow of '%s' is not listed", q->name,
                     NULL);
      if (q->shadow >= v->p->nparams || t->shadow->param != q->shadow)
        return fail (v, q->loc, "the shadow of '%s' is not the gradient's "
                     "parameter its number says", q->name, NULL);
    }
  return true;
}

/* 6. Every load of an optional tensor runs only where its test holds;
   only the shadow of an optional input has a primal.  */
static bool
check_optional (verifier *v)
{
  te_loc loc = 0;
  const te_tensor *t = te_optional_unguarded (v->p, &loc);
  if (t)
    return fail (v, loc, "a load of '%s', which may be NULL, where its "
                 "test against NULL may not hold", t->name, NULL);
  for (int i = 0; i < v->p->ntensors; i++)
    {
      const te_tensor *s = v->p->tensors[i];
      if (s->primal && (!s->primal->optional || s->primal->shadow != s))
        return fail (v, 0, "'%s' is no shadow of optional '%s'", s->name,
                     s->primal->name);
    }
  return true;
}

/* Stage I of a group (te_stage.group): the group's stages are
   consecutive, run forwards on one thread, and share their first loop,
   which starts at 0 and runs in no lanes.  */
static bool
check_group (verifier *v, int i)
{
  const te_program *p = v->p;
  const te_stage *s = &p->stages[i];
  if (s->reversed || s->recurrent || s->par || s->nloops < 1
      || s->loops[0].start || s->loops[0].lanes > 1)
    return fail (v, s->loc, "a stage of a group cannot run inside the "
                 "group's loop", NULL, NULL);
  for (int j = 0; j < i; j++)
    if (p->stages[j].group == s->group
        && (p->stages[i - 1].group != s->group
            || p->stages[j].loops[0].var != s->loops[0].var
            || p->stages[j].loops[0].extent != s->loops[0].extent))
      return fail (v, s->loc, "the stages of a group are apart or loop "
                   "over different counters", NULL, NULL);
  return true;
}

static bool
check_stages (verifier *v)
{
  const te_program *p = v->p;
  if (!check_no_sharing (v) || (v->fwd && !check_shadows (v)))
    return false;
  for (int i = 0; i < p->nstages; i++)
    {
      const te_stage *s = &p->stages[i];
      if (s->nloops < 0 || s->nloops > TE_MAX_LOOPS || s->nstmts < 0
          || (s->nstmts && !s->stmts))
        return fail (v, s->loc, "a malformed stage", NULL, NULL);
      if (s->call)
        {
          if (!check_call (v, s))
            return false;
          continue;
        }
      if (!check_loops (v, s->nloops, s->loops, "a stage"))
        return false;
      if (s->group && !check_group (v, i))
        return false;
      for (int k = 0; k < s->nloops; k++)
        {
          const uint64_t *fv = free_vars (v, s->loops[k].extent);
          const uint64_t *fs = s->loops[k].start
                                   ? free_vars (v, s->loops[k].start)
                                   : NULL;
          for (int var = 0; var < p->nvars; var++)
            {
              if (!set_has (fv, var) && !(fs && set_has (fs, var)))
                continue;
              bool outer = false;
              for (int j = 0; j < k; j++)
                outer |= s->loops[j].var == var;
              if (!outer)
                return fail (v, s->loc, "a loop extent uses counter '%s', "
                             "which no outer loop binds",
                             p->var_names[var] ? p->var_names[var] : "?",
                             NULL);
            }
        }
      for (int k = 0; k < s->nstmts; k++)
        if (!check_stmt (v, s, &s->stmts[k]))
          return false;
    }
  return true;
}

bool
te_program_verify (const te_program *p, const te_program *fwd, bool roles,
                   const char *what, te_diag *diag)
{
  verifier v;
  memset (&v, 0, sizeof v);
  v.p = p;
  v.fwd = fwd;
  v.diag = diag;
  v.where = what ? what : "";
  v.nids = te_ctx_ids (p->ctx);
  v.nwords = p->nvars / 64 + 1;
  v.seen = calloc (v.nids + 1, 1);
  v.degree = calloc (v.nids + 1, 1);
  v.free_vars = calloc (v.nids + 1, sizeof *v.free_vars);
  v.red_vars = calloc (v.nids + 1, sizeof *v.red_vars);
  if (!v.seen || !v.degree || !v.free_vars || !v.red_vars)
    abort ();
  bool ok = check_params (&v, roles) && check_tensors (&v)
            && check_stages (&v) && check_optional (&v);
  for (int i = 0; i < v.nids; i++)
    {
      free (v.free_vars[i]);
      free (v.red_vars[i]);
    }
  free (v.seen);
  free (v.degree);
  free (v.free_vars);
  free (v.red_vars);
  return ok;
}

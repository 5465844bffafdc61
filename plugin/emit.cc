/* emit.cc -- from a backward TE program to the body of <name>_grad.

   Before:  stage 0: for i < n:  d_x[i] += d_y[i] * (1 - tanh (x[i])^2);
   After (GENERIC, then GIMPLE through gimplify_function_tree):
       if (d_x != 0 && d_y != 0)
         { i = 0; loop { if (i >= n) break;
                         d_x[i] = d_x[i] + d_y[i] * (1 - tanh (x[i]) ...);
                         i = i + 1; } }

   1. Give the function its PARM_DECLs: the kernel's, then the shadows
      (pointers become restrict pointers to the element type: a VLA
      parameter is indexed flat, as the TE program does).
   2. Emit every statement of every stage as its own loop nest (a loop
      distribution that is valid because the iterations of a backward
      stage touch disjoint elements of what they overwrite), guarded by
      the non-NULL tests of the shadows it touches.
   3. Translate expressions node by node; math functions become calls of
      GCC's builtin declarations, so GCC folds and vectorizes them.
   4. Gimplify, and hand the function to the call graph, which runs the
      whole optimization pipeline on it at the user's -O level.  It is
      handed over when the early passes' walk of the call graph ends
      (emit_hand_over), not at once: a file that takes the gradient's
      address in an initializer (an operator table) made its cgraph node
      before the walk began, so the walk would still visit it, now a
      definition, and run the early passes on a body without a CFG.  */

#include "emit.h"

#include <string.h>

/* Gradients with a body, not yet handed to the call graph: a TREE_LIST
   of their declarations, newest first.  */
static tree pending;

const struct ggc_root_tab emit_gc_roots[] = {
  { &pending, 1, sizeof (pending), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

struct emitter
{
  tree fndecl;
  const te_program *p;
  vec<tree> parms;   /* by parameter number */
  vec<const te_tensor *> local_tensors; /* temporaries ... */
  vec<tree> local_ptrs;                 /* ... and their pointers */
  vec<tree> vars;    /* loop counter decls by var number */
  const te_tensor *cond_loads[32]; /* nullable tensors read as 0 if NULL */
  int ncond;
  /* Shared subexpressions (see bind_scope): the local holding each
     bound node, by node id (NULL_TREE: not bound), and the ids bound so
     far in binding order, so that a scope unbinds its own on exit.  */
  tree *memo;
  int nmemo;
  vec<int> bound_ids;
  /* Scratch of bind_scope's walks, by node id: visit marks, and use
     counts valid where CNT_EPOCH is the current epoch.  */
  unsigned *vis_epoch, *unc_epoch, *cnt_epoch;
  int *uses;
  unsigned epoch;
  tree locals;       /* chain of VAR_DECLs for the BIND_EXPR */
  location_t loc;
  bool failed;
};

static tree
te_tree_type (te_type t)
{
  switch (t)
    {
    case TE_BOOL:
      return boolean_type_node;
    case TE_I32:
      return integer_type_node;
    case TE_U32:
      return unsigned_type_node;
    case TE_I64:
      return long_integer_type_node;
    case TE_F32:
      return float_type_node;
    case TE_F64:
      return double_type_node;
    }
  return NULL_TREE;
}

static tree
new_local (emitter *e, tree type, const char *name)
{
  tree v = build_decl (e->loc, VAR_DECL, name ? get_identifier (name) : NULL,
                       type);
  DECL_CONTEXT (v) = e->fndecl;
  DECL_ARTIFICIAL (v) = 1;
  DECL_IGNORED_P (v) = 1;
  TREE_USED (v) = 1;
  DECL_CHAIN (v) = e->locals;
  e->locals = v;
  return v;
}

static tree
loop_var_decl (emitter *e, int var)
{
  if (!e->vars[var])
    {
      const char *name = e->p->var_names[var];
      e->vars[var] = new_local (e, long_integer_type_node, name);
    }
  return e->vars[var];
}

/* Builtin for math operation OP in TYPE (float or double).  */
static tree
math_decl (te_op op, te_type type)
{
  bool f = type == TE_F32;
  enum built_in_function code;
  switch (op)
    {
#define M(OP, B)                                                            \
  case TE_##OP:                                                             \
    code = f ? BUILT_IN_##B##F : BUILT_IN_##B;                              \
    break;
      M (EXP, EXP) M (EXP2, EXP2) M (EXPM1, EXPM1) M (LOG, LOG) M (LOG2, LOG2)
      M (LOG10, LOG10) M (LOG1P, LOG1P) M (SQRT, SQRT) M (CBRT, CBRT)
      M (SIN, SIN) M (COS, COS) M (TAN, TAN) M (ASIN, ASIN) M (ACOS, ACOS)
      M (ATAN, ATAN) M (SINH, SINH) M (COSH, COSH) M (TANH, TANH) M (ERF, ERF)
      M (ERFC, ERFC) M (FABS, FABS) M (FLOOR, FLOOR) M (CEIL, CEIL)
      M (TRUNC, TRUNC) M (ROUND, ROUND) M (POW, POW) M (ATAN2, ATAN2)
      M (HYPOT, HYPOT) M (FMAX, FMAX) M (FMIN, FMIN)
#undef M
    default:
      return NULL_TREE;
    }
  return builtin_decl_explicit (code);
}

static tree expr (emitter *e, const te_node *n);
static tree scoped (emitter *e, const te_node *n);
static bool worth_binding (const te_node *n);
static void bind_scope (emitter *e, const te_node *const *roots, int nroots,
                        bool fused, tree *list);
static void unbind (emitter *e, unsigned mark);

/* PTR != 0.  */
static tree
nonnull (tree ptr)
{
  return build2 (NE_EXPR, boolean_type_node, ptr,
                 build_zero_cst (TREE_TYPE (ptr)));
}
static tree reduction (emitter *e, const te_node *n);
static tree loop_nest (emitter *e, int nloops, const te_loop *loops,
                       bool reversed, tree body);

/* The pointer to the elements of tensor T.  */
static tree
tensor_base (emitter *e, const te_tensor *t)
{
  if (t->kind == TE_TK_PARAM)
    return e->parms[t->param];
  for (unsigned i = 0; i < e->local_tensors.length (); i++)
    if (e->local_tensors[i] == t)
      return e->local_ptrs[i];
  return NULL_TREE;
}

/* Address of element INDEX of tensor T, or NULL (reported) when T has
   no storage.  */
static tree
element_address (emitter *e, const te_tensor *t, const te_node *index)
{
  tree elem = te_tree_type (t->type);
  tree base = tensor_base (e, t);
  if (!base)
    {
      if (!e->failed)
        error_at (e->loc, "tensorgrad: internal error: tensor %qs has no "
                          "storage",
                  t->name);
      e->failed = true;
      return NULL_TREE;
    }
  tree ptr = fold_convert (build_pointer_type (elem), base);
  tree off = fold_build2 (MULT_EXPR, sizetype,
                          fold_convert (sizetype, expr (e, index)),
                          TYPE_SIZE_UNIT (elem));
  return fold_build_pointer_plus (ptr, off);
}

/* Element INDEX of tensor T.  */
static tree
element (emitter *e, const te_tensor *t, const te_node *index)
{
  tree addr = element_address (e, t, index);
  return addr ? build_fold_indirect_ref (addr)
              : build_zero_cst (te_tree_type (t->type));
}

static tree
binary (emitter *e, const te_node *n, enum tree_code code)
{
  return fold_build2 (code, te_tree_type (n->type), expr (e, n->args[0]),
                      expr (e, n->args[1]));
}

/* min/max with ties going to the first operand, NaN-safe as written.  */
static tree
choose (emitter *e, const te_node *n, enum tree_code cmp)
{
  tree a = expr (e, n->args[0]), b = expr (e, n->args[1]);
  if (!te_type_is_float (n->type))
    return fold_build2 (cmp == LE_EXPR ? MIN_EXPR : MAX_EXPR,
                        te_tree_type (n->type), a, b);
  a = save_expr (a);
  b = save_expr (b);
  return fold_build3 (COND_EXPR, te_tree_type (n->type),
                      fold_build2 (cmp, boolean_type_node, a, b), a, b);
}

/* ---- shared subexpressions: each distinct node once -------------------

   The TE value is a DAG; a tree built for every use of a node would be
   as large as the expression it stands for, exponentially larger than
   the DAG (and gimplify_function_tree unshares what is shared).  So a
   node used more than once is computed once into a local and read from
   it.  Where the value is computed matters: a select's arm may hold a
   load that is out of bounds where its condition is false (a padded
   convolution), a reduction's terms use its counters, a guard protects
   its statement.  A scope is such a region: the statement behind its
   guard, a select's arm, a reduction's terms.  bind_scope computes, at
   the start of the scope, the nodes of its roots that it evaluates
   unconditionally (not through an arm or a reduction's terms) and that
   are used more than once anywhere below; nested scopes read those
   locals and bind their own.  A node that only the arms of one select
   share is computed in each arm.  */

/* Nodes are leaves or bound: nothing to compute.  */
static bool
cheap_leaf (emitter *e, const te_node *n)
{
  if (!n || n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return true;
  return n->id < e->nmemo && e->memo[n->id];
}

/* Should node N, used more than once in a scope, get a local?  FUSED: a
   fused stage's policy (worth_binding).  A load, conversion, negation
   or boolean over leaves or locals is as cheap to repeat as to read.  */
static bool
bind_p (emitter *e, const te_node *n, bool fused)
{
  if (fused)
    return worth_binding (n);
  if (n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return false;
  if (n->op == TE_LOAD || n->op == TE_CAST || n->op == TE_NEG
      || n->type == TE_BOOL)
    {
      for (int k = 0; k < 3; k++)
        if (!cheap_leaf (e, n->args[k]))
          return true;
      return false;
    }
  return true;
}

/* The operands of N a scope's use count follows: every one, or for a
   fused stage (bind_shared's rule since it was written) not the arms of
   a select nor a reduction's.  */
static int
counted_args (const te_node *n, bool fused)
{
  if (!fused)
    return te_op_arity (n->op);
  if (n->op == TE_REDUCE)
    return 0;
  return n->op == TE_SELECT ? 1 : te_op_arity (n->op);
}

/* Is operand K of N evaluated whenever N is?  */
static bool
unconditional_arg (const te_node *n, int k)
{
  if (n->op == TE_SELECT)
    return k == 0;
  if (n->op == TE_REDUCE)
    return k == 0;
  return true;
}

/* Bind, appending their computation to *LIST, the nodes NROOTS ROOTS
   evaluate unconditionally and use more than once (see above), operands
   first.  One walk of the distinct nodes below the roots that are not
   bound already.  */
static void
bind_scope (emitter *e, const te_node *const *roots, int nroots, bool fused,
            tree *list)
{
  if (!e->memo)
    return;
  unsigned ep = ++e->epoch;
  auto_vec<const te_node *> order;
  auto_vec<const te_node *> stack;
  auto_vec<int> next;
  /* Post-order over every operand, with use counts.  */
  for (int r = 0; r < nroots; r++)
    {
      const te_node *root = roots[r];
      if (cheap_leaf (e, root) || root->id >= e->nmemo)
        continue;
      if (e->cnt_epoch[root->id] != ep)
        {
          e->cnt_epoch[root->id] = ep;
          e->uses[root->id] = 0;
        }
      e->uses[root->id]++;
      if (e->vis_epoch[root->id] == ep)
        continue;
      e->vis_epoch[root->id] = ep;
      stack.safe_push (root);
      next.safe_push (0);
      while (!stack.is_empty ())
        {
          const te_node *n = stack.last ();
          int k = next.last ();
          if (k >= te_op_arity (n->op))
            {
              order.safe_push (n);
              stack.pop ();
              next.pop ();
              continue;
            }
          next.last () = k + 1;
          const te_node *a = n->args[k];
          if (cheap_leaf (e, a) || a->id >= e->nmemo)
            continue;
          if (k < counted_args (n, fused))
            {
              if (e->cnt_epoch[a->id] != ep)
                {
                  e->cnt_epoch[a->id] = ep;
                  e->uses[a->id] = 0;
                }
              e->uses[a->id]++;
            }
          if (e->vis_epoch[a->id] == ep)
            continue;
          e->vis_epoch[a->id] = ep;
          stack.safe_push (a);
          next.safe_push (0);
        }
    }
  te_walk_count (e->p->ctx, TE_WALK_EMIT, order.length ());
  /* What the scope evaluates unconditionally.  */
  for (int r = 0; r < nroots; r++)
    if (!cheap_leaf (e, roots[r]) && roots[r]->id < e->nmemo
        && e->unc_epoch[roots[r]->id] != ep)
      {
        e->unc_epoch[roots[r]->id] = ep;
        stack.safe_push (roots[r]);
      }
  while (!stack.is_empty ())
    {
      const te_node *n = stack.pop ();
      for (int k = 0; k < te_op_arity (n->op); k++)
        {
          const te_node *a = n->args[k];
          if (!unconditional_arg (n, k) || cheap_leaf (e, a)
              || a->id >= e->nmemo || e->unc_epoch[a->id] == ep)
            continue;
          e->unc_epoch[a->id] = ep;
          stack.safe_push (a);
        }
    }
  /* Which to bind, decided before any is emitted: emitting one may open
     a nested scope, which reuses the marks.  */
  auto_vec<const te_node *> chosen;
  for (unsigned i = 0; i < order.length (); i++)
    {
      const te_node *n = order[i];
      if (e->unc_epoch[n->id] == ep && e->cnt_epoch[n->id] == ep
          && e->uses[n->id] >= 2)
        chosen.safe_push (n);
    }
  for (unsigned i = 0; i < chosen.length (); i++)
    {
      const te_node *n = chosen[i];
      if (!bind_p (e, n, fused))
        continue;
      tree v = new_local (e, te_tree_type (n->type), NULL);
      tree x = expr (e, n);
      append_to_statement_list (build2 (MODIFY_EXPR, TREE_TYPE (v), v, x),
                                list);
      e->memo[n->id] = v;
      e->bound_ids.safe_push (n->id);
    }
}

/* Forget the locals bound since MARK (the length of bound_ids then).  */
static void
unbind (emitter *e, unsigned mark)
{
  while (e->bound_ids.length () > mark)
    e->memo[e->bound_ids.pop ()] = NULL_TREE;
}

/* N evaluated in a scope of its own (a select's arm): its shared
   subexpressions first, then its value.  */
static tree
scoped (emitter *e, const te_node *n)
{
  if (cheap_leaf (e, n) || !e->memo)
    return expr (e, n);
  unsigned mark = e->bound_ids.length ();
  tree stmts = alloc_stmt_list ();
  bind_scope (e, &n, 1, false, &stmts);
  tree v = expr (e, n);
  unbind (e, mark);
  if (!tsi_end_p (tsi_start (stmts)))
    v = build2 (COMPOUND_EXPR, TREE_TYPE (v), stmts, v);
  return v;
}

static tree
expr (emitter *e, const te_node *n)
{
  tree type = te_tree_type (n->type);
  if (n->id < e->nmemo && e->memo[n->id])
    return e->memo[n->id];
  if (e->p)
    te_walk_count (e->p->ctx, TE_WALK_EMIT, 1);
  switch (n->op)
    {
    case TE_CONST:
      if (te_type_is_float (n->type))
        {
          char buf[64];
          REAL_VALUE_TYPE r;
          snprintf (buf, sizeof buf, "%a", n->u.f);
          real_from_string (&r, buf);
          return build_real_truncate (type, r);
        }
      return build_int_cst (type, n->u.i);
    case TE_PARAM:
      return fold_convert (type, e->parms[n->u.index]);
    case TE_VAR:
      return loop_var_decl (e, n->u.index);
    case TE_LOAD:
      if (n->u.tensor->kind == TE_TK_SCALAR)
        return e->parms[n->u.tensor->param];
      for (int i = 0; i < e->ncond; i++)
        if (e->cond_loads[i] == n->u.tensor)
          {
            return fold_build3 (COND_EXPR, type,
                                nonnull (e->parms[n->u.tensor->param]),
                                element (e, n->u.tensor, n->args[0]),
                                build_zero_cst (type));
          }
      return element (e, n->u.tensor, n->args[0]);
    case TE_NEG:
      return fold_build1 (NEGATE_EXPR, type, expr (e, n->args[0]));
    case TE_ADD:
      return binary (e, n, PLUS_EXPR);
    case TE_SUB:
      return binary (e, n, MINUS_EXPR);
    case TE_MUL:
      return binary (e, n, MULT_EXPR);
    case TE_DIV:
      return binary (e, n, te_type_is_float (n->type) ? RDIV_EXPR
                                                     : TRUNC_DIV_EXPR);
    case TE_MOD:
      return binary (e, n, TRUNC_MOD_EXPR);
    case TE_MIN:
      return choose (e, n, LE_EXPR);
    case TE_MAX:
      return choose (e, n, GE_EXPR);
    case TE_CAST:
      return fold_convert (type, expr (e, n->args[0]));
    case TE_LT:
      return binary (e, n, LT_EXPR);
    case TE_LE:
      return binary (e, n, LE_EXPR);
    case TE_GT:
      return binary (e, n, GT_EXPR);
    case TE_GE:
      return binary (e, n, GE_EXPR);
    case TE_EQ:
      return binary (e, n, EQ_EXPR);
    case TE_NE:
      return binary (e, n, NE_EXPR);
    case TE_AND:
      return binary (e, n, TRUTH_AND_EXPR);
    case TE_OR:
      return binary (e, n, TRUTH_OR_EXPR);
    case TE_NOT:
      return fold_build1 (TRUTH_NOT_EXPR, type, expr (e, n->args[0]));
    case TE_SELECT:
      {
        tree c = expr (e, n->args[0]);
        return fold_build3 (COND_EXPR, type, c, scoped (e, n->args[1]),
                            scoped (e, n->args[2]));
      }
    TE_CASE_MATH:
      {
        tree fn = math_decl (n->op, n->type);
        if (!fn)
          break;
        if (te_op_arity (n->op) == 1)
          return build_call_expr (fn, 1, expr (e, n->args[0]));
        return build_call_expr (fn, 2, expr (e, n->args[0]),
                                expr (e, n->args[1]));
      }
    case TE_REDUCE:
      return reduction (e, n);
    case TE_NUM_OPS:
      break;
    }
  if (!e->failed)
    error_at (e->loc, "tensorgrad: internal error: cannot emit operation "
                      "%qs",
              te_op_name (n->op));
  e->failed = true;
  return build_zero_cst (type ? type : integer_type_node);
}

/* A reduction as an expression: acc = init; loops { acc = acc op body };
   then acc.  Max and min keep the earlier value on ties.  */
static tree
reduction (emitter *e, const te_node *n)
{
  tree type = te_tree_type (n->type);
  tree acc = new_local (e, type, NULL);
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (build2 (MODIFY_EXPR, type, acc,
                                    fold_convert (type, expr (e, n->args[0]))),
                            &stmts);
  tree t = new_local (e, type, NULL);
  tree body = alloc_stmt_list ();
  /* The terms' shared subexpressions, once per iteration.  */
  unsigned mark = e->bound_ids.length ();
  bind_scope (e, &n->args[1], 1, false, &body);
  append_to_statement_list (build2 (MODIFY_EXPR, type, t,
                                    fold_convert (type, expr (e, n->args[1]))),
                            &body);
  unbind (e, mark);
  tree update;
  switch (n->u.red.kind)
    {
    case TE_RED_SUM:
      update = build2 (PLUS_EXPR, type, acc, t);
      break;
    case TE_RED_PROD:
      update = build2 (MULT_EXPR, type, acc, t);
      break;
    case TE_RED_MAX:
    case TE_RED_MIN:
      update = build3 (COND_EXPR, type,
                       build2 (n->u.red.kind == TE_RED_MAX ? GT_EXPR : LT_EXPR,
                               boolean_type_node, t, acc),
                       t, acc);
      break;
    default:
      gcc_unreachable ();
    }
  append_to_statement_list (build2 (MODIFY_EXPR, type, acc, update), &body);
  append_to_statement_list (loop_nest (e, n->u.red.nloops, n->u.red.loops,
                                       false, body),
                            &stmts);
  return build2 (COMPOUND_EXPR, type, stmts, acc);
}

/* Collect the nullable tensors an expression reads.  */
struct nullable_set
{
  const te_tensor *items[32];
  int n;
};

static void
collect_nullable_tensor (nullable_set *s, const te_tensor *t)
{
  for (int i = 0; i < s->n; i++)
    if (s->items[i] == t)
      return;
  if (s->n < 32)
    s->items[s->n++] = t;
}

/* Every shadow of S is there: their non-NULL tests, or NULL if none.  */
static tree
all_nonnull (emitter *e, const nullable_set *s)
{
  tree cond = NULL_TREE;
  for (int i = 0; i < s->n; i++)
    {
      tree c = nonnull (e->parms[s->items[i]->param]);
      cond = cond ? build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond, c) : c;
    }
  return cond;
}

static void
collect_nullable (te_node *n, void *data)
{
  if (n->op == TE_LOAD && n->u.tensor->nullable)
    collect_nullable_tensor ((nullable_set *) data, n->u.tensor);
}


/* The statement ST itself: dst[index] (+)= value, under its guard.  */
static tree
store (emitter *e, const te_stmt *st)
{
  unsigned mark = e->bound_ids.length ();
  tree outer = alloc_stmt_list ();
  tree cond = NULL_TREE;
  if (st->guard)
    {
      /* The guard's shared subexpressions before the test, the value's
         behind it: the guard may protect the value's loads.  */
      bind_scope (e, &st->guard, 1, false, &outer);
      cond = expr (e, st->guard);
    }
  tree inner = alloc_stmt_list ();
  const te_node *roots[2] = { st->value, st->index };
  bind_scope (e, roots, 2, false, &inner);
  tree lhs = element (e, st->dst, st->index);
  tree rhs = expr (e, st->value);
  rhs = fold_convert (TREE_TYPE (lhs), rhs);
  if (st->op == TE_ADD_TO)
    rhs = fold_build2 (PLUS_EXPR, TREE_TYPE (lhs),
                       element (e, st->dst, st->index), rhs);
  tree s = build2 (MODIFY_EXPR, TREE_TYPE (lhs), lhs, rhs);
  SET_EXPR_LOCATION (s, e->loc);
  append_to_statement_list (s, &inner);
  unbind (e, mark);
  if (cond)
    inner = build3 (COND_EXPR, void_type_node, cond, inner, NULL_TREE);
  append_to_statement_list (inner, &outer);
  return outer;
}

/* Wrap BODY in NLOOPS LOOPS, outermost first.  */
static tree
loop_nest (emitter *e, int nloops, const te_loop *loops, bool reversed,
           tree body)
{
  if (nloops == 0)
    return body;
  tree inner = loop_nest (e, nloops - 1, loops + 1, reversed, body);
  tree var = loop_var_decl (e, loops[0].var);
  tree ext = new_local (e, long_integer_type_node, NULL);
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, long_integer_type_node, ext,
              fold_convert (long_integer_type_node,
                            expr (e, loops[0].extent))),
      &stmts);
  tree first = reversed ? fold_build2 (MINUS_EXPR, long_integer_type_node,
                                       ext, build_int_cst (long_integer_type_node, 1))
                        : build_int_cst (long_integer_type_node, 0);
  append_to_statement_list (
      build2 (MODIFY_EXPR, long_integer_type_node, var, first), &stmts);
  tree lbody = alloc_stmt_list ();
  tree done = reversed
                  ? build2 (LT_EXPR, boolean_type_node, var,
                            build_int_cst (long_integer_type_node, 0))
                  : build2 (GE_EXPR, boolean_type_node, var, ext);
  append_to_statement_list (build1 (EXIT_EXPR, void_type_node, done), &lbody);
  append_to_statement_list (inner, &lbody);
  append_to_statement_list (
      build2 (MODIFY_EXPR, long_integer_type_node, var,
              build2 (reversed ? MINUS_EXPR : PLUS_EXPR,
                      long_integer_type_node, var,
                      build_int_cst (long_integer_type_node, 1))),
      &lbody);
  append_to_statement_list (build1 (LOOP_EXPR, void_type_node, lbody),
                            &stmts);
  return stmts;
}

/* The location of the code for a statement or call at LOC: its place in
   the kernel, without the kernel's BLOCK.  The lifter took it from the kernel's
   lowered GIMPLE, where it carries one of the kernel's lexical blocks.
   Lowering the gradient gives each of its statements the gradient's
   block (gimple_set_block), but not the operands the gimplifier stamps
   with the same location (the MEM_REFs of element); a pass that takes a
   statement's location from such an operand then puts the kernel's
   block in the gradient's insns.  ASan does (instrument_derefs, for the
   loads and stores without a location that loop store motion adds to a
   reduction), and with -g, final walks from that block up the
   gradient's block tree, never reaches it, and crashes (change_scope).
   Like the C front end's, our locations carry no block.  */
static location_t
stmt_location (emitter *e, te_loc loc)
{
  if (!loc)
    return DECL_SOURCE_LOCATION (e->fndecl);
  return set_block ((location_t) loc, NULL_TREE);
}

/* Statement ST of stage S as a guarded loop nest.  */
static tree
stmt_nest (emitter *e, const te_stage *s, const te_stmt *st)
{
  e->loc = stmt_location (e, st->loc);
  /* A NULL shadow the value vanishes with skips the statement; one it
     does not vanish with is read as zeros.  */
  nullable_set ns, reads;
  ns.n = reads.n = 0;
  if (st->dst->nullable)
    ns.items[ns.n++] = st->dst;
  te_walk (st->value, collect_nullable, &reads);
  if (st->guard)
    te_walk (st->guard, collect_nullable, &reads);
  e->ncond = 0;
  for (int i = 0; i < reads.n; i++)
    if (reads.items[i] == st->dst
        || (st->op == TE_ADD_TO && te_zero_if_null (st->value, reads.items[i])))
      ns.items[ns.n++] = reads.items[i];
    else
      e->cond_loads[e->ncond++] = reads.items[i];
  tree nest = store (e, st);
  nest = loop_nest (e, st->ninner, st->inner, false, nest);
  if (!s->fused)
    nest = loop_nest (e, s->nloops, s->loops, s->reversed, nest);
  e->ncond = 0;
  tree cond = all_nonnull (e, &ns);
  if (cond)
    nest = build3 (COND_EXPR, void_type_node, cond, nest, NULL_TREE);
  return nest;
}

/* ---- fused stages: one loop nest, shared subexpressions once ----------- */

/* Is N worth a local in a fused stage: computed, used more than once?  */
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

/* Bind the subexpressions the statements of S share to locals, computed
   once per iteration at the start of BODY, operands first.  */
static void
bind_shared (emitter *e, const te_stage *s, tree *body)
{
  auto_vec<const te_node *> roots;
  for (int k = 0; k < s->nstmts; k++)
    roots.safe_push (s->stmts[k].value);
  bind_scope (e, roots.address (), roots.length (), true, body);
}

/* Fused stage S, not a recurrence: if every shadow its statements touch
   is there, one loop nest computing each shared subexpression once and
   every statement; otherwise one loop nest of the statements, each
   skipped or reading zeros for its NULL shadows.  */
static tree
fused_nest (emitter *e, const te_stage *s)
{
  nullable_set all;
  all.n = 0;
  for (int k = 0; k < s->nstmts; k++)
    {
      if (s->stmts[k].dst->nullable)
        collect_nullable_tensor (&all, s->stmts[k].dst);
      te_walk (s->stmts[k].value, collect_nullable, &all);
      if (s->stmts[k].guard)
        te_walk (s->stmts[k].guard, collect_nullable, &all);
    }
  tree body = alloc_stmt_list ();
  e->loc = stmt_location (e, s->stmts[0].loc);
  bind_shared (e, s, &body);
  for (int k = 0; k < s->nstmts; k++)
    append_to_statement_list (store (e, &s->stmts[k]), &body);
  unbind (e, 0);
  tree fast = loop_nest (e, s->nloops, s->loops, false, body);
  tree cond = all_nonnull (e, &all);
  if (!cond)
    return fast;
  /* Still one loop nest: a temporary may live for one iteration
     (lib/passes/shrink.c).  */
  tree slow = alloc_stmt_list ();
  for (int k = 0; k < s->nstmts; k++)
    append_to_statement_list (stmt_nest (e, s, &s->stmts[k]), &slow);
  slow = loop_nest (e, s->nloops, s->loops, false, slow);
  return build3 (COND_EXPR, void_type_node, cond, fast, slow);
}

/* Pointer of TYPE to element OFFSET of T; NULL if T is NULL, or is a
   nullable shadow that the caller passed as NULL.  */
static tree
call_pointer (emitter *e, const te_tensor *t, const te_node *offset,
              tree type)
{
  tree addr = t ? element_address (e, t, offset) : NULL_TREE;
  if (!addr)
    return build_zero_cst (type);
  tree ptr = fold_convert (type, addr);
  if (t->nullable)
    ptr = fold_build3 (COND_EXPR, type, nonnull (tensor_base (e, t)), ptr,
                       build_zero_cst (type));
  return ptr;
}

/* The next parameter type of a call, from *TYPES (a TYPE_ARG_TYPES
   list), or FALLBACK when the callee has no prototype.  */
static tree
next_type (tree *types, tree fallback)
{
  if (!*types || VOID_TYPE_P (TREE_VALUE (*types)))
    return fallback;
  tree t = TREE_VALUE (*types);
  *types = TREE_CHAIN (*types);
  return t;
}

/* Call stage C: the callee, in the prologue (storing its result), or its
   gradient with the adjoints.  */
static tree
call_stmt (emitter *e, const te_call *c)
{
  tree fn = (tree) (c->grad ? c->grad_fn : c->fn);
  tree types = TYPE_ARG_TYPES (TREE_TYPE (fn));
  auto_vec<tree> args;
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind == TE_PK_INT || a->kind == TE_PK_FLOAT)
        {
          tree v = expr (e, a->value);
          args.safe_push (fold_convert (next_type (&types, TREE_TYPE (v)), v));
        }
      else
        {
          tree elem = te_tree_type (a->tensor->type);
          tree type = next_type (&types, build_pointer_type (elem));
          args.safe_push (call_pointer (e, a->tensor, a->offset, type));
        }
    }
  for (int i = 0; c->grad && i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind != TE_PK_FLOAT && a->kind != TE_PK_PTR_FLOAT)
        continue;
      tree type = next_type (&types, build_pointer_type (
                                         te_tree_type (a->tensor->type)));
      args.safe_push (call_pointer (e, a->adj, a->offset, type));
    }
  if (c->grad && c->ret)
    {
      tree v = expr (e, c->d_return);
      args.safe_push (fold_convert (next_type (&types, TREE_TYPE (v)), v));
    }
  TREE_USED (fn) = 1;
  tree call = build_call_expr_loc_array (e->loc, fn, args.length (),
                                         args.address ());
  if (c->grad || !c->ret)
    return call;
  tree dst = element (e, c->ret, te_int (e->p->ctx, 0));
  return build2 (MODIFY_EXPR, TREE_TYPE (dst), dst,
                 fold_convert (TREE_TYPE (dst), call));
}

/* Step 1: the PARM_DECLs of FNDECL for program P.  */
static void
make_parms (emitter *e, tree fndecl, const te_program *p)
{
  tree types = TYPE_ARG_TYPES (TREE_TYPE (fndecl));
  tree chain = NULL_TREE, *tail = &chain;
  for (int i = 0; i < p->nparams; i++, types = TREE_CHAIN (types))
    {
      const te_param *q = &p->params[i];
      tree type = TREE_VALUE (types);
      if (q->kind == TE_PK_PTR_FLOAT || q->kind == TE_PK_PTR_INT)
        {
          tree elem = q->kind == TE_PK_PTR_FLOAT ? te_tree_type (q->type)
                                                 : TREE_TYPE (type);
          while (TREE_CODE (elem) == ARRAY_TYPE)
            elem = TREE_TYPE (elem);
          type = build_qualified_type (build_pointer_type (elem),
                                       TYPE_QUAL_RESTRICT);
        }
      tree parm = build_decl (DECL_SOURCE_LOCATION (fndecl), PARM_DECL,
                              get_identifier (q->name), type);
      DECL_ARG_TYPE (parm) = type;
      DECL_CONTEXT (parm) = fndecl;
      TREE_USED (parm) = 1;
      *tail = parm;
      tail = &DECL_CHAIN (parm);
      e->parms.safe_push (parm);
    }
  DECL_ARGUMENTS (fndecl) = chain;
}

tree
emit_param_expr (const te_node *n, tree *param_values, int nparams)
{
  emitter e;
  memset (&e, 0, sizeof e);
  e.fndecl = current_function_decl;
  e.loc = input_location;
  e.parms.create (nparams);
  for (int i = 0; i < nparams; i++)
    e.parms.quick_push (param_values[i]);
  tree r = expr (&e, n);
  e.parms.release ();
  return e.failed ? NULL_TREE : r;
}

bool
emit_gradient (tree fndecl, const te_program *p)
{
  emitter e;
  memset (&e, 0, sizeof e);
  e.fndecl = fndecl;
  e.p = p;
  e.loc = DECL_SOURCE_LOCATION (fndecl);
  e.parms.create (p->nparams);
  e.vars.create (p->nvars);
  e.vars.safe_grow_cleared (p->nvars);
  /* Nodes made while emitting (a constant index) are never bound: they
     are past the tables and emitted as trees.  */
  e.nmemo = te_ctx_ids (p->ctx);
  e.memo = XCNEWVEC (tree, e.nmemo + 1);
  e.vis_epoch = XCNEWVEC (unsigned, e.nmemo + 1);
  e.unc_epoch = XCNEWVEC (unsigned, e.nmemo + 1);
  e.cnt_epoch = XCNEWVEC (unsigned, e.nmemo + 1);
  e.uses = XCNEWVEC (int, e.nmemo + 1);
  make_parms (&e, fndecl, p);
  tree result = build_decl (DECL_SOURCE_LOCATION (fndecl), RESULT_DECL,
                            NULL_TREE, void_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_IGNORED_P (result) = 1;
  DECL_CONTEXT (result) = fndecl;
  DECL_RESULT (fndecl) = result;
  /* allocate_struct_function lays out the parameters and the result.  */
  tree saved_fn = current_function_decl;
  push_struct_function (fndecl);

  tree body = alloc_stmt_list ();
  /* Temporaries: zeroed, so statements skipped for a NULL shadow leave
     zeros behind.  */
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      if (t->kind != TE_TK_LOCAL)
        continue;
      tree elem = te_tree_type (t->type);
      if (te_is_const (t->size, 1))
        {
          /* One element (lib/passes/shrink.c): on the stack, where GCC keeps
             it in a register.  */
          tree arr = new_local (&e, build_array_type_nelts (elem, 1),
                                t->name);
          append_to_statement_list (
              build2 (MODIFY_EXPR, elem,
                      build4 (ARRAY_REF, elem, arr, size_zero_node,
                              NULL_TREE, NULL_TREE),
                      build_zero_cst (elem)),
              &body);
          e.local_tensors.safe_push (t);
          e.local_ptrs.safe_push (build_fold_addr_expr (arr));
          continue;
        }
      tree ptr = new_local (&e, build_pointer_type (elem), t->name);
      tree n = fold_convert (size_type_node, expr (&e, t->size));
      tree call = build_call_expr (builtin_decl_explicit (BUILT_IN_CALLOC), 2,
                                   n, TYPE_SIZE_UNIT (elem));
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (ptr), ptr,
                  fold_convert (TREE_TYPE (ptr), call)),
          &body);
      e.local_tensors.safe_push (t);
      e.local_ptrs.safe_push (ptr);
    }
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      if (st->call)
        {
          e.loc = stmt_location (&e, st->loc);
          append_to_statement_list (call_stmt (&e, st->call), &body);
          continue;
        }
      if (st->fused && !st->reversed && !st->recurrent)
        {
          bool inner = false;
          for (int k = 0; k < st->nstmts; k++)
            inner |= st->stmts[k].ninner > 0;
          if (!inner)
            {
              append_to_statement_list (fused_nest (&e, st), &body);
              continue;
            }
        }
      if (st->fused)
        {
          /* One loop nest, each iteration running every statement.  */
          tree inner = alloc_stmt_list ();
          for (int k = 0; k < st->nstmts; k++)
            append_to_statement_list (stmt_nest (&e, st, &st->stmts[k]),
                                      &inner);
          append_to_statement_list (loop_nest (&e, st->nloops, st->loops,
                                               st->reversed, inner),
                                    &body);
          continue;
        }
      for (int k = 0; k < st->nstmts; k++)
        append_to_statement_list (stmt_nest (&e, st, &st->stmts[k]), &body);
    }

  for (unsigned i = 0; i < e.local_ptrs.length (); i++)
    if (TREE_CODE (e.local_ptrs[i]) != ADDR_EXPR)
      append_to_statement_list (
        build_call_expr (builtin_decl_explicit (BUILT_IN_FREE), 1,
                         e.local_ptrs[i]),
        &body);
  tree block = make_node (BLOCK);
  BLOCK_VARS (block) = e.locals;
  BLOCK_SUPERCONTEXT (block) = fndecl;
  DECL_INITIAL (fndecl) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, e.locals, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fndecl) = bind;
  if (!e.failed)
    {
      gimplify_function_tree (fndecl);
    }
  pop_cfun ();
  current_function_decl = saved_fn;
  e.parms.release ();
  e.vars.release ();
  e.local_tensors.release ();
  e.local_ptrs.release ();
  e.bound_ids.release ();
  free (e.memo);
  free (e.vis_epoch);
  free (e.unc_epoch);
  free (e.cnt_epoch);
  free (e.uses);
  if (e.failed)
    return false;
  pending = tree_cons (NULL_TREE, fndecl, pending);
  return true;
}

void
emit_hand_over (void)
{
  tree list = nreverse (pending);
  pending = NULL_TREE;
  for (tree l = list; l; l = TREE_CHAIN (l))
    cgraph_node::add_new_function (TREE_VALUE (l), false);
}

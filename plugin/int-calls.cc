/* int-calls.cc -- calls of integer functions that return an expression
   of their parameters, read as that expression.

   Before:  static inline int imax (int a, int b) { return a > b ? a : b; }
            ... x[imin (imax (i + k, 0), n - 1)] ...
   After:   ... x[MIN (MAX (i + k, 0), n - 1)] ...   (each argument once)

   The lifter takes a call of a function of the file only when it returns
   float or double (lift-value.cc); an index clamped by a helper of its
   own (edge padding written with imax and imin) was refused.  Before the
   front end genericizes a kernel or a helper (PLUGIN_PRE_GENERICIZE),
   each call of a function that qualifies becomes the expression it
   returns, its parameters replaced by the arguments, each evaluated
   once (SAVE_EXPR), as the inliner would make it.

   1. The callee returns an integer, takes only integers, and its body
      (already GENERIC: it is defined before the call) is one return of
      an expression made of its parameters, integer constants and
      integer arithmetic, comparisons and conditionals (and what
      -fsanitize=undefined adds: SAVE_EXPRs and checks calling
      __ubsan_handle functions, which stay in the kernel).
   2. The call passes exactly one argument per parameter.

   In C++ the callee's return is an INIT_EXPR of its result in a cleanup
   point, and the front end's fold cache is cleared after a replacement
   (cxx_trees_changed).

   Limits: a callee defined after the kernel, one with locals or several
   statements, and one marked differentiable (a kernel of its own) stay
   calls.  */

#include "int-calls.h"

/* walk_tree callback of returned_expr: NULL while *TP may be in the
   expression FN (DATA) returns, else *TP.  */
static tree
plain_int_node (tree *tp, int *walk_subtrees, void *data)
{
  tree t = *tp, fn = (tree) data;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  switch (TREE_CODE (t))
    {
    case PARM_DECL:
      return DECL_CONTEXT (t) == fn ? NULL_TREE : t;
    case INTEGER_CST:
    case VOID_CST:
      return NULL_TREE;
    /* What -fsanitize=undefined puts into such a body: each operand once
       (SAVE_EXPR) and a check before the value (a COMPOUND_EXPR of a
       conditional call of a __ubsan_handle function with the address of
       its static data).  The kernel keeps the check (lift-check.cc).  */
    case SAVE_EXPR:
      return INTEGRAL_TYPE_P (TREE_TYPE (t)) ? NULL_TREE : t;
    case COMPOUND_EXPR:
      return NULL_TREE;
    case ADDR_EXPR:
      *walk_subtrees = 0;
      return VAR_P (TREE_OPERAND (t, 0)) && TREE_STATIC (TREE_OPERAND (t, 0))
                 ? NULL_TREE
                 : t;
    case CALL_EXPR:
      {
        tree callee = get_callee_fndecl (t);
        return callee && fndecl_built_in_p (callee, BUILT_IN_NORMAL)
                       && (strncmp (IDENTIFIER_POINTER (DECL_NAME (callee)),
                                    "__builtin___ubsan_", 18)
                               == 0
                           || fndecl_built_in_p (callee, BUILT_IN_TRAP))
                   ? NULL_TREE
                   : t;
      }
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case TRUNC_DIV_EXPR:
    case TRUNC_MOD_EXPR:
    case EXACT_DIV_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
    case NEGATE_EXPR:
    case ABS_EXPR:
    case NOP_EXPR:
    case CONVERT_EXPR:
    case NON_LVALUE_EXPR:
    case COND_EXPR:
      return INTEGRAL_TYPE_P (TREE_TYPE (t)) || VOID_TYPE_P (TREE_TYPE (t))
                 ? NULL_TREE
                 : t;
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
    case EQ_EXPR:
    case NE_EXPR:
    case TRUTH_ANDIF_EXPR:
    case TRUTH_ORIF_EXPR:
    case TRUTH_AND_EXPR:
    case TRUTH_OR_EXPR:
    case TRUTH_NOT_EXPR:
    case BIT_AND_EXPR:
    case BIT_IOR_EXPR:
    case BIT_XOR_EXPR:
    case BIT_NOT_EXPR:
    case LSHIFT_EXPR:
    case RSHIFT_EXPR:
      return INTEGRAL_TYPE_P (TREE_TYPE (t)) ? NULL_TREE : t;
    default:
      return t;
    }
}

/* The expression FN returns, when FN qualifies (step 1); else NULL.  */
static tree
returned_expr (tree fn)
{
  tree type = TREE_TYPE (fn);
  if (!INTEGRAL_TYPE_P (TREE_TYPE (type)) || stdarg_p (type)
      || !DECL_SAVED_TREE (fn) || DECL_STRUCT_FUNCTION (fn) == NULL)
    return NULL_TREE;
  for (tree p = DECL_ARGUMENTS (fn); p; p = DECL_CHAIN (p))
    if (!INTEGRAL_TYPE_P (TREE_TYPE (p)))
      return NULL_TREE;
  tree b = DECL_SAVED_TREE (fn);
  while (TREE_CODE (b) == BIND_EXPR)
    {
      if (BIND_EXPR_VARS (b))
        return NULL_TREE;
      b = BIND_EXPR_BODY (b);
    }
  if (TREE_CODE (b) == STATEMENT_LIST)
    {
      tree only = NULL_TREE;
      for (tree_stmt_iterator i = tsi_start (b); !tsi_end_p (i); tsi_next (&i))
        {
          tree s = tsi_stmt (i);
          if (TREE_CODE (s) == DEBUG_BEGIN_STMT)
            continue;
          if (only)
            return NULL_TREE;
          only = s;
        }
      if (!only)
        return NULL_TREE;
      b = only;
    }
  /* C++ wraps a statement in a cleanup point (cp_genericize).  */
  if (TREE_CODE (b) == CLEANUP_POINT_EXPR)
    b = TREE_OPERAND (b, 0);
  if (TREE_CODE (b) != RETURN_EXPR || !TREE_OPERAND (b, 0))
    return NULL_TREE;
  tree e = TREE_OPERAND (b, 0);
  if ((TREE_CODE (e) == MODIFY_EXPR || TREE_CODE (e) == INIT_EXPR)
      && TREE_CODE (TREE_OPERAND (e, 0)) == RESULT_DECL)
    e = TREE_OPERAND (e, 1);
  if (walk_tree_without_duplicates (&e, plain_int_node, fn))
    return NULL_TREE;
  return e;
}

/* The parameters of a callee and the values that replace them, and the
   copies made of its SAVE_EXPRs.  */
struct param_map
{
  auto_vec<tree> parms, values;
  hash_map<tree, tree> saves;
};

/* A copy of expression T, the callee's, for one call: parameters
   replaced, every node new (a SAVE_EXPR once per call, shared within
   it: unshare_expr would keep the callee's own, which the gimplifier
   would then evaluate once for every call).  */
static tree
copy_for_call (tree t, param_map *m)
{
  if (!t || TYPE_P (t) || CONSTANT_CLASS_P (t))
    return t;
  if (TREE_CODE (t) == PARM_DECL)
    {
      for (unsigned i = 0; i < m->parms.length (); i++)
        if (m->parms[i] == t)
          return m->values[i];
      return t;
    }
  if (DECL_P (t) || TREE_CODE (t) == ADDR_EXPR || !EXPR_P (t))
    return t;
  if (TREE_CODE (t) == SAVE_EXPR)
    {
      if (tree *done = m->saves.get (t))
        return *done;
      tree n = copy_node (t);
      TREE_OPERAND (n, 0) = copy_for_call (TREE_OPERAND (t, 0), m);
      m->saves.put (t, n);
      return n;
    }
  tree n = copy_node (t);
  for (int i = 0; i < TREE_OPERAND_LENGTH (t); i++)
    TREE_OPERAND (n, i) = copy_for_call (TREE_OPERAND (t, i), m);
  return n;
}

/* walk_tree callback of int_calls_substitute: a call that qualifies
   becomes its expression; *DATA, a bool, is then set.  */
static tree
substitute_call (tree *tp, int *walk_subtrees, void *data)
{
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if (TREE_CODE (t) != CALL_EXPR)
    return NULL_TREE;
  tree fn = get_callee_fndecl (t);
  tree e = fn ? returned_expr (fn) : NULL_TREE;
  if (!e || call_expr_nargs (t) != list_length (DECL_ARGUMENTS (fn)))
    return NULL_TREE;
  param_map m;
  int k = 0;
  for (tree p = DECL_ARGUMENTS (fn); p; p = DECL_CHAIN (p), k++)
    {
      m.parms.safe_push (p);
      m.values.safe_push (save_expr (fold_convert (TREE_TYPE (p),
                                                   CALL_EXPR_ARG (t, k))));
    }
  tree r = fold_convert (TREE_TYPE (t), copy_for_call (e, &m));
  protected_set_expr_location (r, EXPR_LOCATION (t));
  *tp = r;
  *(bool *) data = true;
  /* The arguments are walked next, inside the new expression: a call in
     one (imin (imax (...), ...)) is replaced too.  */
  return NULL_TREE;
}

bool
int_calls_substitute (tree fndecl)
{
  if (!DECL_SAVED_TREE (fndecl))
    return false;
  bool changed = false;
  walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), substitute_call,
                                &changed);
  return changed;
}

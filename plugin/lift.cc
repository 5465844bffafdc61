/* lift.cc -- from the GIMPLE of a kernel to a TE program.

   Before (GIMPLE after "ssa", any -O level):
       <bb 3>: _1 = (long unsigned) i_2; _3 = x_9(D) + _1 * 8; _4 = *_3;
               _5 = tanh (_4); ... *_8 = _5;  i_11 = i_2 + 1;
       <bb 4>: i_2 = PHI <0(2), i_11(3)>; if (i_2 < n_7(D)) goto <bb 3>;
   After:
       stage 0: for i < n:  y[i] = tanh (x[i]);

   1. Number the statements in reverse post-order: program order for
      structured code.
   2. Each store is a statement of the stage of its innermost loop (a new
      stage whenever the previous one belongs to another loop).  Each loop
      of the nest is a counter k running from 0 to its trip count, from
      number_of_latch_executions (plus one when the exit test comes after
      the store in the loop body).
   3. An address is lifted through SCEV: analyze_scalar_evolution and
      instantiate_scev give {base, +, step}_loop chrecs, which become
      base + step * k; where SCEV gives up (gathers through index arrays)
      the SSA definitions are followed instead.  The base names the tensor
      (a parameter's default definition); the byte offset divided by the
      element size is the index, which must be affine in the counters.
   4. A stored value is lifted by following its SSA definitions inside the
      nest: arithmetic, conversions, math calls, loads; a PHI of a join
      block is a select on the path conditions of its incoming edges.
   5. A store that runs under a condition is guarded by the disjunction of
      its block's path conditions; stores to the same element in one
      iteration are merged into one statement with selects, and a load of
      an element stored earlier in the iteration reads the stored value.

   Limits: loop-carried scalars (reductions, recurrences) and local arrays
   are refused for now, as are switch statements and inline assembly.  */

#include "lift.h"
#include "abi.h"

#include <string.h>

/* One stage under construction: its loop nest and the statements lifted
   into it, with the uid of each store for store-to-load forwarding.  */
struct lift_stage
{
  int index;              /* in the program */
  class loop *loop;       /* innermost loop, the root for no loop */
  int depth;
  class loop *chain[TE_MAX_LOOPS]; /* outermost first */
  int vars[TE_MAX_LOOPS];
  unsigned store_uid[64];
};

struct lifter
{
  function *fun;
  te_program *p;
  te_ctx *ctx;
  hash_map<tree, te_node *> *memo; /* SSA name -> node in CUR's nest */
  lift_stage *cur;
  lift_stage stages[64];
  int nstages;
  /* Reduction loops being lifted inside the current stage, innermost
     last: loops whose header PHI accumulates a value used after them.  */
  class loop *red_loops[TE_MAX_LOOPS];
  int red_vars[TE_MAX_LOOPS];
  int nred;
  location_t loc;        /* of the statement being lifted */
  unsigned uid;          /* of the statement being lifted */
  bool failed;
  /* tensors by the decl they come from */
  hash_map<tree, te_tensor *> *tensors;
  /* values returned by inlined calls, by their SSA name */
  hash_map<tree, te_node *> *call_results;
};

/* The lifted programs of the kernels of this translation unit, for their
   callers: kernel decl -> program (never freed: callers come later).  */
static hash_map<tree, te_program *> *kernel_programs;

void
lift_remember (tree fndecl, te_program *p)
{
  if (!kernel_programs)
    kernel_programs = new hash_map<tree, te_program *>;
  kernel_programs->put (fndecl, p);
}

static te_node *lift_float (lifter *l, tree t);
static te_node *lift_int (lifter *l, tree t);
static const char *decl_name (tree decl);
static bool lift_pointer (lifter *l, tree t, te_tensor **base, te_node **off);

/* Report an error at the current statement, once per statement.  */
static te_node *
fail (lifter *l, const char *msg)
{
  if (!l->failed)
    error_at (l->loc, "%s", msg);
  l->failed = true;
  return NULL;
}

/* ---- types -------------------------------------------------------------- */

static bool
float_te_type (tree type, te_type *out)
{
  type = TYPE_MAIN_VARIANT (type);
  if (type == float_type_node)
    *out = TE_F32;
  else if (type == double_type_node)
    *out = TE_F64;
  else
    return false;
  return true;
}

/* The TE type that holds values of integer TYPE: 64-bit for every signed
   type (a signed overflow is undefined in C, so no wrap is needed) and for
   64-bit unsigned ones; TE_U32 for 32-bit unsigned types, which wrap.  */
static bool
int_te_type (tree type, te_type *out)
{
  if (TREE_CODE (type) == BOOLEAN_TYPE)
    *out = TE_BOOL;
  else if (!INTEGRAL_TYPE_P (type))
    return false;
  else if (TYPE_UNSIGNED (type) && TYPE_PRECISION (type) == 32)
    *out = TE_U32;
  else if (TYPE_UNSIGNED (type) && TYPE_PRECISION (type) < 64)
    return false;
  else
    *out = TE_I64;
  return true;
}

/* ---- tensors ------------------------------------------------------------ */

static const char *
decl_name (tree decl)
{
  return DECL_NAME (decl) ? IDENTIFIER_POINTER (DECL_NAME (decl)) : "<anon>";
}

/* The tensor that pointer parameter PARM points to.  */
static te_tensor *
param_tensor (lifter *l, tree parm)
{
  te_tensor **slot = l->tensors->get (parm);
  if (slot)
    return *slot;
  int index = 0;
  for (tree a = DECL_ARGUMENTS (l->fun->decl); a && a != parm;
       a = DECL_CHAIN (a))
    index++;
  te_param *q = &l->p->params[index];
  te_tensor *t
      = te_program_add_tensor (l->p, q->name, q->type, TE_TK_PARAM, index,
                               DECL_SOURCE_LOCATION (parm));
  l->tensors->put (parm, t);
  return t;
}

/* The tensor of local array KEY (a VAR_DECL, or the SSA pointer of a
   variable-length one) of type TYPE and SIZE bytes.  */
static te_tensor *
local_tensor (lifter *l, tree key, tree type, tree size)
{
  te_tensor **slot = l->tensors->get (key);
  if (slot)
    return *slot;
  tree elem = type;
  while (TREE_CODE (elem) == ARRAY_TYPE)
    elem = TREE_TYPE (elem);
  te_type et;
  if (!float_te_type (elem, &et))
    {
      error_at (l->loc, "local array %qs of type %qT is not supported; a "
                        "differentiable function may use local arrays of "
                        "float or double",
                SSA_VAR_P (key) && DECL_P (key) ? decl_name (key)
                : SSA_NAME_VAR (key)            ? decl_name (SSA_NAME_VAR (key))
                                                : "<anon>",
                elem);
      l->failed = true;
      return NULL;
    }
  te_node *bytes = lift_int (l, size);
  if (!bytes)
    return NULL;
  tree name = DECL_P (key) ? key : SSA_NAME_VAR (key);
  /* GCC names a variable-length array's pointer NAME.N: show NAME.  */
  char buf[128];
  snprintf (buf, sizeof buf, "%s", name ? decl_name (name) : "tmp");
  char *dot = strrchr (buf, '.');
  if (dot && dot > buf && dot[1] && strspn (dot + 1, "0123456789")
                                        == strlen (dot + 1))
    *dot = 0;
  te_tensor *t = te_program_add_tensor (
      l->p, buf, et, TE_TK_LOCAL, -1,
      name ? DECL_SOURCE_LOCATION (name) : l->loc);
  t->size = te_canon_int (l->ctx, te_div (l->ctx, te_cast (l->ctx, TE_I64, bytes),
                                          te_int (l->ctx, tree_to_shwi (
                                                              TYPE_SIZE_UNIT (elem)))));
  l->tensors->put (key, t);
  return t;
}

static int
param_index (lifter *l, tree parm)
{
  int index = 0;
  for (tree a = DECL_ARGUMENTS (l->fun->decl); a; a = DECL_CHAIN (a), index++)
    if (a == parm)
      return index;
  return -1;
}

/* ---- loops and counters ------------------------------------------------- */

/* The counter of LOOP in the current stage or in a reduction being
   lifted, or -1 if LOOP is in neither.  */
static int
loop_var (lifter *l, class loop *loop)
{
  for (int i = 0; l->cur && i < l->cur->depth; i++)
    if (l->cur->chain[i] == loop)
      return l->cur->vars[i];
  for (int i = 0; i < l->nred; i++)
    if (l->red_loops[i] == loop)
      return l->red_vars[i];
  return -1;
}

/* Is LOOP the function's body or a loop with a counter in context?  */
static bool
in_context (lifter *l, class loop *loop)
{
  return loop == current_loops->tree_root || loop_var (l, loop) >= 0;
}

/* Where to instantiate SCEV results: the entry of the outermost loop in
   context.  */
static edge
nest_entry (lifter *l)
{
  return loop_preheader_edge (l->cur && l->cur->depth ? l->cur->chain[0]
                                                      : l->red_loops[0]);
}

/* ---- integers ----------------------------------------------------------- */

static te_node *
convert_int (lifter *l, tree type, te_node *n)
{
  te_type tt;
  if (!n)
    return NULL;
  if (!int_te_type (type, &tt))
    {
      if (!l->failed)
        error_at (l->loc, "index of type %qT is not supported", type);
      l->failed = true;
      return NULL;
    }
  return te_cast (l->ctx, tt, n);
}

/* Integer SSA name NAME: through SCEV when it is defined in the nest and
   SCEV knows it, else through its definition.  */
static te_node *
lift_int_ssa (lifter *l, tree name)
{
  te_node **slot = l->memo->get (name);
  if (slot)
    return *slot;
  te_node *r = NULL;
  if (SSA_NAME_IS_DEFAULT_DEF (name))
    {
      tree var = SSA_NAME_VAR (name);
      int index = var && TREE_CODE (var) == PARM_DECL ? param_index (l, var)
                                                      : -1;
      if (index < 0)
        return fail (l, "use of an uninitialized integer");
      r = convert_int (l, TREE_TYPE (name),
                       te_param_ref (l->ctx, TE_I64, index));
    }
  else
    {
      gimple *def = SSA_NAME_DEF_STMT (name);
      class loop *dl = gimple_bb (def)->loop_father;
      /* SCEV for what the source does not spell out (counters, pointer
         increments); the source's own arithmetic otherwise, which keeps
         C's signed no-overflow semantics that SCEV may fold away.  */
      if (loop_var (l, dl) >= 0 && gimple_code (def) == GIMPLE_PHI)
        {
          tree ev = analyze_scalar_evolution (dl, name);
          ev = instantiate_scev (nest_entry (l), dl, ev);
          if (ev != chrec_dont_know && !chrec_contains_undetermined (ev)
              && ev != name)
            r = lift_int (l, ev);
        }
      if (!r && !l->failed)
        {
          if (is_gimple_assign (def))
            {
              enum tree_code code = gimple_assign_rhs_code (def);
              tree rhs = gimple_assign_rhs1 (def);
              if (gimple_assign_load_p (def))
                {
                  te_tensor *t;
                  te_node *off;
                  if (!lift_pointer (l, build_fold_addr_expr (rhs), &t, &off))
                    return NULL;
                  tree size = TYPE_SIZE_UNIT (TREE_TYPE (rhs));
                  te_node *idx = te_div (l->ctx, off,
                                         te_int (l->ctx, tree_to_shwi (size)));
                  r = convert_int (l, TREE_TYPE (name),
                                   te_load (l->ctx, t, idx));
                }
              else if (get_gimple_rhs_class (code) == GIMPLE_SINGLE_RHS)
                r = lift_int (l, rhs);
              else
                {
                  tree e = gimple_assign_rhs_to_tree (def);
                  r = lift_int (l, e);
                }
            }
          else if (!l->failed)
            return fail (l, "index of this access is not affine in the "
                            "loop counters");
        }
    }
  if (r)
    l->memo->put (name, r);
  return r;
}

static te_op
compare_op (enum tree_code code)
{
  switch (code)
    {
    case LT_EXPR:
      return TE_LT;
    case LE_EXPR:
      return TE_LE;
    case GT_EXPR:
      return TE_GT;
    case GE_EXPR:
      return TE_GE;
    case EQ_EXPR:
      return TE_EQ;
    case NE_EXPR:
      return TE_NE;
    default:
      return TE_NUM_OPS;
    }
}

/* Lift comparison CODE of A and B, integer or floating.  */
static te_node *
lift_compare (lifter *l, enum tree_code code, tree a, tree b)
{
  te_op op = compare_op (code);
  if (op == TE_NUM_OPS)
    return fail (l, "this comparison cannot be lifted");
  bool fl = SCALAR_FLOAT_TYPE_P (TREE_TYPE (a));
  te_node *x = fl ? lift_float (l, a) : lift_int (l, a);
  te_node *y = fl ? lift_float (l, b) : lift_int (l, b);
  if (!x || !y)
    return NULL;
  if (!fl && x->type != y->type)
    {
      x = te_cast (l->ctx, TE_I64, x);
      y = te_cast (l->ctx, TE_I64, y);
    }
  return te_binary (l->ctx, op, x, y);
}

/* Integer (or boolean) expression T: GENERIC, chrec or SSA name.  */
static te_node *
lift_int (lifter *l, tree t)
{
  if (l->failed)
    return NULL;
  te_ctx *ctx = l->ctx;
  tree type = TREE_TYPE (t);
  enum tree_code code = TREE_CODE (t);
  switch (code)
    {
    case INTEGER_CST:
      return convert_int (l, type,
                          te_int (ctx, (int64_t) TREE_INT_CST_LOW (t)));
    case SSA_NAME:
      return lift_int_ssa (l, t);
    case POLYNOMIAL_CHREC:
      {
        int var = loop_var (l, get_loop (l->fun, CHREC_VARIABLE (t)));
        if (var < 0)
          return fail (l, "index of this access is not affine in the loop "
                          "counters");
        te_node *a = lift_int (l, CHREC_LEFT (t));
        te_node *s = lift_int (l, CHREC_RIGHT (t));
        if (!a || !s)
          return NULL;
        return te_add (ctx, a, te_mul (ctx, s, convert_int (l, type,
                                                            te_var (ctx, var))));
      }
    CASE_CONVERT:
      {
        tree op = TREE_OPERAND (t, 0);
        if (!INTEGRAL_TYPE_P (TREE_TYPE (op)))
          return fail (l, "conversion to an integer of a non-integer value "
                          "cannot be differentiated");
        return convert_int (l, type, lift_int (l, op));
      }
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case TRUNC_DIV_EXPR:
    case EXACT_DIV_EXPR:
    case TRUNC_MOD_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      {
        te_node *a = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 0)));
        te_node *b = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 1)));
        if (!a || !b)
          return NULL;
        te_op op = code == PLUS_EXPR    ? TE_ADD
                   : code == MINUS_EXPR ? TE_SUB
                   : code == MULT_EXPR  ? TE_MUL
                   : code == MIN_EXPR   ? TE_MIN
                   : code == MAX_EXPR   ? TE_MAX
                   : code == TRUNC_MOD_EXPR ? TE_MOD
                                        : TE_DIV;
        return te_binary (ctx, op, a, b);
      }
    case LSHIFT_EXPR:
      if (tree_fits_shwi_p (TREE_OPERAND (t, 1))
          && tree_to_shwi (TREE_OPERAND (t, 1)) < 32)
        return te_mul (ctx,
                       convert_int (l, type, lift_int (l, TREE_OPERAND (t, 0))),
                       convert_int (l, type,
                                    te_int (ctx, (int64_t) 1 << tree_to_shwi (
                                                     TREE_OPERAND (t, 1)))));
      return fail (l, "index of this access is not affine in the loop "
                      "counters");
    case NEGATE_EXPR:
      return convert_int (l, type,
                          te_neg (ctx, lift_int (l, TREE_OPERAND (t, 0))));
    case COND_EXPR:
      {
        te_node *c = lift_int (l, TREE_OPERAND (t, 0));
        te_node *a = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 1)));
        te_node *b = convert_int (l, type, lift_int (l, TREE_OPERAND (t, 2)));
        if (!c || !a || !b)
          return NULL;
        return te_select (ctx, c, a, b);
      }
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
    case EQ_EXPR:
    case NE_EXPR:
      return lift_compare (l, code, TREE_OPERAND (t, 0), TREE_OPERAND (t, 1));
    case TRUTH_ANDIF_EXPR:
    case TRUTH_AND_EXPR:
    case TRUTH_ORIF_EXPR:
    case TRUTH_OR_EXPR:
    case BIT_AND_EXPR:
    case BIT_IOR_EXPR:
      {
        if (TREE_CODE (type) != BOOLEAN_TYPE
            && (code == BIT_AND_EXPR || code == BIT_IOR_EXPR))
          return fail (l, "bitwise operations on indices are not supported");
        te_node *a = lift_int (l, TREE_OPERAND (t, 0));
        te_node *b = lift_int (l, TREE_OPERAND (t, 1));
        if (!a || !b)
          return NULL;
        bool is_and = code == TRUTH_ANDIF_EXPR || code == TRUTH_AND_EXPR
                      || code == BIT_AND_EXPR;
        return te_binary (ctx, is_and ? TE_AND : TE_OR,
                          te_cast (ctx, TE_BOOL, a), te_cast (ctx, TE_BOOL, b));
      }
    case TRUTH_NOT_EXPR:
    case BIT_NOT_EXPR:
      if (TREE_CODE (type) != BOOLEAN_TYPE)
        return fail (l, "bitwise operations on indices are not supported");
      return te_not (ctx, te_cast (ctx, TE_BOOL,
                                   lift_int (l, TREE_OPERAND (t, 0))));
    default:
      return fail (l, "index of this access is not affine in the loop "
                      "counters");
    }
}

/* ---- addresses ---------------------------------------------------------- */

/* Pointer expression T as BASE + OFF bytes.  */
static bool
lift_pointer (lifter *l, tree t, te_tensor **base, te_node **off)
{
  te_ctx *ctx = l->ctx;
  if (l->failed)
    return false;
  switch (TREE_CODE (t))
    {
    case SSA_NAME:
      if (SSA_NAME_IS_DEFAULT_DEF (t))
        {
          tree var = SSA_NAME_VAR (t);
          if (!var || TREE_CODE (var) != PARM_DECL)
            return fail (l, "use of an uninitialized pointer"), false;
          *base = param_tensor (l, var);
          *off = te_int (ctx, 0);
          return true;
        }
      {
        gimple *def = SSA_NAME_DEF_STMT (t);
        class loop *dl = gimple_bb (def)->loop_father;
        if (loop_var (l, dl) >= 0 && gimple_code (def) == GIMPLE_PHI)
          {
            tree ev = analyze_scalar_evolution (dl, t);
            ev = instantiate_scev (nest_entry (l), dl, ev);
            if (ev != chrec_dont_know && !chrec_contains_undetermined (ev)
                && ev != t)
              return lift_pointer (l, ev, base, off);
          }
        if (is_gimple_assign (def) && !gimple_assign_load_p (def))
          {
            if (get_gimple_rhs_class (gimple_assign_rhs_code (def))
                == GIMPLE_SINGLE_RHS)
              return lift_pointer (l, gimple_assign_rhs1 (def), base, off);
            return lift_pointer (l, gimple_assign_rhs_to_tree (def), base,
                                 off);
          }
        if (is_gimple_assign (def))
          return fail (l, "a pointer loaded from memory cannot be "
                          "differentiated"),
                 false;
        if (gimple_call_builtin_p (def, BUILT_IN_ALLOCA_WITH_ALIGN)
            || gimple_call_builtin_p (def, BUILT_IN_ALLOCA))
          {
            /* A variable-length local array.  */
            *base = local_tensor (l, t, TREE_TYPE (TREE_TYPE (t)),
                                  gimple_call_arg (def, 0));
            *off = te_int (ctx, 0);
            return *base != NULL;
          }
        return fail (l, "index of this access is not affine in the loop "
                        "counters"),
               false;
      }
    case POLYNOMIAL_CHREC:
      {
        int var = loop_var (l, get_loop (l->fun, CHREC_VARIABLE (t)));
        te_node *s;
        if (var < 0)
          return fail (l, "index of this access is not affine in the loop "
                          "counters"),
                 false;
        if (!lift_pointer (l, CHREC_LEFT (t), base, off))
          return false;
        s = lift_int (l, CHREC_RIGHT (t));
        if (!s)
          return false;
        *off = te_add (ctx, *off,
                       te_mul (ctx, te_cast (ctx, TE_I64, s), te_var (ctx, var)));
        return true;
      }
    case POINTER_PLUS_EXPR:
      {
        te_node *o = lift_int (l, TREE_OPERAND (t, 1));
        if (!o || !lift_pointer (l, TREE_OPERAND (t, 0), base, off))
          return false;
        *off = te_add (ctx, *off, te_cast (ctx, TE_I64, o));
        return true;
      }
    CASE_CONVERT:
      return lift_pointer (l, TREE_OPERAND (t, 0), base, off);
    case ADDR_EXPR:
      {
        tree ref = TREE_OPERAND (t, 0);
        poly_int64 bitsize, bitpos;
        tree offset;
        machine_mode mode;
        int unsignedp, reversep, volatilep = 0;
        tree inner = get_inner_reference (ref, &bitsize, &bitpos, &offset,
                                          &mode, &unsignedp, &reversep,
                                          &volatilep);
        HOST_WIDE_INT bytes;
        if (!multiple_p (bitpos, BITS_PER_UNIT)
            || !bits_to_bytes_round_down (bitpos).is_constant (&bytes))
          return fail (l, "unsupported memory access"), false;
        if (TREE_CODE (inner) == MEM_REF)
          {
            /* The constant offset of a MEM_REF has a pointer type.  */
            poly_int64 moff;
            if (!mem_ref_offset (inner).to_shwi (&moff)
                || !moff.is_constant ())
              return fail (l, "unsupported memory access"), false;
            te_node *o = te_int (ctx, moff.to_constant ());
            if (!lift_pointer (l, TREE_OPERAND (inner, 0), base, off))
              return false;
            *off = te_add (ctx, *off, o);
          }
        else if (VAR_P (inner) && (TREE_STATIC (inner)
                                   || DECL_EXTERNAL (inner)))
          {
            if (!l->failed)
              error_at (l->loc, "access to global variable %qD is not "
                                "supported",
                        inner);
            l->failed = true;
            return false;
          }
        else if (VAR_P (inner) && TREE_CODE (TREE_TYPE (inner)) == ARRAY_TYPE)
          {
            *base = local_tensor (l, inner, TREE_TYPE (inner),
                                  TYPE_SIZE_UNIT (TREE_TYPE (inner)));
            if (!*base)
              return false;
            *off = te_int (ctx, 0);
          }
        else if (VAR_P (inner) || TREE_CODE (inner) == PARM_DECL)
          {
            if (!l->failed)
              error_at (l->loc, "the address of %qD is taken; a "
                                "differentiable function may only index "
                                "arrays",
                        inner);
            l->failed = true;
            return false;
          }
        else
          return fail (l, "unsupported memory access"), false;
        *off = te_add (ctx, *off, te_int (ctx, bytes));
        if (offset)
          {
            te_node *o = lift_int (l, offset);
            if (!o)
              return false;
            *off = te_add (ctx, *off, te_cast (ctx, TE_I64, o));
          }
        return true;
      }
    default:
      return fail (l, "unsupported memory access"), false;
    }
}

/* Degree of N in the loop counters, with gathers (loads of index arrays)
   counted as degree 0; 2 stands for "not affine".  */
static int
affine_degree (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_LOAD:
      return 0;
    case TE_VAR:
      return 1;
    case TE_ADD:
    case TE_SUB:
    case TE_MIN:
    case TE_MAX:
      return MAX (affine_degree (n->args[0]), affine_degree (n->args[1]));
    case TE_MUL:
      return MIN (2, affine_degree (n->args[0]) + affine_degree (n->args[1]));
    case TE_DIV:
    case TE_MOD:
      return affine_degree (n->args[1]) ? 2 : affine_degree (n->args[0]);
    case TE_NEG:
    case TE_CAST:
      return affine_degree (n->args[0]);
    case TE_SELECT:
      return MAX (affine_degree (n->args[1]), affine_degree (n->args[2]));
    default:
      return 2;
    }
}

/* Divide byte offset OFF by SIZE where that is exact term by term.  */
static te_node *
bytes_to_elements (te_ctx *ctx, te_node *off, int64_t size)
{
  if (size == 1)
    return off;
  switch (off->op)
    {
    case TE_CONST:
      if (off->u.i % size == 0)
        return te_int (ctx, off->u.i / size);
      break;
    case TE_ADD:
    case TE_SUB:
      {
        te_node *a = bytes_to_elements (ctx, off->args[0], size);
        te_node *b = bytes_to_elements (ctx, off->args[1], size);
        if (a && b)
          return te_binary (ctx, off->op, a, b);
        break;
      }
    case TE_NEG:
      {
        te_node *a = bytes_to_elements (ctx, off->args[0], size);
        if (a)
          return te_neg (ctx, a);
        break;
      }
    case TE_MUL:
      for (int i = 0; i < 2; i++)
        {
          te_node *a = bytes_to_elements (ctx, off->args[i], size);
          if (a)
            return te_mul (ctx, a, off->args[1 - i]);
        }
      break;
    default:
      break;
    }
  return NULL;
}

/* The tensor and element index that memory reference REF accesses.  */
static bool
lift_access (lifter *l, tree ref, te_tensor **t, te_node **index)
{
  te_node *off;
  if (!lift_pointer (l, build_fold_addr_expr (ref), t, &off))
    return false;
  int64_t size = tree_to_shwi (TYPE_SIZE_UNIT (TREE_TYPE (ref)));
  te_type et;
  if ((float_te_type (TREE_TYPE (ref), &et)
       || int_te_type (TREE_TYPE (ref), &et))
      && ((*t)->type == et
          || (!te_type_is_float (et) && !te_type_is_float ((*t)->type))))
    ;
  else
    {
      error_at (l->loc, "%qs is accessed as %qT, not as its element type",
                (*t)->name, TREE_TYPE (ref));
      l->failed = true;
      return false;
    }
  off = te_canon_int (l->ctx, off);
  *index = bytes_to_elements (l->ctx, off, size);
  if (!*index)
    *index = te_div (l->ctx, off, te_int (l->ctx, size));
  *index = te_canon_int (l->ctx, *index);
  if (affine_degree (*index) > 1)
    {
      error_at (l->loc, "index of %qs is not affine in the loop counters",
                (*t)->name);
      l->failed = true;
      return false;
    }
  return true;
}

/* ---- floating values ---------------------------------------------------- */

static te_node *lift_phi (lifter *l, gphi *phi);
static te_node *lift_reduction (lifter *l, gphi *phi, te_type type);
static te_node *loop_extent (lifter *l, class loop *loop, basic_block bb);
static location_t loop_location (class loop *loop);
static te_node *counted_extent (lifter *l, class loop *loop, edge exit);

static te_op
math_op (const char *name, bool *single)
{
  static const struct
  {
    const char *name;
    te_op op;
  } fns[] = {
    { "exp", TE_EXP },     { "exp2", TE_EXP2 },   { "expm1", TE_EXPM1 },
    { "log", TE_LOG },     { "log2", TE_LOG2 },   { "log10", TE_LOG10 },
    { "log1p", TE_LOG1P }, { "sqrt", TE_SQRT },   { "cbrt", TE_CBRT },
    { "sin", TE_SIN },     { "cos", TE_COS },     { "tan", TE_TAN },
    { "asin", TE_ASIN },   { "acos", TE_ACOS },   { "atan", TE_ATAN },
    { "sinh", TE_SINH },   { "cosh", TE_COSH },   { "tanh", TE_TANH },
    { "erf", TE_ERF },     { "erfc", TE_ERFC },   { "fabs", TE_FABS },
    { "floor", TE_FLOOR }, { "ceil", TE_CEIL },   { "trunc", TE_TRUNC },
    { "round", TE_ROUND }, { "pow", TE_POW },     { "atan2", TE_ATAN2 },
    { "hypot", TE_HYPOT }, { "fmax", TE_FMAX },   { "fmin", TE_FMIN },
  };
  char buf[32];
  size_t n = strlen (name);
  if (n >= sizeof buf)
    return TE_NUM_OPS;
  if (!strncmp (name, "__builtin_", 10))
    name += 10, n -= 10;
  strcpy (buf, name);
  *single = false;
  for (int pass = 0; pass < 2; pass++)
    {
      for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (!strcmp (buf, fns[i].name))
          return fns[i].op;
      if (n > 1 && buf[n - 1] == 'f')
        buf[n - 1] = 0, *single = true;
      else
        break;
    }
  return TE_NUM_OPS;
}

/* Source order of two-operand calls: call -> identity of its first
   operand (an SSA version, or a declaration's uid, negated).  */
static hash_map<gimple *, int> *first_operand;

static int
operand_identity (tree t)
{
  if (TREE_CODE (t) == SSA_NAME)
    return SSA_NAME_VAR (t) ? -(int) DECL_UID (SSA_NAME_VAR (t)) - 1
                            : (int) SSA_NAME_VERSION (t);
  if (DECL_P (t))
    return -(int) DECL_UID (t) - 1;
  return INT_MIN;
}

static void
walk_stmts_record (gimple_seq seq)
{
  for (gimple_stmt_iterator gsi = gsi_start (seq); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *g = gsi_stmt (gsi);
      switch (gimple_code (g))
        {
        case GIMPLE_BIND:
          walk_stmts_record (gimple_bind_body (as_a<gbind *> (g)));
          break;
        case GIMPLE_TRY:
          walk_stmts_record (gimple_try_eval (g));
          walk_stmts_record (gimple_try_cleanup (g));
          break;
        case GIMPLE_CALL:
          if (gimple_call_num_args (g) == 2)
            first_operand->put (g, operand_identity (gimple_call_arg (g, 0)));
          break;
        default:
          break;
        }
    }
}

void
lift_record_operand_order (function *fun)
{
  if (!first_operand)
    first_operand = new hash_map<gimple *, int>;
  /* Before "lower" the body is one sequence of statements, no CFG.  */
  walk_stmts_record (gimple_body (fun->decl));
}

/* Was CALL's pair of operands swapped since lift_record_operand_order?  */
static bool
operands_swapped (gcall *call)
{
  int *first = first_operand ? first_operand->get (call) : NULL;
  if (!first || *first == INT_MIN)
    return false;
  tree a = gimple_call_arg (call, 0), b = gimple_call_arg (call, 1);
  if (TREE_CODE (a) == SSA_NAME && TREE_CODE (b) == SSA_NAME
      && SSA_NAME_VAR (a) && SSA_NAME_VAR (a) == SSA_NAME_VAR (b))
    return false;
  return operand_identity (b) == *first && operand_identity (a) != *first;
}

/* A call: a math function of the C library (by name, so -fno-builtin
   works too) or an internal function such as .SQRT.  */
static te_node *
lift_call (lifter *l, gcall *call)
{
  tree fn = gimple_call_fndecl (call);
  const char *name;
  char lower[32];
  if (gimple_call_internal_p (call))
    {
      const char *in = internal_fn_name (gimple_call_internal_fn (call));
      size_t i;
      for (i = 0; in[i] && i + 1 < sizeof lower; i++)
        lower[i] = TOLOWER (in[i]);
      lower[i] = 0;
      name = lower;
    }
  else if (fn && DECL_NAME (fn))
    name = IDENTIFIER_POINTER (DECL_NAME (fn));
  else
    return fail (l, "indirect call cannot be differentiated");
  bool single;
  te_op op = math_op (name, &single);
  tree lhs = gimple_call_lhs (call);
  te_type type;
  if (op == TE_NUM_OPS || !lhs || !float_te_type (TREE_TYPE (lhs), &type)
      || (fn && !gimple_call_internal_p (call) && DECL_INITIAL (fn)
          && !fndecl_built_in_p (fn))
      || (int) gimple_call_num_args (call) != te_op_arity (op))
    {
      if (!l->failed)
        {
          if (fn)
            error_at (l->loc, "call to %qD cannot be differentiated", fn);
          else
            error_at (l->loc, "call to %qs cannot be differentiated", name);
        }
      l->failed = true;
      return NULL;
    }
  te_node *args[2] = { NULL, NULL };
  bool swapped = operands_swapped (call);
  for (unsigned i = 0; i < gimple_call_num_args (call); i++)
    {
      unsigned k = swapped ? 1 - i : i;
      args[i] = lift_float (l, gimple_call_arg (call, k));
      if (!args[i])
        return NULL;
      args[i] = te_cast (l->ctx, type, args[i]);
    }
  return te_op_arity (op) == 1 ? te_unary (l->ctx, op, args[0])
                               : te_binary (l->ctx, op, args[0], args[1]);
}

/* Load REF: forward a value stored earlier in this iteration.  */
static te_node *
lift_load (lifter *l, tree ref, unsigned uid)
{
  te_tensor *t;
  te_node *index;
  if (!lift_access (l, ref, &t, &index))
    return NULL;
  te_stage *s = &l->p->stages[l->cur->index];
  if (l->p->nstages > 0 && l->cur->index < l->p->nstages)
    for (int k = s->nstmts - 1; k >= 0; k--)
      if (s->stmts[k].dst == t && s->stmts[k].index == index
          && l->cur->store_uid[k] < uid && !s->stmts[k].guard)
        return s->stmts[k].value;
  return te_load (l->ctx, t, index);
}

/* Floating operation CODE of the operands of assignment DEF.  */
static te_node *
lift_float_assign (lifter *l, gassign *def)
{
  te_ctx *ctx = l->ctx;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree lhs = gimple_assign_lhs (def);
  tree a = gimple_assign_rhs1 (def);
  te_type type;
  if (gimple_assign_load_p (def))
    return lift_load (l, a, gimple_uid (def));
  if (!float_te_type (TREE_TYPE (lhs), &type))
    return fail (l, "values of this type cannot be differentiated");
  switch (code)
    {
    case SSA_NAME:
    case REAL_CST:
    case PAREN_EXPR:
      return lift_float (l, a);
    case FLOAT_EXPR: /* integer to floating */
      return te_cast (ctx, type, lift_int (l, a));
    CASE_CONVERT:
      return te_cast (ctx, type, lift_float (l, a));
    case NEGATE_EXPR:
      return te_neg (ctx, lift_float (l, a));
    case ABS_EXPR:
      return te_unary (ctx, TE_FABS, lift_float (l, a));
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case RDIV_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      {
        te_node *x = lift_float (l, a);
        te_node *y = lift_float (l, gimple_assign_rhs2 (def));
        if (!x || !y)
          return NULL;
        te_op op = code == PLUS_EXPR    ? TE_ADD
                   : code == MINUS_EXPR ? TE_SUB
                   : code == MULT_EXPR  ? TE_MUL
                   : code == RDIV_EXPR  ? TE_DIV
                   : code == MIN_EXPR   ? TE_MIN
                                        : TE_MAX;
        return te_binary (ctx, op, x, y);
      }
    case COND_EXPR:
      {
        te_node *c = lift_int (l, a);
        te_node *x = lift_float (l, gimple_assign_rhs2 (def));
        te_node *y = lift_float (l, gimple_assign_rhs3 (def));
        if (!c || !x || !y)
          return NULL;
        return te_select (ctx, te_cast (ctx, TE_BOOL, c), x, y);
      }
    default:
      if (!l->failed)
        error_at (l->loc, "operation %qs cannot be differentiated",
                  get_tree_code_name (code));
      l->failed = true;
      return NULL;
    }
}

/* Floating expression T (an SSA name or a constant).  */
static te_node *
lift_float (lifter *l, tree t)
{
  te_type type;
  if (l->failed)
    return NULL;
  if (!float_te_type (TREE_TYPE (t), &type))
    {
      if (INTEGRAL_TYPE_P (TREE_TYPE (t)))
        return lift_int (l, t);
      if (!l->failed)
        error_at (l->loc, "values of type %qT cannot be differentiated",
                  TREE_TYPE (t));
      l->failed = true;
      return NULL;
    }
  if (TREE_CODE (t) == REAL_CST)
    {
      char buf[64];
      real_to_decimal (buf, TREE_REAL_CST_PTR (t), sizeof buf, 0, 1);
      return te_float (l->ctx, type, strtod (buf, NULL));
    }
  if (TREE_CODE (t) != SSA_NAME)
    return fail (l, "unsupported operand");
  te_node **slot = l->memo->get (t);
  if (slot)
    return *slot;
  slot = l->call_results->get (t);
  if (slot)
    return *slot;
  te_node *r = NULL;
  location_t saved = l->loc;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    {
      tree var = SSA_NAME_VAR (t);
      int index = var && TREE_CODE (var) == PARM_DECL ? param_index (l, var)
                                                      : -1;
      if (index < 0)
        return fail (l, "use of an uninitialized value");
      r = te_param_ref (l->ctx, type, index);
    }
  else
    {
      gimple *def = SSA_NAME_DEF_STMT (t);
      class loop *dl = gimple_bb (def)->loop_father;
      if (!in_context (l, dl))
        {
          if (gimple_code (def) == GIMPLE_PHI && gimple_bb (def) == dl->header
              && in_context (l, loop_outer (dl)))
            r = lift_reduction (l, as_a<gphi *> (def), type);
          else
            r = fail (l, "a value computed inside an inner loop is used "
                         "after it; only reductions (s += e, s *= e, "
                         "s = fmax (s, e), ...) can be");
          if (r)
            l->memo->put (t, r);
          return r;
        }
      if (gimple_has_location (def))
        l->loc = gimple_location (def);
      if (is_gimple_assign (def))
        r = lift_float_assign (l, as_a<gassign *> (def));
      else if (is_gimple_call (def))
        r = lift_call (l, as_a<gcall *> (def));
      else if (gimple_code (def) == GIMPLE_PHI)
        r = lift_phi (l, as_a<gphi *> (def));
      else
        r = fail (l, "unsupported definition");
    }
  if (!l->failed)
    l->loc = saved;
  if (r)
    l->memo->put (t, r);
  return r;
}

/* ---- reductions -------------------------------------------------------- */

/* Forget what was lifted inside LOOP: it meant the values of one
   iteration, which have no meaning outside the reduction.  */
static void
purge_memo (lifter *l, class loop *loop)
{
  auto_vec<tree> dead;
  for (auto it = l->memo->begin (); it != l->memo->end (); ++it)
    {
      tree name = (*it).first;
      gimple *def = SSA_NAME_DEF_STMT (name);
      if (!SSA_NAME_IS_DEFAULT_DEF (name) && gimple_bb (def)
          && flow_bb_inside_loop_p (loop, gimple_bb (def)))
        dead.safe_push (name);
    }
  for (unsigned i = 0; i < dead.length (); i++)
    l->memo->remove (dead[i]);
}

/* The header PHI of LOOP, an accumulator whose value after the loop is
   used: a TE_REDUCE over LOOP's counter.

     s = init; for (k...) s = s op t(k);    ->   reduce_op (k < N; init; t(k))

   An inner reduction whose init is the accumulator itself (a reduction
   over several loops) is flattened into one node, so the terms are
   combined in the order the loops run.  */
static te_node *
lift_reduction (lifter *l, gphi *phi, te_type type)
{
  class loop *loop = gimple_bb (phi)->loop_father;
  location_t saved = l->loc;
  edge exit = single_exit (loop);
  if (!exit || exit->src != loop->header)
    {
      l->loc = loop_location (loop);
      return fail (l, exit ? "a reduction over a loop whose exit test "
                             "follows its body is not supported"
                           : "loop with more than one exit cannot be "
                             "differentiated");
    }
  if (l->nred == TE_MAX_LOOPS)
    return fail (l, "reductions nested too deeply");
  tree result = gimple_phi_result (phi);
  te_node *init = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                     phi, loop_preheader_edge (loop)));
  tree latch = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  if (!init || TREE_CODE (latch) != SSA_NAME)
    return init ? fail (l, "unsupported reduction") : NULL;
  te_node *ext = loop_extent (l, loop, gimple_bb (SSA_NAME_DEF_STMT (latch)));
  if (!ext)
    return NULL;
  const char *name = NULL;
  for (gphi_iterator gi = gsi_start_phis (loop->header); !gsi_end_p (gi);
       gsi_next (&gi))
    {
      tree r = gimple_phi_result (gi.phi ());
      if (INTEGRAL_TYPE_P (TREE_TYPE (r)) && SSA_NAME_VAR (r)
          && DECL_NAME (SSA_NAME_VAR (r)))
        name = IDENTIFIER_POINTER (DECL_NAME (SSA_NAME_VAR (r)));
    }
  int var = te_program_new_var (l->p, name);
  te_node *acc = te_param_ref (l->ctx, type, -1 - l->nred);
  l->red_loops[l->nred] = loop;
  l->red_vars[l->nred++] = var;
  l->memo->put (result, acc);
  te_node *v = lift_float (l, latch);
  l->nred--;
  purge_memo (l, loop);
  l->memo->remove (result);
  if (!v)
    return NULL;
  v = te_cast (l->ctx, type, v);
  te_loop loops[TE_MAX_LOOPS];
  int nloops = 1;
  loops[0].var = var;
  loops[0].extent = ext;
  te_red_kind kind;
  te_node *body;
  if (v->op == TE_REDUCE && v->args[0] == acc
      && v->u.red.nloops < TE_MAX_LOOPS)
    {
      /* for (k) for (q) s = s op t (k, q): one reduction over k, q.  */
      kind = v->u.red.kind;
      body = v->args[1];
      for (int i = 0; i < v->u.red.nloops; i++)
        loops[nloops++] = v->u.red.loops[i];
    }
  else if (!te_match_update (l->ctx, v, acc, &kind, &body))
    body = NULL;
  if (!body || te_contains (body, acc))
    {
      if (getenv ("TG_DEBUG"))
        {
          te_node_dump (stderr, l->p, v);
          fputc ('\n', stderr);
        }
      l->loc = saved;
      tree var = SSA_NAME_VAR (result);
      if (var && DECL_NAME (var))
        error_at (l->loc, "loop-carried scalar %qD is not a reduction; "
                          "write it as %<s += e%>, %<s *= e%> or "
                          "%<s = fmax (s, e)%>",
                  var);
      else
        error_at (l->loc, "loop-carried scalar is not a reduction; write "
                          "it as %<s += e%>, %<s *= e%> or "
                          "%<s = fmax (s, e)%>");
      l->failed = true;
      return NULL;
    }
  l->loc = saved;
  return te_reduce_node (l->ctx, kind, nloops, loops, init, body);
}

/* ---- control flow: guards ----------------------------------------------- */

/* The condition under which edge E is taken, given its source ran.  */
static te_node *
edge_condition (lifter *l, edge e)
{
  gimple *last = last_stmt (e->src);
  if (!last || gimple_code (last) != GIMPLE_COND
      || !(e->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE)))
    {
      if (last && gimple_code (last) == GIMPLE_SWITCH)
        {
          l->loc = gimple_location (last);
          return fail (l, "switch statements are not supported");
        }
      return te_bool (l->ctx, true);
    }
  gcond *c = as_a<gcond *> (last);
  location_t saved = l->loc;
  te_node *cond = lift_compare (l, gimple_cond_code (c), gimple_cond_lhs (c),
                                gimple_cond_rhs (c));
  if (!l->failed)
    l->loc = saved;
  if (!cond)
    return NULL;
  return (e->flags & EDGE_TRUE_VALUE) ? cond : te_not (l->ctx, cond);
}

/* The condition under which block BB runs, relative to one run of block
   TOP, which dominates it; an inner loop counts as a single node entered
   through its header.  */
static te_node *
block_guard (lifter *l, basic_block bb, basic_block top)
{
  if (bb == top)
    return te_bool (l->ctx, true);
  class loop *tl = top->loop_father;
  if (bb->loop_father != tl && bb->loop_father->header != bb)
    {
      /* BB sits in an inner loop of TOP's; lift from that loop's entry.  */
      class loop *in = bb->loop_father;
      while (loop_outer (in) != tl && loop_outer (in))
        in = loop_outer (in);
      return block_guard (l, in->header, top);
    }
  te_node *g = te_bool (l->ctx, false);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    {
      if (bb->loop_father->header == bb && bb->loop_father != tl
          && flow_bb_inside_loop_p (bb->loop_father, e->src))
        continue; /* a back edge of the inner loop entered at BB */
      if (!dominated_by_p (CDI_DOMINATORS, e->src, top))
        continue;
      te_node *pg = block_guard (l, e->src, top);
      te_node *ec;
      class loop *sl = e->src->loop_father;
      if (sl != tl && !flow_bb_inside_loop_p (sl, bb))
        ec = te_bool (l->ctx, true); /* leaving an inner loop */
      else if (tl != current_loops->tree_root
               && loop_exits_from_bb_p (tl, e->src))
        ec = te_bool (l->ctx, true); /* staying in TL: its trip count */
      else
        ec = edge_condition (l, e);
      if (!pg || !ec)
        return NULL;
      g = te_guard_or (l->ctx, g, te_binary (l->ctx, TE_AND, pg, ec));
    }
  return g;
}

/* A PHI: a select over the path conditions of its incoming edges,
   relative to the immediate dominator of its block.  */
static te_node *
lift_phi (lifter *l, gphi *phi)
{
  basic_block bb = gimple_bb (phi);
  if (bb->loop_father->header == bb)
    {
      tree var = SSA_NAME_VAR (gimple_phi_result (phi));
      if (var && DECL_NAME (var))
        error_at (l->loc, "loop-carried scalar %qD (a reduction or "
                          "recurrence) is not supported yet",
                  var);
      else
        error_at (l->loc, "loop-carried scalar (a reduction or recurrence) "
                          "is not supported yet");
      l->failed = true;
      return NULL;
    }
  basic_block top = get_immediate_dominator (CDI_DOMINATORS, bb);
  te_node *r = NULL;
  for (int i = gimple_phi_num_args (phi) - 1; i >= 0; i--)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      te_node *v = lift_float (l, gimple_phi_arg_def (phi, i));
      te_node *g = block_guard (l, e->src, top);
      te_node *c = g ? edge_condition (l, e) : NULL;
      if (!v || !g || !c)
        return NULL;
      r = r ? te_select (l->ctx, te_binary (l->ctx, TE_AND, g, c), v, r) : v;
    }
  return r;
}

/* ---- stages ------------------------------------------------------------- */

static location_t
loop_location (class loop *loop)
{
  gimple *c = last_stmt (loop->header);
  if (c && gimple_has_location (c))
    return gimple_location (c);
  edge e = single_exit (loop);
  if (e && last_stmt (e->src) && gimple_has_location (last_stmt (e->src)))
    return gimple_location (last_stmt (e->src));
  return DECL_SOURCE_LOCATION (cfun->decl);
}

/* For a loop in the form for (i = B; i < E; i++) (or <=, or counting
   down with > and >=), whose exit test at its header comes first, the
   number of times its body runs: E - B (+ 1), which is zero or negative
   exactly when the body never runs.  NULL for any other form.  */
static te_node *
counted_extent (lifter *l, class loop *loop, edge exit)
{
  gimple *last = last_stmt (exit->src);
  if (!last || gimple_code (last) != GIMPLE_COND)
    return NULL;
  gcond *c = as_a<gcond *> (last);
  enum tree_code code = gimple_cond_code (c);
  /* The condition to stay in the loop.  */
  if (exit->flags & EDGE_TRUE_VALUE)
    code = invert_tree_comparison (code, false);
  tree a = gimple_cond_lhs (c), b = gimple_cond_rhs (c);
  if (!INTEGRAL_TYPE_P (TREE_TYPE (a)))
    return NULL;
  tree eva = analyze_scalar_evolution (loop, a);
  tree evb = analyze_scalar_evolution (loop, b);
  if (TREE_CODE (eva) != POLYNOMIAL_CHREC
      || CHREC_VARIABLE (eva) != (unsigned) loop->num)
    {
      std::swap (a, b);
      std::swap (eva, evb);
      code = swap_tree_comparison (code);
    }
  if (TREE_CODE (eva) != POLYNOMIAL_CHREC
      || CHREC_VARIABLE (eva) != (unsigned) loop->num
      || tree_contains_chrecs (evb, NULL)
      || !tree_fits_shwi_p (CHREC_RIGHT (eva))
      || TREE_CODE (CHREC_LEFT (eva)) == POLYNOMIAL_CHREC)
    return NULL;
  HOST_WIDE_INT step = tree_to_shwi (CHREC_RIGHT (eva));
  te_node *base = lift_int (l, CHREC_LEFT (eva));
  te_node *bound = base ? lift_int (l, b) : NULL;
  if (!bound)
    return NULL;
  base = te_cast (l->ctx, TE_I64, base);
  bound = te_cast (l->ctx, TE_I64, bound);
  te_ctx *ctx = l->ctx;
  te_node *n;
  if (step == 1 && (code == LT_EXPR || code == NE_EXPR))
    n = te_sub (ctx, bound, base);
  else if (step == 1 && code == LE_EXPR)
    n = te_add (ctx, te_sub (ctx, bound, base), te_int (ctx, 1));
  else if (step == -1 && (code == GT_EXPR || code == NE_EXPR))
    n = te_sub (ctx, base, bound);
  else if (step == -1 && code == GE_EXPR)
    n = te_add (ctx, te_sub (ctx, base, bound), te_int (ctx, 1));
  else
    return NULL;
  return te_canon_int (ctx, n);
}

/* The number of times block BB of LOOP runs per entry of LOOP.  */
static te_node *
loop_extent (lifter *l, class loop *loop, basic_block bb)
{
  edge exit = single_exit (loop);
  location_t saved = l->loc;
  l->loc = loop_location (loop);
  if (!exit)
    return fail (l, "loop with more than one exit cannot be differentiated");
  bool exit_first
      = exit->src != bb && dominated_by_p (CDI_DOMINATORS, bb, exit->src);
  if (exit_first && exit->src == loop->header)
    {
      te_node *n = counted_extent (l, loop, exit);
      if (n)
        {
          l->loc = saved;
          return n;
        }
      if (l->failed)
        return NULL;
    }
  tree niter = number_of_latch_executions (loop);
  if (niter == chrec_dont_know || chrec_contains_undetermined (niter))
    return fail (l, "cannot determine the number of iterations of this loop");
  /* NITER is in terms of SSA names at LOOP's entry: outer counters among
     them are lifted through SCEV like any other integer.  */
  te_node *n = lift_int (l, niter);
  if (!n)
    return NULL;
  n = te_cast (l->ctx, TE_I64, n);
  /* The exit test ends the iteration when the counted block runs before
     it (or is it); it starts it when it dominates the block.  */
  if (exit->src != bb && dominated_by_p (CDI_DOMINATORS, bb, exit->src))
    ;
  else if (exit->src == bb || dominated_by_p (CDI_DOMINATORS, exit->src, bb))
    n = te_add (l->ctx, n, te_int (l->ctx, 1));
  else
    return fail (l, "the exit test of this loop is conditional; not "
                    "supported");
  l->loc = saved;
  return n;
}

/* Switch to the stage of a statement in block BB, making a new one when
   the last stage belongs to another loop.  */
static bool
enter_stage (lifter *l, basic_block bb, location_t loc)
{
  class loop *loop = bb->loop_father;
  if (l->cur && l->cur->loop == loop && l->cur->index == l->p->nstages - 1)
    return true;
  /* The program may have grown by an inlined call since.  */
  if (l->nstages == 64)
    return fail (l, "too many loop nests in one kernel"), false;
  lift_stage *s = &l->stages[l->nstages];
  memset (s, 0, sizeof *s);
  s->loop = loop;
  s->depth = loop_depth (loop);
  if (s->depth > TE_MAX_LOOPS)
    return fail (l, "loop nest too deep"), false;
  for (class loop *x = loop; x != current_loops->tree_root; x = loop_outer (x))
    {
      unsigned d = loop_depth (x);
      if (d >= 1 && d <= TE_MAX_LOOPS)
        s->chain[d - 1] = x;
    }
  l->cur = s;
  l->memo->empty ();
  te_stage *ts = te_program_add_stage (l->p, loc);
  s->index = l->p->nstages - 1;
  l->nstages++;
  for (int i = 0; i < s->depth; i++)
    {
      const char *name = NULL;
      tree iv = NULL_TREE;
      for (gphi_iterator gi = gsi_start_phis (s->chain[i]->header);
           !gsi_end_p (gi) && !iv; gsi_next (&gi))
        {
          tree r = gimple_phi_result (gi.phi ());
          if (INTEGRAL_TYPE_P (TREE_TYPE (r)) && SSA_NAME_VAR (r)
              && DECL_NAME (SSA_NAME_VAR (r)))
            iv = r;
        }
      if (iv)
        name = IDENTIFIER_POINTER (DECL_NAME (SSA_NAME_VAR (iv)));
      s->vars[i] = te_program_new_var (l->p, name);
    }
  for (int i = 0; i < s->depth; i++)
    {
      basic_block counted = i + 1 < s->depth ? s->chain[i + 1]->header : bb;
      te_node *ext = loop_extent (l, s->chain[i], counted);
      if (!ext)
        return false;
      te_stage_add_loop (&l->p->stages[s->index], s->vars[i], ext);
    }
  ts = &l->p->stages[s->index];
  ts->nest = s->depth ? s->chain[0]->num : -1 - s->index;
  return true;
}

/* The guard of a statement in BB: its path condition inside each loop of
   the nest, and at the top level inside the function.  */
static te_node *
stmt_guard (lifter *l, basic_block bb)
{
  te_node *g = te_bool (l->ctx, true);
  basic_block b = bb;
  for (int i = l->cur->depth - 1; i >= -1; i--)
    {
      basic_block top = i >= 0 ? l->cur->chain[i]->header
                               : single_succ (ENTRY_BLOCK_PTR_FOR_FN (l->fun));
      te_node *x = block_guard (l, b, top);
      if (!x)
        return NULL;
      g = te_binary (l->ctx, TE_AND, g, x);
      if (i >= 0)
        b = l->cur->chain[i]->header;
    }
  return g;
}

/* Add T[INDEX] = VALUE under GUARD to the current stage, merging it with
   an earlier store to the same element in the same iteration.  */
static void
add_store (lifter *l, te_tensor *t, te_node *index, te_node *value,
           te_node *guard)
{
  te_stage *s = &l->p->stages[l->cur->index];
  te_ctx *ctx = l->ctx;
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t && s->stmts[k].index == index)
      {
        te_stmt *old = &s->stmts[k];
        bool guarded = guard->op != TE_CONST;
        old->value = guarded ? te_select (ctx, guard, value, old->value)
                             : value;
        if (!guarded || !old->guard)
          old->guard = NULL;
        else
          old->guard = te_guard_or (ctx, old->guard, guard);
        if (old->guard && old->guard->op == TE_CONST && old->guard->u.i)
          old->guard = NULL;
        l->cur->store_uid[k] = l->uid;
        old->loc = l->loc;
        return;
      }
  if (s->nstmts == 64)
    {
      fail (l, "too many stores in one loop nest");
      return;
    }
  l->cur->store_uid[s->nstmts] = l->uid;
  te_stage_add_stmt (l->p, s, t, index, TE_SET, value, guard, l->loc);
}

static void
lift_store (lifter *l, gassign *st)
{
  basic_block bb = gimple_bb (st);
  if (!enter_stage (l, bb, l->loc))
    return;
  te_tensor *t;
  te_node *index;
  tree lhs = gimple_assign_lhs (st);
  if (!lift_access (l, lhs, &t, &index))
    return;
  if (!te_type_is_float (t->type))
    {
      error_at (l->loc, "integer array %qs is written; a differentiable "
                        "kernel may only read integer arrays",
                t->name);
      l->failed = true;
      return;
    }
  te_node *v = lift_float (l, gimple_assign_rhs1 (st));
  te_node *g = v ? stmt_guard (l, bb) : NULL;
  if (!v || !g)
    return;
  add_store (l, t, index, te_cast (l->ctx, t->type, v), g);
}

static void
lift_return (lifter *l, greturn *ret)
{
  tree v = gimple_return_retval (ret);
  if (!v || !l->p->ret)
    return;
  basic_block bb = gimple_bb (ret);
  if (bb->loop_father != current_loops->tree_root)
    {
      fail (l, "return inside a loop cannot be differentiated");
      return;
    }
  if (!enter_stage (l, bb, l->loc))
    return;
  te_node *x = lift_float (l, v);
  te_node *g = x ? stmt_guard (l, bb) : NULL;
  if (x && g)
    add_store (l, l->p->ret, te_int (l->ctx, 0),
               te_cast (l->ctx, l->p->ret_type, x), g);
}

/* A call of CALLEE, a differentiable kernel of this file: its program is
   inlined into the caller's at this point (lib/inline.c).  */
static void
lift_kernel_call (lifter *l, gcall *call, tree callee)
{
  te_program **cp = kernel_programs ? kernel_programs->get (callee) : NULL;
  if (gimple_bb (call)->loop_father != current_loops->tree_root)
    {
      error_at (l->loc, "a call to differentiable function %qD inside a "
                        "loop is not supported yet",
                callee);
      l->failed = true;
      return;
    }
  if (custom_gradient_p (callee))
    {
      error_at (l->loc, "a call to %qD, whose gradient is written by hand, "
                        "cannot be differentiated yet",
                callee);
      l->failed = true;
      return;
    }
  if (!cp || !*cp)
    {
      error_at (l->loc, "call to %qD cannot be differentiated: its own "
                        "gradient could not be made",
                callee);
      l->failed = true;
      return;
    }
  const te_program *src = *cp;
  int n = gimple_call_num_args (call);
  if (n != src->nparams)
    {
      fail (l, "wrong number of arguments");
      return;
    }
  te_node **args = XCNEWVEC (te_node *, n + 1);
  te_tensor **tensors = XCNEWVEC (te_tensor *, n + 1);
  te_node **offsets = XCNEWVEC (te_node *, n + 1);
  for (int i = 0; i < n && !l->failed; i++)
    {
      tree a = gimple_call_arg (call, i);
      switch (src->params[i].kind)
        {
        case TE_PK_INT:
          args[i] = lift_int (l, a);
          if (args[i])
            args[i] = te_cast (l->ctx, TE_I64, args[i]);
          break;
        case TE_PK_FLOAT:
          args[i] = lift_float (l, a);
          break;
        case TE_PK_PTR_FLOAT:
        case TE_PK_PTR_INT:
          {
            te_node *off;
            if (!lift_pointer (l, a, &tensors[i], &off))
              break;
            te_type et = src->params[i].type;
            int64_t size = et == TE_F64 || et == TE_I64 ? 8 : 4;
            off = te_canon_int (l->ctx, off);
            offsets[i] = bytes_to_elements (l->ctx, off, size);
            if (!offsets[i])
              offsets[i] = te_div (l->ctx, off, te_int (l->ctx, size));
            break;
          }
        }
    }
  if (!l->failed)
    {
      te_diag diag;
      memset (&diag, 0, sizeof diag);
      te_tensor *ret = te_program_inline (l->p, src, args, tensors, offsets,
                                          l->loc, &diag);
      tree lhs = gimple_call_lhs (call);
      if (lhs && ret && TREE_CODE (lhs) == SSA_NAME)
        l->call_results->put (lhs, te_load (l->ctx, ret, te_int (l->ctx, 0)));
      l->cur = NULL; /* what follows is a new stage */
    }
  XDELETEVEC (args);
  XDELETEVEC (tensors);
  XDELETEVEC (offsets);
}

/* Check a statement that is not a store and not a return.  */
static void
check_other (lifter *l, gimple *g)
{
  switch (gimple_code (g))
    {
    case GIMPLE_CALL:
      {
        gcall *c = as_a<gcall *> (g);
        tree fn = gimple_call_fndecl (c);
        if (fn && abi_is_kernel (fn))
          {
            lift_kernel_call (l, c, fn);
            return;
          }

        if (gimple_call_builtin_p (c, BUILT_IN_ALLOCA_WITH_ALIGN)
            || gimple_call_builtin_p (c, BUILT_IN_ALLOCA)
            || gimple_call_builtin_p (c, BUILT_IN_STACK_SAVE)
            || gimple_call_builtin_p (c, BUILT_IN_STACK_RESTORE))
          return; /* variable-length local arrays */
        if (gimple_call_internal_p (c) || !gimple_call_lhs (c))
          {
            if (fn && fndecl_built_in_p (fn, BUILT_IN_NORMAL)
                && (DECL_FUNCTION_CODE (fn) == BUILT_IN_UNREACHABLE
                    || DECL_FUNCTION_CODE (fn) == BUILT_IN_TRAP))
              return;
            if (gimple_call_internal_p (c) && gimple_call_lhs (c))
              return;
            if (gimple_call_internal_p (c))
              return;
            if (fn)
              error_at (l->loc, "call to %qD cannot be differentiated", fn);
            else
              error_at (l->loc, "indirect call cannot be differentiated");
            l->failed = true;
            return;
          }
        bool single;
        const char *name = fn && DECL_NAME (fn)
                               ? IDENTIFIER_POINTER (DECL_NAME (fn))
                               : "";
        if (math_op (name, &single) == TE_NUM_OPS)
          {
            if (fn)
              error_at (l->loc, "call to %qD cannot be differentiated", fn);
            else
              error_at (l->loc, "indirect call cannot be differentiated");
            l->failed = true;
          }
        return;
      }
    case GIMPLE_ASM:
      fail (l, "inline assembly cannot be differentiated");
      return;
    case GIMPLE_SWITCH:
      fail (l, "switch statements are not supported");
      return;
    case GIMPLE_GOTO:
      fail (l, "computed goto cannot be differentiated");
      return;
    case GIMPLE_ASSIGN:
      {
        /* Loads of globals are found when values are lifted; a store to a
           non-register local is memory we do not model.  */
        return;
      }
    default:
      return;
    }
}

/* Parameters and return type: the program's signature.  */
static bool
lift_signature (lifter *l)
{
  tree fndecl = l->fun->decl;
  for (tree a = DECL_ARGUMENTS (fndecl); a; a = DECL_CHAIN (a))
    {
      te_param_kind kind;
      te_type elem;
      if (!abi_classify (TREE_TYPE (a), &kind, &elem))
        return false; /* reported when the function was parsed */
      te_program_add_param (l->p, decl_name (a), kind, elem,
                            DECL_SOURCE_LOCATION (a));
    }
  tree rt = TREE_TYPE (TREE_TYPE (fndecl));
  if (!VOID_TYPE_P (rt))
    {
      if (!float_te_type (rt, &l->p->ret_type))
        return false;
      l->p->ret = te_program_add_tensor (l->p, "return", l->p->ret_type,
                                         TE_TK_RETURN, -1,
                                         DECL_SOURCE_LOCATION (fndecl));
    }
  return true;
}

te_program *
lift_function (function *fun, te_ctx *ctx)
{
  lifter l;
  memset (&l, 0, sizeof l);
  l.fun = fun;
  l.ctx = ctx;
  l.p = te_program_new (ctx, IDENTIFIER_POINTER (DECL_NAME (fun->decl)));
  hash_map<tree, te_node *> memo, call_results;
  hash_map<tree, te_tensor *> tensors;
  l.memo = &memo;
  l.tensors = &tensors;
  l.call_results = &call_results;
  if (!lift_signature (&l))
    return NULL;

  /* Program order: a reverse post-order in which every loop is one
     contiguous region, so a loop's body comes before what follows it.  */
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (fun));
  auto_bitmap exits;
  bitmap_set_bit (exits, EXIT_BLOCK);
  int n = rev_post_order_and_mark_dfs_back_seme (
      fun, single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)), exits, true, rpo,
      NULL);
  unsigned uid = 1;
  for (int i = 0; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        gimple_set_uid (gsi_stmt (gsi), uid++);
    }
  /* An OpenMP region was outlined before SSA: the kernel's loops are
     gone into another function.  */
  for (int i = 0; i < n; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (BASIC_BLOCK_FOR_FN (fun,
                                                                    rpo[i]));
         !gsi_end_p (gsi); gsi_next (&gsi))
      {
        tree fn = is_gimple_call (gsi_stmt (gsi))
                      ? gimple_call_fndecl (gsi_stmt (gsi))
                      : NULL_TREE;
        if (fn && DECL_NAME (fn)
            && strstr (IDENTIFIER_POINTER (DECL_NAME (fn)), "GOMP_"))
          {
            location_t loc = gimple_location (gsi_stmt (gsi));
            tree child = gimple_call_num_args (gsi_stmt (gsi))
                             ? gimple_call_arg (gsi_stmt (gsi), 0)
                             : NULL_TREE;
            if (loc == UNKNOWN_LOCATION && child
                && TREE_CODE (child) == ADDR_EXPR
                && DECL_P (TREE_OPERAND (child, 0)))
              loc = DECL_SOURCE_LOCATION (TREE_OPERAND (child, 0));
            if (loc == UNKNOWN_LOCATION)
              loc = DECL_SOURCE_LOCATION (fun->decl);
            error_at (loc, "OpenMP directives in a differentiable function "
                           "are not supported");
            inform (loc, "remove the directive from the kernel; its gradient "
                         "is serial code, which GCC optimizes like any other");
            free (rpo);
            return NULL;
          }
      }
  bool any_failed = false;
  for (int i = 0; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *g = gsi_stmt (gsi);
          if (is_gimple_debug (g) || gimple_clobber_p (g))
            continue;
          l.loc = gimple_has_location (g) ? gimple_location (g)
                                          : DECL_SOURCE_LOCATION (fun->decl);
          l.uid = gimple_uid (g);
          l.failed = false;
          if (gimple_store_p (g) && is_gimple_assign (g))
            {
              tree lhs = gimple_assign_lhs (g);
              tree base = get_base_address (lhs);
              if (base && VAR_P (base)
                  && (TREE_STATIC (base) || DECL_EXTERNAL (base)))
                {
                  error_at (l.loc, "access to global variable %qD is not "
                                   "supported",
                            base);
                  l.failed = true;
                }
              else if (base && VAR_P (base)
                       && TREE_CODE (TREE_TYPE (base)) != ARRAY_TYPE)
                {
                  error_at (l.loc, "a store to %qD through memory cannot be "
                                   "differentiated",
                            base);
                  l.failed = true;
                }
              else
                lift_store (&l, as_a<gassign *> (g));
            }
          else if (gimple_code (g) == GIMPLE_RETURN)
            lift_return (&l, as_a<greturn *> (g));
          else
            check_other (&l, g);
          any_failed |= l.failed;
        }
    }
  free (rpo);
  return any_failed ? NULL : l.p;
}

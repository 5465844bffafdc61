/* lift-value.cc -- floating values of a kernel's GIMPLE: arithmetic,
   math calls, loads, accumulators that are reductions, and the path
   conditions that make selects of PHIs and guards of stores (see lift.cc
   for the design of the lifter).  */

#include "lift-internal.h"

#include <string.h>

using namespace tg_lift;

namespace tg_lift
{
/* ---- floating values ---------------------------------------------------- */


te_op
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

int
operand_identity (tree t)
{
  if (TREE_CODE (t) == SSA_NAME)
    return SSA_NAME_VAR (t) ? -(int) DECL_UID (SSA_NAME_VAR (t)) - 1
                            : (int) SSA_NAME_VERSION (t);
  if (DECL_P (t))
    return -(int) DECL_UID (t) - 1;
  return INT_MIN;
}

void
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

} // namespace tg_lift

void
lift_record_operand_order (function *fun)
{
  if (!first_operand)
    first_operand = new hash_map<gimple *, int>;
  /* Before "lower" the body is one sequence of statements, no CFG.  */
  walk_stmts_record (gimple_body (fun->decl));
}

namespace tg_lift
{

/* Was CALL's pair of operands swapped since lift_record_operand_order?  */
bool
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

/* The name the user wrote for a call of FN at LOC: the macro the call
   expands from when the library renames the function by one
   (`#define setjmp(env) _setjmp (env)'), else FN's name.  */
const char *
call_spelling (location_t loc, tree fn)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fn));
  const line_map *map = linemap_lookup (line_table, loc);
  if (map && linemap_macro_expansion_map_p (map))
    {
      const char *macro
        = linemap_map_get_macro_name (linemap_check_macro (map));
      size_t nl = strlen (name), ml = strlen (macro);
      if (ml < nl && strcmp (name + nl - ml, macro) == 0)
        return macro;
    }
  return name;
}

/* Refuse a call of FN (NULL: an indirect call, or the internal function
   NAME), once per statement.  */
te_node *
refuse_call (lifter *l, tree fn, const char *name)
{
  if (!l->failed && !already_reported (l, l->loc))
    {
      if (fn)
        {
          error_at (l->loc, "call to %qs cannot be differentiated",
                    call_spelling (l->loc, fn));
          tree ret = TREE_TYPE (TREE_TYPE (fn));
          te_type rt;
          if (abi_is_helper (fn))
            helper_refused (fn);
          else if (DECL_INITIAL (fn) && !fndecl_built_in_p (fn)
                   && !VOID_TYPE_P (ret) && !float_te_type (ret, &rt))
            /* Marking it would not do: a kernel returns void, float or
               double.  */
            inform (DECL_SOURCE_LOCATION (fn),
                    "a function of the file is substituted where a kernel "
                    "calls it only when it returns float or double, and "
                    "%qD returns %qT; write its value in the kernel (a "
                    "macro or a conditional expression)",
                    fn, ret);
          else if (DECL_INITIAL (fn) && !fndecl_built_in_p (fn))
            inform (DECL_SOURCE_LOCATION (fn),
                    "mark %qD %<__attribute__ ((differentiable))%> to "
                    "differentiate through it",
                    fn);
        }
      else if (name)
        error_at (l->loc, "call to %qs cannot be differentiated", name);
      else
        error_at (l->loc, "indirect call cannot be differentiated");
    }
  l->failed = true;
  return NULL;
}

/* A call: a math function of the C library (by name, so -fno-builtin
   works too) or an internal function such as .SQRT.  */
te_node *
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
    return refuse_call (l, NULL_TREE, NULL);
  bool single;
  te_op op = math_op (name, &single);
  tree lhs = gimple_call_lhs (call);
  te_type type;
  if (op == TE_NUM_OPS || !lhs || !float_te_type (TREE_TYPE (lhs), &type)
      || (fn && !gimple_call_internal_p (call) && DECL_INITIAL (fn)
          && !fndecl_built_in_p (fn))
      || (int) gimple_call_num_args (call) != te_op_arity (op))
    return refuse_call (l, fn, name);
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

/* Is the load of T at UID, whose value the statement being lifted uses,
   read before a store of another loop nest to T that runs before the
   statement (a sum taken before a loop rewrites the array in place, then
   used after it)?  The lifted program would read the rewritten values:
   refused (false), unless version.c can tell (one rewrite by a loop of
   the same row).  A store inside a reduction loop around the load (a
   loss summed over the steps of the time loop that updates the state) is
   carry.c's to place.  */
static bool
stale_read (lifter *l, const te_tensor *t, unsigned uid)
{
  int n = 0;
  bool one_row = true;
  location_t at = UNKNOWN_LOCATION;
  for (int si = 0; si < l->nstages; si++)
    {
      lift_stage *ls = &l->stages[si];
      if (ls == l->cur || ls->index >= l->p->nstages)
        continue;
      const te_stage *ps = &l->p->stages[ls->index];
      for (int k = 0; k < ps->nstmts && k < 64; k++)
        {
          unsigned w = ls->store_uid[k];
          if (ps->stmts[k].dst != t || w <= uid || w >= l->uid)
            continue;
          bool timed = false;
          for (int i = 0; i < l->nred; i++)
            timed |= ls->loop == l->red_loops[i]
                     || flow_loop_nested_p (l->red_loops[i], ls->loop);
          if (timed)
            continue;
          n++;
          one_row &= ls->depth > 0 && l->cur->depth > 0
                     && ls->chain[0] == l->cur->chain[0];
          if (at == UNKNOWN_LOCATION)
            at = (location_t) ps->stmts[k].loc;
        }
    }
  /* A sum of a row read before one later loop of the row rewrote it:
     version.c's early_reads gives it the version that loop read.  */
  if (n == 0 || (n == 1 && one_row && l->nred > 0))
    return true;
  if (!l->failed && !already_reported (l, l->stmt_loc))
    {
      error_at (l->stmt_loc, "this statement uses a value read from %qs "
                             "before a later loop rewrote it; not supported "
                             "yet",
                t->name);
      inform (at, "%qs is rewritten here; keep the value in a local array "
                  "written before this loop",
              t->name);
    }
  l->failed = true;
  return false;
}

/* Load REF: forward a value stored earlier in this iteration.  */
te_node *
lift_load (lifter *l, tree ref, unsigned uid, int loop_id)
{
  te_tensor *t;
  te_node *index;
  if (!lift_access (l, ref, &t, &index))
    return NULL;
  te_node *c = static_constant (l, t, index, t->type);
  if (c)
    return c;
  te_stage *s = &l->p->stages[l->cur->index];
  if (l->p->nstages > 0 && l->cur->index < l->p->nstages)
    for (int k = s->nstmts - 1; k >= 0; k--)
      if (s->stmts[k].dst == t && s->stmts[k].index == index
          && l->cur->store_uid[k] < uid && !s->stmts[k].guard)
        return s->stmts[k].value;
  if (!stale_read (l, t, uid))
    return NULL;
  /* Inside a reduction the stage is outside of (a loss summed over the
     steps of a time loop): say where in the loop's body the load is, so
     that carry.c can tell which step of an array the loop carries it
     reads.  */
  for (int i = 0; i < l->nred; i++)
    te_program_add_timed_read (l->p, t, l->red_vars[i], uid, loop_id);
  return te_load (l->ctx, t, index);
}

/* Floating operation CODE of the operands of assignment DEF.  */
te_node *
lift_float_assign (lifter *l, gassign *def)
{
  te_ctx *ctx = l->ctx;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree lhs = gimple_assign_lhs (def);
  tree a = gimple_assign_rhs1 (def);
  te_type type;
  if (gimple_assign_load_p (def))
    return lift_load (l, a, gimple_uid (def),
                      gimple_bb (def)->loop_father->num);
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

static gphi *body_accumulator (gimple *def, class loop *loop);
static te_node *lift_reduction_1 (lifter *l, gphi *phi, te_type type,
                                  bool after_body);

/* Floating expression T (an SSA name or a constant).  */
te_node *
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
            {
              r = lift_reduction (l, as_a<gphi *> (def), type);
              /* A reduction loop outside the current innermost loop ran
                 before it.  */
              class loop *o = loop_outer (dl);
              bool outer_of_stage = o == current_loops->tree_root;
              for (int k = 0; l->cur && k < l->cur->depth; k++)
                outer_of_stage |= l->cur->chain[k] == o;
              /* Not a reduction nested in one being lifted (a sum over
                 i and j), which is part of that one.  */
              bool nested = false;
              for (int k = 0; k < l->nred; k++)
                nested |= l->red_loops[k] == dl
                          || flow_loop_nested_p (l->red_loops[k], dl);
              if (r && l->cur && l->cur->depth && !nested && outer_of_stage
                  && !flow_loop_nested_p (l->cur->loop, dl))
                r = precomputed (l, t, r, type, loop_depth (o));
            }
          else if (gphi *acc = body_accumulator (def, dl))
            /* A do/while: the exit test follows the update, so what the
               loop leaves is the value after the body (s += x[i]; i++;
               } while (i < n)), the reduction's whole result.  */
            r = lift_reduction_1 (l, acc, type, true);
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
        {
          r = lift_helper_call (l, as_a<gcall *> (def));
          if (!r && !l->failed)
            r = lift_call (l, as_a<gcall *> (def));
        }
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
void
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

/* A new counter for LOOP, lifted inside an expression (a reduction's, a
   tape's), named after the last named integer its header carries.  */
static int
reduction_counter (lifter *l, class loop *loop)
{
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
  set_var_loop (l, var, loop);
  return var;
}

static bool coupled (class loop *loop, gphi *phi);
static te_node *fail_count (lifter *l, tree result);
static bool lift_tape (lifter *l, class loop *loop, te_node *ext);

/* The header PHI of LOOP, an accumulator whose value after the loop is
   used: a TE_REDUCE over LOOP's counter.

     s = init; for (k...) s = s op t(k);    ->   reduce_op (k < N; init; t(k))

   An inner reduction whose init is the accumulator itself (a reduction
   over several loops) is flattened into one node, so the terms are
   combined in the order the loops run.  */
/* DEF, in loop LOOP, as the value the loop's header PHI for it takes
   from the latch, when the loop's only exit follows DEF (a do/while's
   test after the update, whose value is then what the loop leaves): that
   PHI, else NULL.  */
static gphi *
body_accumulator (gimple *def, class loop *loop)
{
  edge exit = single_exit (loop);
  if (!exit || gimple_bb (def)->loop_father != loop
      || !dominated_by_p (CDI_DOMINATORS, exit->src, gimple_bb (def)))
    return NULL;
  tree t = gimple_get_lhs (def);
  if (!t || TREE_CODE (t) != SSA_NAME)
    return NULL;
  for (gphi_iterator gsi = gsi_start_phis (loop->header); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (PHI_ARG_DEF_FROM_EDGE (gsi.phi (), loop_latch_edge (loop)) == t)
      return gsi.phi ();
  return NULL;
}

/* The reduction of KIND over NLOOPS LOOPS of *BODY, a reduction of the
   same kind from its identity or one under a condition on the outer
   counters (the inner loop of a convolution's taps, entered where its
   row is inside the image: if (ih < 0 || ih >= H) continue;), as one
   reduction over both loops: *BODY becomes the inner terms, under the
   condition.  Returns the number of loops.  */
static int
flatten_inner (te_ctx *ctx, te_red_kind kind, te_type type, te_loop *loops,
               int nloops, te_node **body)
{
  te_node *id = te_red_identity (ctx, kind, type);
  for (;;)
    {
      te_node *b = *body, *c = NULL, *inner = b;
      bool first = true;
      if (b->op == TE_SELECT && b->args[2] == id
          && b->args[1]->op == TE_REDUCE)
        c = b->args[0], inner = b->args[1];
      else if (b->op == TE_SELECT && b->args[1] == id
               && b->args[2]->op == TE_REDUCE)
        c = b->args[0], inner = b->args[2], first = false;
      if (inner->op != TE_REDUCE || inner->u.red.kind != kind
          || inner->args[0] != id
          || nloops + inner->u.red.nloops > TE_MAX_LOOPS)
        return nloops;
      for (int k = 0; k < inner->u.red.nloops; k++)
        loops[nloops++] = inner->u.red.loops[k];
      te_node *t = inner->args[1];
      *body = !c ? t : first ? te_select (ctx, c, t, id) : te_select (ctx, c, id, t);
    }
}

te_node *
lift_reduction (lifter *l, gphi *phi, te_type type)
{
  return lift_reduction_1 (l, phi, type, false);
}

/* Does PHI, in the header of LOOP, start from the value of a scalar that
   the loop around LOOP carries (s, not reset between the outer loop's
   iterations)?  */
static bool
carried_from_outer (gphi *phi, class loop *loop)
{
  tree init = PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (loop));
  if (TREE_CODE (init) != SSA_NAME)
    return false;
  gimple *d = SSA_NAME_DEF_STMT (init);
  class loop *outer = loop_outer (loop);
  return gimple_code (d) == GIMPLE_PHI && outer
         && gimple_bb (d) == outer->header;
}

/* lift_reduction; AFTER_BODY: the value used is the one the latch gives
   PHI, in a loop whose exit test follows the update (a do/while).  */
static te_node *
lift_reduction_1 (lifter *l, gphi *phi, te_type type, bool after_body)
{
  class loop *loop = gimple_bb (phi)->loop_father;
  location_t saved = l->loc;
  edge exit = single_exit (loop);
  if (!exit)
    return fail_early_exit (l, loop);
  if (!exit_test_first (loop, exit) && !after_body)
    {
      l->loc = loop_location (loop);
      return fail (l, "a reduction over a loop whose exit test follows its "
                      "body is not supported");
    }
  if (l->nred == TE_MAX_LOOPS)
    return fail (l, "reductions nested too deeply");
  tree result = gimple_phi_result (phi);
  if (te_node **taped = l->tapes->get (result))
    return *taped;
  te_node *init = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                     phi, loop_preheader_edge (loop)));
  tree latch = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  if (!init || TREE_CODE (latch) != SSA_NAME)
    return init ? fail (l, "unsupported reduction") : NULL;
  te_node *ext = loop_extent (l, loop, gimple_bb (SSA_NAME_DEF_STMT (latch)));
  if (!ext)
    return NULL;
  bool count = !te_type_is_float (type);
  if (!count && coupled (loop, phi) && lift_tape (l, loop, ext))
    {
      l->loc = saved;
      return *l->tapes->get (result);
    }
  int var = reduction_counter (l, loop);
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
  loops[0] = te_loop ();
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
  else
    nloops = flatten_inner (l->ctx, kind, type, loops, nloops, &body);
  if (!count && (!body || te_contains (body, acc)))
    {
      /* The tape's statements are the update's, at its line.  */
      gimple *ud = SSA_NAME_DEF_STMT (latch);
      if (gimple_has_location (ud))
        l->loc = gimple_location (ud);
      bool taped = lift_tape (l, loop, ext);
      l->loc = saved;
      if (taped)
        return *l->tapes->get (result);
    }
  if (!body || te_contains (body, acc) || (count && kind != TE_RED_SUM))
    {
      l->loc = saved;
      tree var = SSA_NAME_VAR (result);
      if (count)
        return fail_count (l, result);
      /* The update, for what is refused because of where it stands.  */
      gimple *update = SSA_NAME_DEF_STMT (latch);
      location_t uloc = gimple_has_location (update)
                          ? gimple_location (update)
                          : l->loc;
      if (v->op == TE_SELECT && var && DECL_NAME (var))
        error_at (l->loc, "loop-carried scalar %qD is updated by different "
                          "operations in the branches of a condition; a "
                          "reduction must use one (+, *, fmax or fmin)",
                  var);
      else if (var && DECL_NAME (var) && l->nred > 0
               && carried_from_outer (phi, loop))
        {
          /* Inside the loop of another carried value being lifted: a tape
             is kept for the iterations of one loop only.  */
          error_at (uloc, "loop-carried scalar %qD is updated from its "
                            "own value in an inner loop of a loop that "
                            "carries it too; not supported yet",
                    var);
          inform (uloc, "the gradient keeps such a value for every "
                          "iteration of one loop only; reset %qD at the "
                          "start of every iteration of the outer loop, or "
                          "keep each iteration's value in an array element",
                  var);
        }
      else if (var && DECL_NAME (var) && l->nred > 0)
        {
          error_at (uloc, "loop-carried scalar %qD is updated from its "
                            "own value in a loop inside the loop of a "
                            "reduction; not supported yet",
                    var);
          inform (uloc, "store %qD of every iteration of the outer loop "
                          "in an array element, and sum those in a loop of "
                          "its own",
                  var);
        }
      else if (var && DECL_NAME (var) && body)
        /* s += e with E reading s: the advice below is what it wrote.  */
        error_at (l->loc, "loop-carried scalar %qD is updated from its own "
                          "value and cannot be kept for every iteration of "
                          "this loop; not supported yet",
                  var);
      else if (var && DECL_NAME (var))
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

/* Refuse RESULT, an integer a loop changes that is no count.  */
static te_node *
fail_count (lifter *l, tree result)
{
  tree var = SSA_NAME_VAR (result);
  if (!l->failed && !already_reported (l, l->loc))
    {
      if (var && DECL_NAME (var) && !DECL_IGNORED_P (var))
        error_at (l->loc, "integer %qD is changed inside a loop and is not "
                          "its counter nor a count; such integers are not "
                          "supported yet",
                  var);
      else
        error_at (l->loc, "an integer is changed inside a loop and is not "
                          "its counter nor a count; such integers are not "
                          "supported yet");
      inform (l->loc, "an integer a loop counts (%<c++%>, %<c += m[i]%>, "
                      "under conditions on integers or values) may be used "
                      "after the loop");
    }
  l->failed = true;
  return NULL;
}

te_node *
lift_count (lifter *l, gphi *phi)
{
  tree result = gimple_phi_result (phi);
  te_type type;
  if (!int_te_type (TREE_TYPE (result), &type) || type == TE_BOOL)
    return fail_count (l, result);
  class loop *loop = gimple_bb (phi)->loop_father;
  if (coupled (loop, phi))
    {
      /* c += s > 0 with s a sum the loop carries: the count needs the
         running sum, which no reduction has.  */
      tree var = SSA_NAME_VAR (result);
      if (!l->failed && !already_reported (l, l->loc))
        error_at (l->loc, "integer %qE counts under a condition on a "
                          "floating value the loop carries from one "
                          "iteration to the next; not supported yet",
                  var && DECL_NAME (var) ? DECL_NAME (var) : result);
      l->failed = true;
      return NULL;
    }
  return lift_reduction (l, phi, type);
}

/* ---- control flow: guards ----------------------------------------------- */

static te_node *switch_condition (lifter *l, gswitch *sw, basic_block dest);

/* The condition under which edge E is taken, given its source ran.  */
te_node *
edge_condition (lifter *l, edge e)
{
  gimple *last = last_stmt (e->src);
  if (!last || gimple_code (last) != GIMPLE_COND
      || !(e->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE)))
    {
      if (last && gimple_code (last) == GIMPLE_SWITCH)
        return switch_condition (l, as_a<gswitch *> (last), e->dest);
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
/* The condition that case label K of switch SW picks, of the lifted
   index X: X == low, or low <= X <= high for a range.  */
static te_node *
case_condition (lifter *l, gswitch *sw, unsigned k, te_node *x)
{
  te_ctx *ctx = l->ctx;
  tree label = gimple_switch_label (sw, k);
  te_node *lo = te_int (ctx, tree_to_shwi (CASE_LOW (label)));
  if (!CASE_HIGH (label))
    return te_binary (ctx, TE_EQ, x, lo);
  te_node *hi = te_int (ctx, tree_to_shwi (CASE_HIGH (label)));
  return te_binary (ctx, TE_AND, te_binary (ctx, TE_LE, lo, x),
                    te_binary (ctx, TE_LE, x, hi));
}

/* The condition under which switch SW jumps to block DEST: the case
   labels that lead there, or, for the default label, none of the
   others.  */
static te_node *
switch_condition (lifter *l, gswitch *sw, basic_block dest)
{
  te_ctx *ctx = l->ctx;
  location_t saved = l->loc;
  l->loc = gimple_location (sw);
  te_node *x = lift_int (l, gimple_switch_index (sw));
  if (!x)
    return NULL;
  l->loc = saved;
  x = te_cast (ctx, TE_I64, x);
  unsigned n = gimple_switch_num_labels (sw);
  for (unsigned k = 1; k < n; k++)
    if (!tree_fits_shwi_p (CASE_LOW (gimple_switch_label (sw, k)))
        || (CASE_HIGH (gimple_switch_label (sw, k))
            && !tree_fits_shwi_p (CASE_HIGH (gimple_switch_label (sw, k)))))
      {
        l->loc = gimple_location (sw);
        return fail (l, "a switch on a value wider than 64 bits cannot be "
                        "differentiated");
      }
  te_node *any = te_bool (ctx, false), *cond = te_bool (ctx, false);
  for (unsigned k = 1; k < n; k++)
    {
      te_node *c = case_condition (l, sw, k, x);
      any = te_guard_or (ctx, any, c);
      if (label_to_block (cfun, CASE_LABEL (gimple_switch_label (sw, k)))
          == dest)
        cond = te_guard_or (ctx, cond, c);
    }
  if (label_to_block (cfun, CASE_LABEL (gimple_switch_default_label (sw)))
      == dest)
    cond = te_guard_or (ctx, cond, te_not (ctx, any));
  return cond;
}

te_node *
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
  /* A block that post-dominates its immediate dominator runs when that
     one does: its condition is the dominator's, without lifting the
     branches in between (whose conditions may read a scalar the loop
     carries, as a running maximum's comparison does).  In a loop whose
     one exit leaves from its header or latch, every way from the
     dominator to the exit passes the latch, so the block runs in the
     iteration the dominator does.  (A sanitizer's check between them
     is no way out: lift_post_dominators.)  */
  basic_block d = get_immediate_dominator (CDI_DOMINATORS, bb);
  edge out = tl != current_loops->tree_root ? single_exit (tl) : NULL;
  if (d && d != ENTRY_BLOCK_PTR_FOR_FN (cfun)
      && dominated_by_p (CDI_DOMINATORS, d, top) && d->loop_father == tl
      && (tl == current_loops->tree_root
          || (out
              && (exit_test_first (tl, out) || out->src == tl->latch)))
      && dominated_by_p (CDI_POST_DOMINATORS, d, bb))
    return block_guard (l, d, top);
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

/* R, the value of NAME, a reduction whose loop ran before the current
   innermost loop, inside the NOUTER outermost loops of the current
   stage: computed before, into a local array with one element per
   iteration of those loops (a stage of its own placed before the
   current stage), so that reads of its value do not re-read arrays the
   current loop then overwrites (p[i] /= z after z = sum of p: version.c
   gives the old p an array of its own).  */
/* A new stage over the NOUTER outermost loops of the current stage (the
   same counters), placed just before it; the current stage moves to the
   end.  */
static te_stage *
stage_before (lifter *l, int nouter)
{
  int cur = l->cur->index, last = l->p->nstages;
  te_program_add_stage (l->p, l->loc);
  te_stage *cs = &l->p->stages[cur], *s = &l->p->stages[last];
  s->nloops = nouter;
  for (int k = 0; k < nouter; k++)
    {
      s->loops[k] = cs->loops[k];
      s->loop_ids[k] = cs->loop_ids[k];
    }
  s->nest = nouter ? cs->nest : -1 - cur;
  te_stage moved = *cs;
  *cs = *s;
  l->p->stages[last] = moved;
  l->cur->index = last;
  return cs;
}

/* A local array named after SSA name NAME.  */
static te_tensor *
local_for (lifter *l, tree name, te_type type, te_node *size)
{
  tree var = SSA_NAME_VAR (name);
  const char *base = var && DECL_NAME (var)
                         ? IDENTIFIER_POINTER (DECL_NAME (var))
                         : "s";
  te_tensor *t = te_program_add_tensor (l->p, base, type, TE_TK_LOCAL, -1,
                                        l->loc);
  t->size = size;
  return t;
}

te_node *
precomputed (lifter *l, tree name, te_node *r, te_type type, int nouter)
{
  te_ctx *ctx = l->ctx;
  const te_stage *cs = &l->p->stages[l->cur->index];
  te_node *lin, *size;
  if (nouter > cs->nloops
      || !te_linearize (ctx, nouter, cs->loops, &lin, &size))
    return r;
  te_tensor *t = local_for (l, name, type, size);
  te_stage *s = stage_before (l, nouter);
  te_stage_add_stmt (l->p, s, t, lin, TE_SET, te_cast (ctx, type, r), NULL,
                     l->loc);
  te_node *v = te_load (ctx, t, lin);
  if (!nouter)
    l->call_results->put (name, v);
  return v;
}

/* The rows of an array that holds a scalar's value in every iteration of
   a loop of EXT iterations, and the one it enters with, for each
   iteration of the NOUTER loops OUTER: E + 1 values per row, row number
   the outer iteration's row-major number.  *BASE the row's first
   element, *SIZE the array's.  False when an outer extent uses a
   counter.  */
static bool
scalar_rows (te_ctx *ctx, int nouter, const te_loop *outer, te_node *ext,
             te_node **base, te_node **size)
{
  te_node *lin, *count;
  if (!te_linearize (ctx, nouter, outer, &lin, &count))
    return false;
  te_node *row = te_canon_int (
      ctx, te_add (ctx, te_binary (ctx, TE_MAX, ext, te_int (ctx, 0)),
                   te_int (ctx, 1)));
  *base = te_canon_int (ctx, te_mul (ctx, lin, row));
  *size = te_canon_int (ctx, te_mul (ctx, count, row));
  return true;
}

/* PHI, a scalar the innermost loop of the current stage carries from one
   iteration to the next (s = a * s + x[i]; y[i] = s;), as an array with
   one element per iteration and one more, per iteration of the loops
   outside: S[k] its value as iteration k starts, S[0] the value it
   enters the loop with (written by a stage before), S[k + 1] written in
   iteration k.  The recurrence is then one through a tensor.  NULL if
   the loop is not the stage's innermost or its count uses a counter.  */
static te_node *
expand_scalar (lifter *l, gphi *phi)
{
  te_ctx *ctx = l->ctx;
  class loop *loop = gimple_bb (phi)->loop_father;
  tree name = gimple_phi_result (phi);
  te_type type;
  if (!l->cur || !l->cur->depth || l->cur->loop != loop
      || !float_te_type (TREE_TYPE (name), &type))
    return NULL;
  const te_stage *cs = &l->p->stages[l->cur->index];
  int d = cs->nloops;
  te_node *ext = cs->loops[d - 1].extent;
  for (int k = 0; k < d; k++)
    if (te_uses_var (ext, cs->loops[k].var))
      return NULL;
  te_node *base, *size;
  if (!scalar_rows (ctx, d - 1, cs->loops, ext, &base, &size))
    return NULL;
  te_node *k = te_var (ctx, cs->loops[d - 1].var);
  te_tensor *t = local_for (l, name, type, size);
  te_node *init = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                     phi, loop_preheader_edge (loop)));
  if (!init)
    return NULL;
  te_stage *s = stage_before (l, d - 1);
  te_stage_add_stmt (l->p, s, t, base, TE_SET, te_cast (ctx, type, init),
                     NULL, l->loc);
  te_node *now = te_load (ctx, t, te_canon_int (ctx, te_add (ctx, base, k)));
  l->memo->put (name, now);
  te_node *next = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                     phi, loop_latch_edge (loop)));
  if (!next)
    return NULL;
  add_store (l, t,
             te_canon_int (ctx, te_add (ctx, base,
                                        te_add (ctx, k, te_int (ctx, 1)))),
             te_cast (ctx, type, next), te_bool (ctx, true));
  return now;
}

/* ---- tapes: scalars a loop carries that are no reduction --------------- */

/* The floating header PHIs of LOOP, at most MAX of them, into PHIS; their
   number, or -1 when there are more.  */
static int
carried_phis (class loop *loop, gphi **phis, int max)
{
  int n = 0;
  for (gphi_iterator gi = gsi_start_phis (loop->header); !gsi_end_p (gi);
       gsi_next (&gi))
    {
      te_type type;
      if (!float_te_type (TREE_TYPE (gimple_phi_result (gi.phi ())), &type))
        continue;
      if (n == max)
        return -1;
      phis[n++] = gi.phi ();
    }
  return n;
}

/* Does the value NAME takes in an iteration of LOOP depend on the header
   PHI OTHER (through statements of LOOP)?  VISITED bounds the walk.  */
static bool
depends_on (class loop *loop, tree name, gphi *other, hash_set<tree> *visited)
{
  if (TREE_CODE (name) != SSA_NAME || visited->add (name))
    return false;
  gimple *def = SSA_NAME_DEF_STMT (name);
  if (def == other)
    return true;
  if (!gimple_bb (def) || !flow_bb_inside_loop_p (loop, gimple_bb (def))
      || (gimple_bb (def) == loop->header && gimple_code (def) == GIMPLE_PHI))
    return false;
  ssa_op_iter it;
  use_operand_p use;
  FOR_EACH_PHI_OR_STMT_USE (use, def, it, SSA_OP_USE)
    if (depends_on (loop, USE_FROM_PTR (use), other, visited))
      return true;
  return false;
}

/* Does PHI's next value depend on another scalar LOOP carries (explicit
   Euler: v += dt * (-k*x - c*v); x += dt * v)?  */
static bool
coupled (class loop *loop, gphi *phi)
{
  gphi *phis[8];
  int n = carried_phis (loop, phis, 8);
  tree latch = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  for (int j = 0; j < n; j++)
    if (phis[j] != phi)
      {
        hash_set<tree> visited;
        if (depends_on (loop, latch, phis[j], &visited))
          return true;
      }
  return n < 0;
}

/* LOOP's carried floating scalars, whose values after it are used and
   which are no reductions (Horner's p = p * x + c[i]; the coupled state
   of a time step), as a tape: for each scalar S an array with one
   element per iteration and one more, per iteration of the current
   stage's loops, S[0] the value it enters with, S[k + 1] written by
   iteration k in a stage of its own, a recurrence the gradient runs
   backwards.  The value after the loop, S[N], of every scalar goes into
   l->tapes.  False, reporting nothing, when LOOP is not directly inside
   the current stage's innermost loop, or its count uses a counter.  */
static bool
lift_tape (lifter *l, class loop *loop, te_node *ext)
{
  te_ctx *ctx = l->ctx;
  gphi *phis[8];
  int n = carried_phis (loop, phis, 8);
  class loop *outer = l->cur && l->cur->depth
                          ? l->cur->chain[l->cur->depth - 1]
                          : current_loops->tree_root;
  if (n <= 0 || l->nred || !l->cur || loop_outer (loop) != outer)
    return false;
  const te_stage *cs = &l->p->stages[l->cur->index];
  int d = cs->nloops;
  for (int k = 0; k < d; k++)
    if (te_uses_var (ext, cs->loops[k].var))
      return false;
  te_node *base, *size;
  if (d + 1 > TE_MAX_LOOPS || !scalar_rows (ctx, d, cs->loops, ext, &base,
                                            &size))
    return false;

  te_tensor *tape[8];
  te_node *init[8];
  for (int j = 0; j < n; j++)
    {
      init[j] = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                   phis[j], loop_preheader_edge (loop)));
      if (!init[j])
        return false;
    }
  for (int j = 0; j < n; j++)
    {
      te_type type;
      tree name = gimple_phi_result (phis[j]);
      float_te_type (TREE_TYPE (name), &type);
      tape[j] = local_for (l, name, type, size);
    }
  te_stage *s0 = stage_before (l, d);
  for (int j = 0; j < n; j++)
    te_stage_add_stmt (l->p, s0, tape[j], base, TE_SET,
                       te_cast (ctx, tape[j]->type, init[j]), NULL, l->loc);

  /* The body, with the counter bound as a reduction's and each scalar
     read from the tape at the iteration's element.  */
  int var = reduction_counter (l, loop);
  te_node *k = te_var (ctx, var);
  l->red_loops[l->nred] = loop;
  l->red_vars[l->nred++] = var;
  for (int j = 0; j < n; j++)
    l->memo->put (gimple_phi_result (phis[j]),
                  te_load (ctx, tape[j],
                           te_canon_int (ctx, te_add (ctx, base, k))));
  te_node *next[8];
  bool ok = true;
  for (int j = 0; j < n && ok; j++)
    {
      next[j] = lift_float (l, PHI_ARG_DEF_FROM_EDGE (
                                   phis[j], loop_latch_edge (loop)));
      ok = next[j] != NULL;
    }
  l->nred--;
  purge_memo (l, loop);
  for (int j = 0; j < n; j++)
    l->memo->remove (gimple_phi_result (phis[j]));
  if (!ok)
    return false;

  te_stage *s = stage_before (l, d);
  te_stage_add_loop (s, var, ext);
  s->loop_ids[d] = loop->num;
  te_node *at = te_canon_int (ctx, te_add (ctx, base,
                                           te_add (ctx, k, te_int (ctx, 1))));
  for (int j = 0; j < n; j++)
    te_stage_add_stmt (l->p, s, tape[j], at, TE_SET,
                       te_cast (ctx, tape[j]->type, next[j]), NULL, l->loc);
  /* The value after the loop; the entry value when it runs no
     iteration.  */
  te_node *last = te_canon_int (
      ctx, te_add (ctx, base, te_binary (ctx, TE_MAX, ext, te_int (ctx, 0))));
  for (int j = 0; j < n; j++)
    {
      l->tapes->put (gimple_phi_result (phis[j]),
                     te_load (ctx, tape[j], last));
      te_program_note (l->p, "tape: '%s', carried by the loop at line %d, "
                       "keeps its value in every iteration: %s elements",
                       tape[j]->name,
                       LOCATION_LINE (loop_location (loop)),
                       te_node_string (l->p, size));
    }
  return true;
}

/* A PHI: a select over the path conditions of its incoming edges,
   relative to the immediate dominator of its block.  */
te_node *
lift_phi (lifter *l, gphi *phi)
{
  basic_block bb = gimple_bb (phi);
  if (bb->loop_father->header == bb)
    {
      te_node *r = expand_scalar (l, phi);
      if (r || l->failed)
        return r;
      tree var = SSA_NAME_VAR (gimple_phi_result (phi));
      /* Once per scalar, at its first read, not at every statement
         that reads it.  */
      if (already_reported (l, var && DECL_NAME (var)
                                   ? DECL_SOURCE_LOCATION (var)
                                   : loop_location (bb->loop_father)))
        {
          l->failed = true;
          return NULL;
        }
      if (var && DECL_NAME (var))
        error_at (l->loc, "loop-carried scalar %qD (a reduction or "
                          "recurrence) is not supported yet",
                  var);
      else
        error_at (l->loc, "loop-carried scalar (a reduction or recurrence) "
                          "is not supported yet");
      inform (l->loc, "the gradient would need its value in every "
                      "iteration, which the next one overwrites; keep "
                      "each iteration's value in an array element "
                      "(s[i] = s[i - 1] + ...), or reset it at the start "
                      "of every iteration");
      l->failed = true;
      return NULL;
    }
  return lift_join (l, phi);
}

/* A PHI that joins the arms of a condition (not a loop's header), float
   or integer (a clamped index, i > 0 ? i - 1 : 0): a select over the path
   conditions of its incoming edges, relative to the immediate dominator
   of its block.  */
te_node *
lift_join (lifter *l, gphi *phi)
{
  basic_block bb = gimple_bb (phi);
  bool fl = !INTEGRAL_TYPE_P (TREE_TYPE (gimple_phi_result (phi)));
  basic_block top = get_immediate_dominator (CDI_DOMINATORS, bb);
  te_node *r = NULL;
  for (int i = gimple_phi_num_args (phi) - 1; i >= 0; i--)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      tree arg = gimple_phi_arg_def (phi, i);
      te_node *v = fl ? lift_float (l, arg) : lift_int (l, arg);
      te_node *g = block_guard (l, e->src, top);
      te_node *c = g ? edge_condition (l, e) : NULL;
      if (!v || !g || !c)
        return NULL;
      r = r ? te_select (l->ctx, te_binary (l->ctx, TE_AND, g, c), v, r) : v;
    }
  return r;
}


} // namespace tg_lift

/* lift.cc -- from the GIMPLE of a kernel to a TE program.

   Before (GIMPLE after "ssa", any -O level):
       <bb 3>: _1 = (long unsigned) i_2; _3 = x_9(D) + _1 * 8; _4 = *_3;
               _5 = tanh (_4); ... *_8 = _5;  i_11 = i_2 + 1;
       <bb 4>: i_2 = PHI <0(2), i_11(3)>; if (i_2 < n_7(D)) goto <bb 3>;
   After:
       stage 0: for i < n:  y[i] = tanh (x[i]);

   1. Number the statements in a reverse post-order in which every loop is
      contiguous: program order for structured code.
   2. Each store is a statement of the stage of its innermost loop (a new
      stage whenever the previous one belongs to another loop).  Each loop
      of the nest is a counter k running from 0 to its trip count: E - B
      for for (i = B; i < E; i++), (E - B + S - 1) / S for a step S,
      else from number_of_latch_executions (plus one when the exit test
      comes after the store).
   3. An address (lift-index.cc) is the source's own arithmetic, with SCEV
      for what the source does not spell out (counters, pointer
      increments: {base, +, step}_loop becomes base + step * k); gathers
      through index arrays are loads in the index.  A counter read after
      its loop (stepped by hand, i += 8, where a remainder loop goes on)
      is base + step * N, N its loop's trip count; an integer a loop
      counts (cnt++ under a condition) is an integer sum over it.  The base names the
      tensor (a parameter, a local array); the byte offset divided by the
      element size is the index, in canonical form, affine in the
      counters.
   4. A stored value (lift-value.cc) follows its SSA definitions:
      arithmetic, conversions, math calls, loads; a PHI of a join block
      is a select on the path conditions of its incoming edges; the header
      PHI of an inner loop whose value is used after it is a reduction.
   5. A store that runs under a condition is guarded by the disjunction of
      its block's path conditions; stores to the same element in one
      iteration are merged into one statement with selects, and a load of
      an element stored earlier in the iteration reads the stored value.
   6. memset (p, 0, n) and memcpy (p, q, n) of floating elements are a
      stage of their own: the loops around the call and one more over
      the n / size elements (lift_memory_call).
   7. A call of another differentiable kernel of the file copies its
      program in at that point (lib/passes/inline.c), inside the loops around
      the call; a call of a kernel whose gradient is a function of its
      own (hand-written, or of another file) is a call stage.
   8. The checks sanitizers put in (a branch to a handler that reports,
      .UBSAN_BOUNDS) are read past, as if they were not there
      (lift-check.cc).

   Limits: loop-carried scalars other than reductions and tapes, integers
   a loop changes other than its counter that are read inside it (a
   compaction y[cnt++]) or that are no count, switch statements,
   inline assembly, OpenMP regions (a C kernel is lifted from its serial
   twin instead, omp.cc) are refused, and so are calls under a
   condition, and inside loops calls stages or values returned, and loops
   with more than one exit (refused at the break, goto or return that
   leaves early, lift-exit.cc).  */

#include "lift-internal.h"

#include <string.h>

using namespace tg_lift;

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


namespace tg_lift
{

/* ---- stages ------------------------------------------------------------- */

void
set_var_loop (lifter *l, int var, class loop *loop)
{
  te_program_set_var_loop (l->p, var, loop->num);
  for (gphi_iterator gi = gsi_start_phis (loop->header); !gsi_end_p (gi);
       gsi_next (&gi))
    {
      tree r = gimple_phi_result (gi.phi ());
      if (SSA_NAME_VAR (r) && omp_parallel_var (SSA_NAME_VAR (r)))
        te_program_set_parallel_loop (l->p, loop->num);
    }
}

location_t
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
   down with > and >=, or stepped by a constant S: i += 8), whose exit
   test at its header comes first, the number of times its body runs:
   E - B (+ 1), (E - B + S - 1) / S, which is zero or negative exactly
   when the body never runs.  NULL for any other form.  */
te_node *
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
  else if (step > 1 && (code == LT_EXPR || code == LE_EXPR))
    /* for (i = B; i < E; i += S): ceil ((E - B) / S) when E > B, and
       not positive otherwise, with C's truncating division; (E - B) / S
       + 1 for <=.  */
    n = te_div (ctx, te_add (ctx, te_sub (ctx, bound, base),
                             te_int (ctx, code == LT_EXPR ? step - 1 : step)),
                te_int (ctx, step));
  else if (step < -1 && (code == GT_EXPR || code == GE_EXPR))
    n = te_div (ctx, te_add (ctx, te_sub (ctx, base, bound),
                             te_int (ctx, code == GT_EXPR ? -step - 1 : -step)),
                te_int (ctx, -step));
  else
    return NULL;
  return te_canon_int (ctx, n);
}

/* The number of times block BB of LOOP runs per entry of LOOP.  */
te_node *
loop_extent (lifter *l, class loop *loop, basic_block bb)
{
  edge exit = single_exit (loop);
  location_t saved = l->loc;
  l->loc = loop_location (loop);
  if (!exit)
    return fail_early_exit (l, loop);
  bool exit_first
      = exit->src != bb && dominated_by_p (CDI_DOMINATORS, bb, exit->src);
  if (exit_first && exit_test_first (loop, exit))
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
bool
enter_stage (lifter *l, basic_block bb, location_t loc)
{
  class loop *loop = bb->loop_father;
  if (l->cur && l->cur->loop == loop && !l->cur->closed
      && l->cur->index == l->p->nstages - 1)
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
      set_var_loop (l, s->vars[i], s->chain[i]);
    }
  for (int i = 0; i < s->depth; i++)
    {
      basic_block counted = i + 1 < s->depth ? s->chain[i + 1]->header : bb;
      te_node *ext = loop_extent (l, s->chain[i], counted);
      if (!ext)
        return false;
      /* Exact, like the indices it bounds: a loop whose count wraps in
         32 bits would run far outside its arrays.  */
      ext = te_canon_int (l->ctx, te_exact_index (l->ctx, ext));
      te_stage_add_loop (&l->p->stages[s->index], s->vars[i], ext);
    }
  ts = &l->p->stages[s->index];
  ts->nest = s->depth ? s->chain[0]->num : -1 - s->index;
  for (int i = 0; i < s->depth; i++)
    ts->loop_ids[i] = s->chain[i]->num;
  return true;
}

/* The guard of a statement in BB: its path condition inside each loop of
   the nest, and at the top level inside the function.  */
te_node *
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
void
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
        old->pos = l->uid;
        return;
      }
  if (s->nstmts == 64)
    {
      fail (l, "too many stores in one loop nest");
      return;
    }
  l->cur->store_uid[s->nstmts] = l->uid;
  te_stmt *st = te_stage_add_stmt (l->p, s, t, index, TE_SET, value, guard,
                                   l->loc);
  st->pos = st->pos_first = l->uid;
}

/* A whole local array of floating elements set to zero by its
   initializer (float acc[8] = {0}: GIMPLE's acc = {}), stored as one
   zero per element at constant indices, as acc[0] = 0; acc[1] = 0; ...
   would be.  False when ST is no such store.  */
static bool
zero_array (lifter *l, gassign *st, basic_block bb)
{
  tree lhs = gimple_assign_lhs (st), rhs = gimple_assign_rhs1 (st);
  tree type = TREE_TYPE (lhs);
  te_type et;
  if (TREE_CODE (rhs) != CONSTRUCTOR || CONSTRUCTOR_NELTS (rhs) != 0
      || TREE_CODE (type) != ARRAY_TYPE
      || !float_te_type (TREE_TYPE (type), &et)
      || !TYPE_SIZE_UNIT (type) || !tree_fits_shwi_p (TYPE_SIZE_UNIT (type)))
    return false;
  int64_t n = tree_to_shwi (TYPE_SIZE_UNIT (type))
              / tree_to_shwi (TYPE_SIZE_UNIT (TREE_TYPE (type)));
  if (n < 1 || n > 64)
    return false;
  te_tensor *t;
  te_node *index;
  tree first = build4 (ARRAY_REF, TREE_TYPE (type), lhs, size_zero_node,
                       NULL_TREE, NULL_TREE);
  if (!lift_access (l, first, &t, &index))
    return true;
  te_node *g = stmt_guard (l, bb);
  if (!g)
    return true;
  for (int64_t k = 0; k < n; k++)
    add_store (l, t, te_canon_int (l->ctx, te_add (l->ctx, index,
                                                   te_int (l->ctx, k))),
               te_float (l->ctx, et, 0), g);
  return true;
}

/* The element of floating type ET that MEM_REF REF's bytes hold at
   element K.  */
static tree
element_of (tree ref, tree et, int k)
{
  tree off = TREE_OPERAND (ref, 1);
  return build2 (MEM_REF, et, TREE_OPERAND (ref, 0),
                 build_int_cst (TREE_TYPE (off),
                                tree_to_shwi (off)
                                    + k * tree_to_shwi (TYPE_SIZE_UNIT (et))));
}

static void copy_loop (lifter *l, basic_block bb, te_tensor *dst,
                       te_node *d0, te_tensor *src, te_node *s0, te_node *n,
                       const char *name);

/* A memcpy of a few bytes that GCC folded into an integer load and store
   (_1 = MEM <unsigned long> [q]; MEM <unsigned long> [p] = _1;), or a
   store of integer zero over floating elements: a copy of the elements
   they cover, p[k] = q[k], as memcpy and memset are (a loop of its own,
   also for one element).  False when ST is no such store.  */
static bool
folded_copy (lifter *l, gassign *st, basic_block bb)
{
  tree lhs = gimple_assign_lhs (st), rhs = gimple_assign_rhs1 (st);
  tree type = TREE_TYPE (lhs);
  if (TREE_CODE (lhs) != MEM_REF || !INTEGRAL_TYPE_P (type)
      || !tree_fits_shwi_p (TREE_OPERAND (lhs, 1))
      || !tree_fits_shwi_p (TYPE_SIZE_UNIT (type)))
    return false;
  tree src = NULL_TREE;
  gimple *def = NULL;
  if (TREE_CODE (rhs) == SSA_NAME)
    {
      def = SSA_NAME_DEF_STMT (rhs);
      if (!is_gimple_assign (def) || !gimple_assign_load_p (def)
          || TREE_CODE (gimple_assign_rhs1 (def)) != MEM_REF
          || !tree_fits_shwi_p (TREE_OPERAND (gimple_assign_rhs1 (def), 1)))
        return false;
      src = gimple_assign_rhs1 (def);
    }
  else if (!integer_zerop (rhs))
    return false;
  te_tensor *t;
  te_node *off;
  if (!lift_pointer (l, build_fold_addr_expr (lhs), &t, &off))
    return true;
  if (!te_type_is_float (t->type))
    return false;
  tree et = te_tree_type (t->type);
  int64_t es = tree_to_shwi (TYPE_SIZE_UNIT (et));
  int64_t bytes = tree_to_shwi (TYPE_SIZE_UNIT (type));
  if (bytes % es)
    return false;
  te_tensor *dt, *stt = NULL;
  te_node *d0, *s0 = NULL;
  l->cur = NULL;
  if (enter_stage (l, bb, l->loc)
      && lift_access (l, element_of (lhs, et, 0), &dt, &d0)
      && (!src || lift_access (l, element_of (src, et, 0), &stt, &s0)))
    copy_loop (l, bb, dt, d0, stt, s0, te_int (l->ctx, bytes / es),
               src ? "memcpy" : "memset");
  return true;
}

/* Is T, which a store writes, of floating elements?  Refused (false)
   when not.  */
static bool
written_float (lifter *l, const te_tensor *t)
{
  if (te_type_is_float (t->type))
    return true;
  error_at (l->loc, "integer array %qs is written; a differentiable "
                    "kernel may only read integer arrays",
            t->name);
  l->failed = true;
  return false;
}

void
lift_store (lifter *l, gassign *st)
{
  basic_block bb = gimple_bb (st);
  if (!enter_stage (l, bb, l->loc))
    return;
  te_tensor *t;
  te_node *index;
  tree lhs = gimple_assign_lhs (st);
  if (zero_array (l, st, bb) || folded_copy (l, st, bb))
    return;
  if (!lift_access (l, lhs, &t, &index) || !written_float (l, t))
    return;
  te_node *v = lift_float (l, gimple_assign_rhs1 (st));
  te_node *g = v ? stmt_guard (l, bb) : NULL;
  if (!v || !g)
    return;
  add_store (l, t, index, te_cast (l->ctx, t->type, v), g);
}

void
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

/* The arguments of a call being lifted, an element for each and one
   spare, all zero at first: the KINDS and element TYPES of the
   parameters, and what lift_call_args makes of them, a value in ARGS or
   a tensor of the caller in TENSORS and an element offset in OFFSETS.  */
struct call_args
{
  te_param_kind *kinds;
  te_type *types;
  te_node **args;
  te_tensor **tensors;
  te_node **offsets;
};

/* Allocate CA for N arguments, with the kinds and types of the
   parameters of SRC if not NULL.  */
static void
call_args_init (call_args *ca, int n, const te_program *src)
{
  ca->kinds = XCNEWVEC (te_param_kind, n + 1);
  ca->types = XCNEWVEC (te_type, n + 1);
  ca->args = XCNEWVEC (te_node *, n + 1);
  ca->tensors = XCNEWVEC (te_tensor *, n + 1);
  ca->offsets = XCNEWVEC (te_node *, n + 1);
  for (int i = 0; src && i < n; i++)
    {
      ca->kinds[i] = src->params[i].kind;
      ca->types[i] = src->params[i].type;
    }
}

static void
call_args_free (call_args *ca)
{
  XDELETEVEC (ca->kinds);
  XDELETEVEC (ca->types);
  XDELETEVEC (ca->args);
  XDELETEVEC (ca->tensors);
  XDELETEVEC (ca->offsets);
}

/* The arguments of CALL, into CA, for parameters of the kinds and types
   CA holds: an integer or floating value, a pointer as a tensor of the
   caller and an element offset.  */
static bool
lift_call_args (lifter *l, gcall *call, call_args *ca)
{
  int n = gimple_call_num_args (call);
  for (int i = 0; i < n && !l->failed; i++)
    {
      tree a = gimple_call_arg (call, i);
      switch (ca->kinds[i])
        {
        case TE_PK_INT:
          ca->args[i] = lift_int (l, a);
          if (ca->args[i])
            ca->args[i] = te_cast (l->ctx, TE_I64, ca->args[i]);
          break;
        case TE_PK_FLOAT:
          ca->args[i] = lift_float (l, a);
          break;
        case TE_PK_PTR_FLOAT:
        case TE_PK_PTR_INT:
          {
            te_node *off;
            if (!lift_pointer (l, a, &ca->tensors[i], &off))
              break;
            te_type type = ca->types[i];
            int64_t size = type == TE_F64 || type == TE_I64 ? 8 : 4;
            off = te_canon_int (l->ctx, off);
            ca->offsets[i] = bytes_to_elements (l->ctx, off, size);
            if (!ca->offsets[i])
              ca->offsets[i] = te_div (l->ctx, off, te_int (l->ctx, size));
            break;
          }
        }
    }
  return !l->failed;
}

/* Is the pointee of pointer type TYPE (an array's elements) const?  */
static bool
pointee_const (tree type)
{
  tree t = TREE_TYPE (type);
  while (TREE_CODE (t) == ARRAY_TYPE)
    t = TREE_TYPE (t);
  return TYPE_READONLY (t);
}

/* A call of CALLEE whose gradient GRAD is a function, written by the
   user or compiled in another file: a call stage, which the gradient
   reverses by calling GRAD (lib/ad/ad.c).  A pointer to const is read; any
   other pointer to floating values is taken to be an output, written
   and not read, unless CALLEE's program here says otherwise.  A
   floating argument is first stored into a one-element local array,
   where its adjoint arrives.  */
static void
lift_gradient_call (lifter *l, gcall *call, tree callee, tree grad)
{
  int n = gimple_call_num_args (call);
  call_args ca;
  call_args_init (&ca, n, NULL);
  bool *writes = XCNEWVEC (bool, n + 1);
  tree rt = TREE_TYPE (TREE_TYPE (callee));
  te_type ret_type = TE_BOOL;
  int i = 0;
  for (tree t = TYPE_ARG_TYPES (TREE_TYPE (callee));
       t && !VOID_TYPE_P (TREE_VALUE (t)) && !l->failed;
       t = TREE_CHAIN (t), i++)
    if (i >= n
        || !abi_classify (TREE_VALUE (t), &ca.kinds[i], &ca.types[i]))
      {
        error_at (l->loc, "call to %qD cannot be differentiated: its "
                          "parameter %d has type %qT",
                  callee, i + 1, TREE_VALUE (t));
        l->failed = true;
      }
    else
      writes[i] = ca.kinds[i] == TE_PK_PTR_FLOAT
                  && !pointee_const (TREE_VALUE (t));
  if (!l->failed && (i != n || stdarg_p (TREE_TYPE (callee))
                     || (!VOID_TYPE_P (rt) && !float_te_type (rt, &ret_type))))
    {
      error_at (l->loc, "call to %qD cannot be differentiated: a kernel "
                        "takes a fixed list of parameters and returns "
                        "void, float or double",
                callee);
      l->failed = true;
    }
  /* What CALLEE's own program says of its pointers.  */
  te_program **cp = kernel_programs ? kernel_programs->get (callee) : NULL;
  for (int k = 0; cp && *cp && k < n && k < (*cp)->nparams && !l->failed; k++)
    {
      const te_tensor *pt = (*cp)->params[k].tensor;
      if (ca.kinds[k] != TE_PK_PTR_FLOAT || !pt)
        continue;
      if (pt->role == TE_ROLE_INOUT)
        {
          error_at (l->loc, "call to %qD cannot be differentiated yet: it "
                            "reads and writes %qs",
                    callee, pt->name);
          l->failed = true;
        }
      writes[k] = pt->role == TE_ROLE_OUTPUT;
    }
  if (!l->failed)
    lift_call_args (l, call, &ca);
  te_ctx *ctx = l->ctx;
  te_call *c = NULL;
  char name[256];
  if (!l->failed)
    {
      c = (te_call *) te_alloc (ctx, sizeof *c);
      c->name = te_strdup (ctx, IDENTIFIER_POINTER (DECL_NAME (callee)));
      c->grad_name = te_strdup (ctx, IDENTIFIER_POINTER (DECL_NAME (grad)));
      c->ctypes = (const char **) te_alloc (ctx, (n + 1) * sizeof (char *));
      int k = 0;
      for (tree t = TYPE_ARG_TYPES (TREE_TYPE (callee)); k < n;
           t = TREE_CHAIN (t), k++)
        {
          char *str = print_generic_expr_to_str (TREE_VALUE (t));
          c->ctypes[k] = te_strdup (ctx, str);
          free (str);
        }
      c->fn = callee;
      c->grad_fn = grad;
      c->nargs = n;
      c->args = (te_call_arg *) te_alloc (ctx, (n + 1) * sizeof *c->args);
    }
  for (int k = 0; c && k < n && !l->failed; k++)
    {
      te_call_arg *a = &c->args[k];
      a->kind = ca.kinds[k];
      a->writes = writes[k];
      if (ca.kinds[k] == TE_PK_INT)
        a->value = ca.args[k];
      else if (ca.kinds[k] == TE_PK_FLOAT)
        {
          /* arg = value; at the top level, before the call.  */
          snprintf (name, sizeof name, "%s.arg%d", c->name, k + 1);
          a->tensor = te_program_add_tensor (l->p, name, ca.types[k],
                                             TE_TK_LOCAL, -1, l->loc);
          a->tensor->size = te_int (ctx, 1);
          a->offset = te_int (ctx, 0);
          a->value = te_load (ctx, a->tensor, a->offset);
          if (!enter_stage (l, gimple_bb (call), l->loc))
            break;
          add_store (l, a->tensor, a->offset,
                     te_cast (ctx, ca.types[k], ca.args[k]),
                     te_bool (ctx, true));
        }
      else
        {
          a->tensor = ca.tensors[k];
          a->offset = ca.offsets[k];
          for (int j = 0; j < k; j++)
            if (c->args[j].tensor == a->tensor
                && ca.kinds[j] == TE_PK_PTR_FLOAT
                && ca.kinds[k] == TE_PK_PTR_FLOAT)
              {
                error_at (l->loc, "%qs is passed twice to %qD; the "
                                  "gradient cannot be differentiated "
                                  "through overlapping arguments",
                          a->tensor->name, callee);
                l->failed = true;
              }
        }
    }
  if (c && !l->failed)
    {
      if (ret_type != TE_BOOL)
        {
          snprintf (name, sizeof name, "%s.return", c->name);
          c->ret = te_program_add_tensor (l->p, name, ret_type, TE_TK_LOCAL,
                                          -1, l->loc);
          c->ret->size = te_int (ctx, 1);
          tree lhs = gimple_call_lhs (call);
          if (lhs && TREE_CODE (lhs) == SSA_NAME)
            l->call_results->put (lhs, te_load (ctx, c->ret, te_int (ctx, 0)));
        }
      te_stage *s = te_program_add_stage (l->p, l->loc);
      s->call = c;
      s->nest = -1 - (l->p->nstages - 1);
      l->cur = NULL; /* what follows is a new stage */
    }
  call_args_free (&ca);
  XDELETEVEC (writes);
}

/* A call of CALLEE, another differentiable kernel: inlined when this
   file has its program and tensorgrad makes its gradient; a call of its
   gradient when that is a function of its own.  */
static void lift_kernel_call_1 (lifter *l, gcall *call, tree callee);

void
lift_kernel_call (lifter *l, gcall *call, tree callee)
{
  lift_kernel_call_1 (l, call, callee);
  /* A refused call's value, where it is used, is not refused again.  */
  tree lhs = gimple_call_lhs (call);
  if (l->failed && lhs && TREE_CODE (lhs) == SSA_NAME
      && !l->call_results->get (lhs))
    l->call_results->put (lhs, te_float (l->ctx, TE_F64, 0));
}

/* The remembered program of CALLEE when it is a helper: a kernel without
   a gradient of its own that returns an expression of its scalar
   parameters (a sigmoid); NULL otherwise.  */
static const te_program *
helper_program (tree callee)
{
  te_program **sp = kernel_programs ? kernel_programs->get (callee) : NULL;
  if (!sp || !*sp || (abi_is_kernel (callee) && custom_gradient (callee))
      || !te_program_is_value (*sp))
    return NULL;
  return *sp;
}

void
helper_refused (tree fn)
{
  te_program **sp = kernel_programs ? kernel_programs->get (fn) : NULL;
  if (!sp)
    inform (DECL_SOURCE_LOCATION (fn), "the body of %qD is not in sight",
            fn);
  else if (*sp)
    {
      const char *local = NULL;
      for (int i = 0; i < (*sp)->ntensors && !local; i++)
        if ((*sp)->tensors[i]->kind == TE_TK_LOCAL)
          local = (*sp)->tensors[i]->name;
      char name[128];
      if (local)
        {
          snprintf (name, sizeof name, "%s", local);
          te_user_names (name);
          inform (DECL_SOURCE_LOCATION (fn),
                  "a function is substituted where it is called only when "
                  "its value is one expression of its parameters; %qD writes "
                  "the local array %qs",
                  fn, name);
        }
      else
        inform (DECL_SOURCE_LOCATION (fn),
                "a function is substituted where it is called only when its "
                "value is one expression of its parameters");
    }
  /* Otherwise its own errors were reported where it is defined.  */
}

te_node *
lift_helper_call (lifter *l, gcall *call)
{
  tree callee = gimple_call_fndecl (call);
  const te_program *src = callee ? helper_program (callee) : NULL;
  if (!src || (int) gimple_call_num_args (call) != src->nparams)
    return NULL;
  call_args ca;
  call_args_init (&ca, src->nparams, src);
  te_node *v = NULL;
  if (lift_call_args (l, call, &ca))
    v = te_program_inline_value (l->p, src, ca.args);
  call_args_free (&ca);
  return v;
}

/* Can a call of CALLEE be differentiated at all: set *GRAD to its
   gradient function, hand-written or declared, or to NULL_TREE when it
   is a kernel defined in this file, to be inlined.  False, reported,
   when it is neither.  */
static bool
call_gradient (lifter *l, tree callee, tree *grad)
{
  bool defined = abi_is_kernel (callee) && DECL_INITIAL (callee)
                 && DECL_INITIAL (callee) != error_mark_node;
  *grad = defined ? custom_gradient (callee) : abi_declared_grad (callee);
  if (!defined && !*grad)
    {
      error_at (l->loc, "call to %qD cannot be differentiated: it is not "
                        "defined in this file and no %<%s_grad%> is declared",
                callee, IDENTIFIER_POINTER (DECL_NAME (callee)));
      inform (l->loc, "declare its gradient, for example by including the "
                      "header that %<-fplugin-arg-tensorgrad-header=FILE%> "
                      "wrote where it was compiled");
      l->failed = true;
      return false;
    }
  return true;
}

/* Can the call of CALLEE, in block BB (inside a loop when IN_LOOP), be
   lifted where it stands: it always runs, and inside a loop it is
   inlined (GRAD, its gradient function, is NULL_TREE) and returns
   nothing?  False, reported, when not.  */
static bool
call_placement_ok (lifter *l, basic_block bb, bool in_loop, tree callee,
                   tree grad)
{
  if (grad && in_loop)
    {
      error_at (l->loc, "a call to %qD, whose gradient is a function of its "
                        "own, inside a loop is not supported yet",
                callee);
      l->failed = true;
      return false;
    }
  /* Any other call has effects: it must always run.  */
  te_node *g = in_loop ? stmt_guard (l, bb)
                       : block_guard (l, bb, single_succ (ENTRY_BLOCK_PTR_FOR_FN (
                                                 l->fun)));
  if (!g)
    return false;
  if (g->op != TE_CONST || !g->u.i)
    {
      error_at (l->loc, "a call to %qD under a condition cannot be "
                        "differentiated yet",
                callee);
      l->failed = true;
      return false;
    }
  if (in_loop && !VOID_TYPE_P (TREE_TYPE (TREE_TYPE (callee))))
    {
      error_at (l->loc, "a call to %qD inside a loop, whose value is used, "
                        "is not supported yet",
                callee);
      inform (l->loc, "make %qD store its result through a pointer",
              callee);
      l->failed = true;
      return false;
    }
  return true;
}

/* The call CALL of CALLEE as a call stage, which the gradient reverses
   by calling GRAD; refused when GRAD does not have the type of CALLEE's
   gradient.  */
static void
lift_call_through_gradient (lifter *l, gcall *call, tree callee, tree grad)
{
  tree expected = abi_expected_grad_type (callee, grad);
  if (expected)
    {
      error_at (l->loc, "call to %qD cannot be differentiated: %qD "
                        "does not have the type of its gradient",
                callee, grad);
      inform (DECL_SOURCE_LOCATION (grad), "expected %qT", expected);
      l->failed = true;
      return;
    }
  lift_gradient_call (l, call, callee, grad);
}

/* The call CALL of CALLEE, a kernel of this file, inlined: its program
   copied in, inside the current stage when IN_LOOP, and its value, if
   used, read from the tensor the copy returns it in.  */
static void
inline_kernel_call (lifter *l, gcall *call, tree callee, bool in_loop)
{
  te_program **cp = kernel_programs ? kernel_programs->get (callee) : NULL;
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
  call_args ca;
  call_args_init (&ca, n, src);
  if (lift_call_args (l, call, &ca))
    {
      te_diag diag;
      memset (&diag, 0, sizeof diag);
      te_tensor *ret = te_program_inline (
          l->p, src, ca.args, ca.tensors, ca.offsets, l->loc,
          in_loop ? &l->p->stages[l->cur->index] : NULL, &diag);
      if (diag.kind != TE_DIAG_NONE)
        fail (l, diag.msg);
      tree lhs = gimple_call_lhs (call);
      if (lhs && ret && TREE_CODE (lhs) == SSA_NAME)
        l->call_results->put (lhs, te_load (l->ctx, ret, te_int (l->ctx, 0)));
      l->cur = NULL; /* what follows is a new stage */
    }
  call_args_free (&ca);
}

static void
lift_kernel_call_1 (lifter *l, gcall *call, tree callee)
{
  basic_block bb = gimple_bb (call);
  bool in_loop = bb->loop_father != current_loops->tree_root;
  /* A helper's value is substituted where it is used (lift-value.cc), in
     the stage of its user, whose counters its arguments use.  */
  tree lhs0 = gimple_call_lhs (call);
  if (lhs0 && TREE_CODE (lhs0) == SSA_NAME && helper_program (callee))
    return;
  /* Inside loops: the stage of those loops, whose counters the
     arguments use and whose loops run around the callee's stages.  */
  if (in_loop && !enter_stage (l, bb, l->loc))
    return;
  tree grad;
  if (!call_gradient (l, callee, &grad)
      || !call_placement_ok (l, bb, in_loop, callee, grad))
    return;
  if (grad)
    lift_call_through_gradient (l, call, callee, grad);
  else
    inline_kernel_call (l, call, callee, in_loop);
}

/* The statement of a memset or memcpy in BB, in the stage just entered
   for it (enter_stage after l->cur = NULL, before its addresses were
   lifted): one more loop, named NAME, over N elements, storing
   DST[D0 + k] = SRC[S0 + k], or 0 when SRC is NULL.  Nothing else joins
   the stage.  */
static void
copy_loop (lifter *l, basic_block bb, te_tensor *dst, te_node *d0,
           te_tensor *src, te_node *s0, te_node *n, const char *name)
{
  te_ctx *ctx = l->ctx;
  te_node *g = stmt_guard (l, bb);
  if (!g)
    return;
  te_stage *s = &l->p->stages[l->cur->index];
  if (s->nloops == TE_MAX_LOOPS)
    {
      fail (l, "loop nest too deep");
      return;
    }
  int k = te_program_new_var (l->p, name);
  te_stage_add_loop (s, k, te_canon_int (ctx, n));
  s->loop_ids[s->nloops - 1] = 0;
  te_node *value = te_float (ctx, dst->type, 0);
  if (src)
    value = te_load (ctx, src, te_canon_int (ctx, te_add (ctx, s0,
                                                          te_var (ctx, k))));
  add_store (l, dst, te_canon_int (ctx, te_add (ctx, d0, te_var (ctx, k))),
             value, g);
  l->cur->closed = true;
}

/* Byte count or offset BYTES as a number of elements of SIZE bytes,
   exact as an index is; NULL when it is no whole number of them.  */
static te_node *
whole_elements (te_ctx *ctx, te_node *bytes, int64_t size)
{
  return bytes_to_elements (
      ctx, te_canon_int (ctx, te_exact_index (ctx, bytes)), size);
}

/* memset (p, 0, n) and memcpy (p, q, n) (also memmove, and the
   _FORTIFY_SOURCE forms) of floating elements: a stage of their own, the
   enclosing loops and one more that runs over the N / size elements,
   storing 0 or q[k] into p[k].  True when CALL is such a call (lifted, or
   refused with an error).  */
static bool
lift_memory_call (lifter *l, gcall *call)
{
  bool set;
  if (gimple_call_builtin_p (call, BUILT_IN_MEMSET)
      || gimple_call_builtin_p (call, BUILT_IN_MEMSET_CHK))
    set = true;
  else if (gimple_call_builtin_p (call, BUILT_IN_MEMCPY)
           || gimple_call_builtin_p (call, BUILT_IN_MEMMOVE)
           || gimple_call_builtin_p (call, BUILT_IN_MEMCPY_CHK)
           || gimple_call_builtin_p (call, BUILT_IN_MEMMOVE_CHK))
    set = false;
  else
    return false;
  const char *name = call_spelling (l->loc, gimple_call_fndecl (call));
  te_ctx *ctx = l->ctx;
  basic_block bb = gimple_bb (call);
  te_tensor *dst, *src = NULL;
  te_node *doff, *soff = NULL;
  /* A stage of its own, whose counters the addresses use: the statement
     has a loop the others lack.  */
  l->cur = NULL;
  if (!enter_stage (l, bb, l->loc))
    return true;
  if (!lift_pointer (l, gimple_call_arg (call, 0), &dst, &doff)
      || (!set && !lift_pointer (l, gimple_call_arg (call, 1), &src, &soff)))
    return true;
  if (gimple_call_lhs (call) && TREE_CODE (gimple_call_lhs (call)) == SSA_NAME
      && !has_zero_uses (gimple_call_lhs (call)))
    {
      error_at (l->loc, "the value %qs returns is used; not supported",
                name);
      l->failed = true;
      return true;
    }
  if (!written_float (l, dst))
    return true;
  if (set && !integer_zerop (gimple_call_arg (call, 1)))
    {
      error_at (l->loc, "%qs of %qs sets bytes that are not zero; only "
                        "zero is a floating value",
                name, dst->name);
      l->failed = true;
      return true;
    }
  if (src && src->type != dst->type)
    {
      error_at (l->loc, "%qs copies %qs into %qs, which has another "
                        "element type",
                name, src->name, dst->name);
      l->failed = true;
      return true;
    }
  if (src == dst)
    {
      error_at (l->loc, "%qs copies within %qs; not supported", name,
                dst->name);
      l->failed = true;
      return true;
    }
  tree et = te_tree_type (dst->type);
  int64_t size = tree_to_shwi (TYPE_SIZE_UNIT (et));
  te_node *bytes = lift_int (l, gimple_call_arg (call, 2));
  if (!bytes)
    return true;
  te_node *n = whole_elements (ctx, te_cast (ctx, TE_I64, bytes), size);
  te_node *d0 = whole_elements (ctx, doff, size);
  te_node *s0 = src ? whole_elements (ctx, soff, size) : NULL;
  if (!n || !d0 || (src && !s0))
    {
      error_at (l->loc, "%qs of %qs does not cover whole elements of %qT",
                name, dst->name, et);
      l->failed = true;
      return true;
    }
  copy_loop (l, bb, dst, d0, src, s0, n, set ? "memset" : "memcpy");
  return true;
}

/* Check a statement that is not a store and not a return.  */
void
check_other (lifter *l, gimple *g)
{
  switch (gimple_code (g))
    {
    case GIMPLE_CALL:
      {
        gcall *c = as_a<gcall *> (g);
        tree fn = gimple_call_fndecl (c);
        /* A sanitizer's check: no part of the mathematics
           (lift-check.cc).  */
        if (check_call_p (c))
          return;
        /* A kernel, a function whose gradient is declared, or one of
           another file called for its effect (which then needs one).  */
        if (fn
            && (abi_is_kernel (fn) || abi_declared_grad (fn)
                || (!DECL_INITIAL (fn) && !fndecl_built_in_p (fn)
                    && !gimple_call_lhs (c))))
          {
            lift_kernel_call (l, c, fn);
            return;
          }

        if (gimple_call_builtin_p (c, BUILT_IN_ALLOCA_WITH_ALIGN)
            || gimple_call_builtin_p (c, BUILT_IN_ALLOCA)
            || gimple_call_builtin_p (c, BUILT_IN_STACK_SAVE)
            || gimple_call_builtin_p (c, BUILT_IN_STACK_RESTORE))
          return; /* variable-length local arrays */
        /* Internal functions are lifted as values where used; a call
           that is no math function with a result is refused here, where
           it stands, even if nothing uses what it returns.  */
        if (gimple_call_internal_p (c) || expect_call_p (c)
            || gimple_call_builtin_p (c, BUILT_IN_UNREACHABLE)
            || gimple_call_builtin_p (c, BUILT_IN_TRAP))
          return;
        if (lift_memory_call (l, c))
          return;
        bool single;
        if (gimple_call_lhs (c) && fn && DECL_NAME (fn)
            && (math_op (IDENTIFIER_POINTER (DECL_NAME (fn)), &single)
                    != TE_NUM_OPS
                || helper_program (fn)))
          return;
        refuse_call (l, fn, NULL);
        /* Where its value is used, it is not refused again.  */
        if (gimple_call_lhs (c) && TREE_CODE (gimple_call_lhs (c)) == SSA_NAME)
          l->call_results->put (gimple_call_lhs (c),
                                te_float (l->ctx, TE_F64, 0));
        return;
      }
    case GIMPLE_ASM:
      fail (l, "inline assembly cannot be differentiated");
      return;
    case GIMPLE_SWITCH:
      /* Its cases are the conditions of the edges out of it
         (switch_condition).  */
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
bool
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

} // namespace tg_lift

te_program *
lift_function (function *fun, te_ctx *ctx, bool nonnull)
{
  lifter l;
  memset (&l, 0, sizeof l);
  l.fun = fun;
  l.ctx = ctx;
  l.nonnull = nonnull;
  l.p = te_program_new (ctx, IDENTIFIER_POINTER (DECL_NAME (fun->decl)));
  hash_map<tree, te_node *> memo, call_results, tapes;
  hash_map<tree, te_tensor *> tensors;
  l.memo = &memo;
  l.tensors = &tensors;
  l.call_results = &call_results;
  l.tapes = &tapes;
  if (!lift_signature (&l))
    return NULL;
  hide_check_exits (fun);

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
  /* An OpenMP region was outlined before SSA: the loops are gone into
     another function (a kernel of a C file is lifted from its serial
     twin instead, omp.cc).  */
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
            /* In C, omp.cc made a serial twin of a kernel with
               directives, and this function is a helper or a C++
               kernel.  */
            if (c_dialect_cxx ())
              error_at (loc, "OpenMP directives in a differentiable C++ "
                             "function are not supported yet");
            else
              error_at (loc, "OpenMP directives in a function a kernel "
                             "calls are not supported");
            inform (loc, "a kernel of a C file may use %<parallel%>, %<for%> "
                         "and %<simd%> loops");
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
          l.stmt_loc = l.loc;
          l.failed = false;
          if (gimple_store_p (g) && is_gimple_assign (g))
            {
              tree lhs = gimple_assign_lhs (g);
              tree base = get_base_address (lhs);
              if (base && VAR_P (base)
                  && (TREE_STATIC (base) || DECL_EXTERNAL (base)))
                {
                  error_at (l.loc, "a store to %qD, which has static "
                                   "storage, cannot be differentiated",
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
  if (any_failed)
    return NULL;
  te_program_drop_unread_statics (l.p);
  return l.p;
}

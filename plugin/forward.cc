/* forward.cc -- a matrix product in the kernel itself as a CBLAS call
   (-fplugin-arg-tensorgrad-blas-forward) or as the tiled product
   (-fplugin-arg-tensorgrad-tiled-forward, no library).

   Before (the kernel, GIMPLE after "ssa"):

       for (i = 0; i < n; i++)          stage 0: for i < n, j < m:
         for (j = 0; j < m; j++)          y[j + m*i] = sum (p < k; b[j];
           {                                 x[p + k*i] * w[j + m*p]);
             acc = b[j];
             for (p = 0; p < k; p++)
               acc += x[i*k + p] * w[p*m + j];
             y[i*m + j] = acc;
           }

   After:

       dense.blas.0 (n, k, m, x, w, b, y);  the nest unreachable, deleted

   (a product into a local array h gets h's address as a last argument,
   and an activation, y = tanh (acc), a loop after the call).

   with dense.blas.0 a static function the emitter prints from
   te_gemm_forward's program: y[...] = b[j] over i, j, then
   cblas_sgemm (CblasRowMajor, ..., n, m, k, 1, x, k, w, m, 1, y, m) when
   the sizes suit the BLAS at run time, else the loops adding the
   product in the source's order.  With tiled-forward the program is
   tiled (te_program.tiled): the helper calls the object's static
   tensorgrad.tiled.f32/f64 (plugin/tiled.cc, lib/back/tiled.h) when
   the sizes pass te_tiled's test, the loops otherwise, as a gradient's
   products do without blas; the rest is the same.

   1. Only a kernel whose gradient was made, so its program holds
      every store it does.  An OpenMP kernel's program is lifted from its
      serial twin (omp.cc), whose nests are GCC's outlined regions in
      the kernel: see step 5.
   2. For each stage of the program as lifted (a copy made before the
      passes rewrite it, which holds what the source's nests compute),
      te_gemm_forward (lib/ir/gemm.c) reads it as a product over the
      kernel's arrays, C = f (init + s A B), in batch loops or not, or
      over several summed loops as im2col (a convolution: its input's
      patches packed into a temporary the helper allocates): a
      program of the kernel's parameters and one pointer per local
      array it names (te_tensor.decl, the lifter's handle of the
      storage).
   3. The stage's source loops and its sum's are exactly the loops of
      one nest of the kernel (the outermost stage loop and every loop
      inside it), which has one exit and a preheader; a statement under
      a test of sizes (if (k > 2) around the nest) has every condition
      of the nest a loop's exit test, so the test is outside it and
      keeps the call from running as it kept the nest.  Inside it: no
      call but of a math function (tanhf of an activation) or of a
      helper whose value the lifter substitutes, no asm, no
      volatile access, exactly one store (the stage's statement), and
      no value used after it but memory.  Every parameter is a
      register (its value on entry, which the program's indices name,
      is at hand).
   4. The helper gets the kernel's parameter list and the local arrays'
      pointers and is emitted like a gradient (emit_gradient, handed to
      the call graph with them).  The preheader computes each local
      array's address (&t[0] of a fixed-size one, now addressable; the
      pointer of a variable-length one, whose definition dominates the
      nest), calls the helper with the parameters' entry values and
      those, then jumps to the nest's exit; the nest, unreachable, is
      deleted, and the virtual operands renamed.

   5. An OpenMP kernel (the pass lifted its twin): the twin's nest
      passes step 3 and is the one worksharing loop of a parallel region
      that does nothing else (omp_sole_region), and Q names no local
      array (the region's own would be the outlined function's).  Its
      helper runs its stages on OpenMP threads (te_program_parallel, as
      the option parallel asks of a kernel without directives: its
      tiled products each thread on a block of columns, the CBLAS with
      threads of its own), and is noted for the kernel
      (omp_replace_region); the twin is left as it is.  When the pass
      reaches the kernel (after the twin: GCC runs the early passes on
      a function at a time, the twin first), forward_regions replaces
      the GOMP_parallel call that runs the region (its outlined
      function has the region's location) by a call of the helper with
      the kernel's parameters.

   Each stage gets a dump line "blas-forward: stage S (line L): ..."
   saying which nest became a call ("... as cblas_sgemm (n, m, k)", or
   "as tiled (n, m, k)") or why it stays loops.

   Limits: the sum of the call is in the BLAS's order (or the tiled
   product's, blocks of 64 terms), not the source's (documented with
   the options), and a scale inside the sum is applied
   after it; the parameters must not overlap (as for the gradient); a
   product behind a condition on its loops or on data, or a test of
   sizes inside the nest, over a triangle, two sums in one value,
   an array the lifter made (a scalar it expanded), and in an OpenMP
   kernel a product into a local array or a nest beside others in its
   region, stay loops.  */

/* -fplugin-arg-tensorgrad-vector-forward (forward_vectorize, before the
   kernel is gimplified): the kernel's own loops as GCC vectorizes them
   under -ffast-math, where that changes nothing but the last bits.

       float s = 0;                      s sums in vector lanes, added
       for (int i = 0; i < hs; i++)      at the end (-fassociative-math
         s += q[i] * k[i];               -fno-signed-zeros
                                         -fno-trapping-math for the
                                         kernel only: its optimization
                                         node, which GCC's outlined
                                         OpenMP regions copy);
       for (int j = 0; j < m; j++)       expf is vector-math's
         s += expf (x[j] - mx);          declaration (simd, const): GCC
                                         calls _ZGVdN8v_expf (x86_64)

   Not -ffinite-math-only: a NaN or an infinity (a mask's -INFINITY)
   means what it did.  The lifter reads the calls by name (lift_call),
   so the gradient is the same.  Once it is made, forward_minmax takes
   fmax and fmin out of calls (libm's; GCC inlines them only without
   NaNs), with their values:

       float mx = x[0];                  mx' = x[0] unless a NaN, else
       for (int j = 1; j < m; j++)         -INFINITY; any = x[0] is no NaN
         mx = fmaxf (mx, x[j]);          mx' = MAX_EXPR <mx', x[j] unless
                                           a NaN, else -INFINITY>;
                                         any |= x[j] is no NaN  (both
                                           reductions GCC vectorizes)
                                         after: mx = any ? mx' : NaN

       r = fmaxf (a, 0.0f);              r = MAX_EXPR <a unless a NaN
                                           (then 0), 0>

       if (x[j] > mx) mx = x[j];         mx' = MAX_EXPR <mx', x[j] unless
                                           a NaN, else -INFINITY> (start:
                                           mx unless a NaN, -INFINITY);
                                         after: start == start ? mx' : start */

#include "gcc-common.h"
#include "forward.h"
#include "emit.h"
#include "abi.h"
#include "ir/gemm.h"
#include "omp.h"
#include "passes/passes.h"
#include "tree-cfgcleanup.h"

/* The internal attribute (a name no source can spell) holding a
   kernel's optimization node from before vector-forward's.  */
#define FORWARD_OPTIONS "tensorgrad options"

/* Is call G a math function: a builtin of a floating result and scalar
   arguments (its one memory effect errno), vector-forward's form of one,
   an internal function without memory effects, or a helper of the file
   whose value the lifter substitutes (abi.h: an activation written as a
   function, C++'s std::tanh)?  */
static bool
math_call (gimple *g)
{
  if (gimple_call_internal_p (g))
    return !gimple_vdef (g);
  tree fn = gimple_call_fndecl (g);
  if (emit_is_vector_math (fn) || (fn && abi_is_helper (fn)))
    return true;
  if (!gimple_call_builtin_p (g, BUILT_IN_NORMAL)
      || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_call_fntype (g))))
    return false;
  for (unsigned i = 0; i < gimple_call_num_args (g); i++)
    {
      tree t = TREE_TYPE (gimple_call_arg (g, i));
      if (!SCALAR_FLOAT_TYPE_P (t) && !INTEGRAL_TYPE_P (t))
        return false;
    }
  return true;
}

/* Is G a check -fsanitize=undefined put in the nest (an index inside
   its array's bounds, a pointer not null)?  The helper that replaces
   the nest has no such checks: the sanitizer checks the call, not the
   product's accesses (README, blas-forward).  */
static bool
sanitizer_check (gimple *g)
{
  if (!is_gimple_call (g) || !gimple_call_internal_p (g))
    return false;
  switch (gimple_call_internal_fn (g))
    {
    case IFN_UBSAN_BOUNDS:
    case IFN_UBSAN_NULL:
    case IFN_UBSAN_OBJECT_SIZE:
    case IFN_UBSAN_PTR:
      return true;
    default:
      return false;
    }
}

/* Step 3: is ROOT's nest exactly the loops of stage S of P (and its sum
   over RED_LOOP), with one store and nothing live after it?  NULL or
   why not.  */
/* The source loops of the sums in a value (te_walk), into a vector.  */
struct sum_loops
{
  const te_program *p;
  vec<int> *ids;
};

static void
sum_loops_fn (te_node *n, void *data)
{
  sum_loops *s = (sum_loops *) data;
  if (n->op == TE_REDUCE)
    for (int l = 0; l < n->u.red.nloops; l++)
      s->ids->safe_push (te_program_var_loop (s->p, n->u.red.loops[l].var));
}

static const char *
nest_problem (function *fun, class loop *root, const te_program *p,
              const te_stage *s)
{
  auto_vec<int> ids;
  for (int l = 0; l < s->nloops; l++)
    ids.safe_push (s->loop_ids[l]);
  sum_loops sl = { p, &ids };
  te_walk (s->stmts[0].value, sum_loops_fn, &sl);
  unsigned inside = 0;
  for (auto l : loops_list (fun, 0))
    if (l == root || flow_loop_nested_p (root, l))
      {
        if (!ids.contains (l->num))
          return "the nest has other loops";
        inside++;
      }
  if (inside != ids.length ())
    return "its loops are not one nest";
  if (!single_exit (root) || !loop_preheader_edge (root))
    return "the nest has more than one exit";
  /* A statement under a test of sizes: the test must be outside the
     nest, where it still keeps the call from running; inside, every
     condition is a loop's exit test (a sum's tests, the padding of a
     convolution, are selects of the value, not guards).  */
  if (s->stmts[0].guard)
    {
      basic_block *body = get_loop_body (root);
      const char *why = NULL;
      for (unsigned b = 0; b < root->num_nodes && !why; b++)
        {
          gimple *last = last_stmt (body[b]);
          if (!last || gimple_code (last) != GIMPLE_COND)
            continue;
          edge e;
          edge_iterator ei;
          bool exits = false;
          FOR_EACH_EDGE (e, ei, body[b]->succs)
            exits |= loop_exit_edge_p (body[b]->loop_father, e);
          if (!exits)
            why = "the nest tests a condition";
        }
      free (body);
      if (why)
        return why;
    }
  basic_block *bbs = get_loop_body (root);
  int stores = 0;
  const char *why = NULL;
  for (unsigned b = 0; b < root->num_nodes && !why; b++)
    {
      for (gphi_iterator pi = gsi_start_phis (bbs[b]); !gsi_end_p (pi);
           gsi_next (&pi))
        {
          tree res = gimple_phi_result (pi.phi ());
          if (virtual_operand_p (res))
            continue;
          imm_use_iterator it;
          use_operand_p use;
          FOR_EACH_IMM_USE_FAST (use, it, res)
            if (!is_gimple_debug (USE_STMT (use))
                && !flow_bb_inside_loop_p (root, gimple_bb (USE_STMT (use))))
              why = "a value of the nest is used after it";
        }
      for (gimple_stmt_iterator si = gsi_start_bb (bbs[b]); !gsi_end_p (si);
           gsi_next (&si))
        {
          gimple *g = gsi_stmt (si);
          if (is_gimple_debug (g) || sanitizer_check (g))
            continue;
          /* A math function (an activation, which the lifter read as
             an operation) may set errno: the helper calls it too.  */
          bool math = is_gimple_call (g) && math_call (g);
          if ((is_gimple_call (g) && !math) || gimple_code (g) == GIMPLE_ASM)
            why = "the nest calls a function";
          else if (gimple_has_volatile_ops (g))
            why = "the nest has a volatile access";
          if (gimple_vdef (g) && !math)
            stores++;
          ssa_op_iter oi;
          tree def;
          FOR_EACH_SSA_TREE_OPERAND (def, g, oi, SSA_OP_DEF)
            {
              imm_use_iterator it;
              use_operand_p use;
              FOR_EACH_IMM_USE_FAST (use, it, def)
                if (!is_gimple_debug (USE_STMT (use))
                    && !flow_bb_inside_loop_p (root,
                                               gimple_bb (USE_STMT (use))))
                  why = "a value of the nest is used after it";
            }
        }
    }
  free (bbs);
  if (!why && stores != 1)
    why = "the nest stores more than the product";
  return why;
}

/* Step 4: a static function of KERNEL's parameters computing program Q
   (te_gemm_forward's), emitted; NULL if the emitter failed.  */
static tree
make_helper (tree kernel, const te_program *fwd, te_program *q, bool vmath,
             bool keep)
{
  /* The kernel's parameters, then a pointer to the elements of each
     local array Q reads or writes (te_gemm_forward).  */
  auto_vec<tree> types;
  for (tree t = TYPE_ARG_TYPES (TREE_TYPE (kernel)); t && t != void_list_node;
       t = TREE_CHAIN (t))
    types.safe_push (TREE_VALUE (t));
  if ((int) types.length () != fwd->nparams)
    return NULL_TREE;
  for (int i = fwd->nparams; i < q->nparams; i++)
    types.safe_push (build_pointer_type (te_tree_type (q->params[i].type)));
  tree type = build_function_type_array (void_type_node, types.length (),
                                         types.address ());
  /* <kernel's assembler name>.blas.N: unique in the translation unit,
     also for C++ overloads of one name.  */
  tree name = clone_function_name_numbered (kernel, "blas");
  tree decl = build_decl (DECL_SOURCE_LOCATION (kernel), FUNCTION_DECL,
                          name, type);
  SET_DECL_ASSEMBLER_NAME (decl, name);
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  DECL_EXTERNAL (decl) = 0;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  TREE_USED (decl) = 1;
  DECL_CONTEXT (decl) = DECL_CONTEXT (kernel);
  DECL_FUNCTION_SPECIFIC_OPTIMIZATION (decl)
      = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (kernel);
  DECL_FUNCTION_SPECIFIC_TARGET (decl) = DECL_FUNCTION_SPECIFIC_TARGET (kernel);
  te_lowered *lw = te_lower (q);
  if (!lw)
    return NULL_TREE;
  if (dump_file)
    te_lowered_dump (dump_file, lw);
  /* vector-forward: the helper's math calls (the activation after the
     product) libmvec's, as the kernel's others.  */
  bool saved = emit_vector_math;
  emit_vector_math |= vmath;
  /* keep-products: the product into a local array kept for the
     gradient, which takes it under the same key (tensorgrad.cc).  */
  if (keep)
    {
      emit_keep = EMIT_KEEP_PUT;
      emit_keep_kernel = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (kernel));
    }
  bool ok = emit_gradient (decl, q, lw);
  emit_vector_math = saved;
  emit_keep = EMIT_KEEP_NONE;
  te_lowered_free (lw);
  return ok ? decl : NULL_TREE;
}

/* The memory state (a virtual SSA name) on edge E, or NULL.  */
static tree
vdef_on_edge (edge e)
{
  for (gimple_stmt_iterator si = gsi_last_bb (e->src); !gsi_end_p (si);
       gsi_prev (&si))
    if (gimple_vdef (gsi_stmt (si)))
      return gimple_vdef (gsi_stmt (si));
  for (gphi_iterator pi = gsi_start_phis (e->src); !gsi_end_p (pi);
       gsi_next (&pi))
    if (virtual_operand_p (gimple_phi_result (pi.phi ())))
      return gimple_phi_result (pi.phi ());
  return NULL_TREE;
}

/* The memory state entering ROOT's header from its preheader, or
   NULL.  */
static tree
vuse_entering (class loop *root)
{
  edge entry = loop_preheader_edge (root);
  for (gphi_iterator pi = gsi_start_phis (root->header); !gsi_end_p (pi);
       gsi_next (&pi))
    if (virtual_operand_p (gimple_phi_result (pi.phi ())))
      return PHI_ARG_DEF_FROM_EDGE (pi.phi (), entry);
  return NULL_TREE;
}

/* The address of the first element of T's storage (a local array of
   the kernel, te_tensor.decl: its VAR_DECL or the SSA pointer of a
   variable-length one), a pointer to its elements, usable at the end of
   block BB; NULL if it is not at hand there.  */
static tree
local_address (const te_tensor *t, basic_block bb)
{
  tree key = (tree) t->decl;
  tree ptr = build_pointer_type (te_tree_type (t->type));
  if (!key)
    return NULL_TREE;
  if (TREE_CODE (key) == SSA_NAME)
    {
      if (!POINTER_TYPE_P (TREE_TYPE (key)))
        return NULL_TREE;
      gimple *def = SSA_NAME_DEF_STMT (key);
      if (!SSA_NAME_IS_DEFAULT_DEF (key)
          && (!gimple_bb (def)
              || !dominated_by_p (CDI_DOMINATORS, bb, gimple_bb (def))))
        return NULL_TREE;
      return fold_convert (ptr, key);
    }
  if (!VAR_P (key) || TREE_CODE (TREE_TYPE (key)) != ARRAY_TYPE
      || is_global_var (key))
    return NULL_TREE;
  TREE_ADDRESSABLE (key) = 1;
  return fold_convert (ptr, build_fold_addr_expr (key));
}

/* Step 4: call HELPER with KERNEL's parameters' entry values at the end
   of ROOT's preheader, and go on after the nest: the call's memory state
   replaces the one the nest left.  False (nothing changed) when the
   memory states are not at hand.  */
static bool
replace_nest (function *fun, tree kernel, class loop *root, tree helper,
              location_t loc, const te_program *fwd, const te_program *q)
{
  edge entry = loop_preheader_edge (root), exit = single_exit (root);
  basic_block after = exit->dest;
  tree vin = vuse_entering (root), vout = vdef_on_edge (exit);
  if (!vin || !vout)
    return false;
  gimple_stmt_iterator gsi = gsi_last_bb (entry->src);
  auto_vec<tree> args;
  for (tree parm = DECL_ARGUMENTS (kernel); parm; parm = DECL_CHAIN (parm))
    args.safe_push (get_or_create_ssa_default_def (fun, parm));
  for (int i = fwd->nparams; i < q->nparams; i++)
    {
      tree a = local_address (q->params[i].tensor, entry->src);
      if (!a)
        return false;
      args.safe_push (force_gimple_operand_gsi (&gsi, a, true, NULL_TREE,
                                                false, GSI_CONTINUE_LINKING));
    }
  gcall *call = gimple_build_call_vec (helper, args);
  gimple_set_location (call, loc);
  gimple_set_vuse (call, vin);
  tree vdef = make_ssa_name (gimple_vop (fun), call);
  gimple_set_vdef (call, vdef);
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);
  /* The arguments of AFTER's PHIs on the exit edge, for the new edge: a
     value defined before the nest (nest_problem), or the memory state.  */
  auto_vec<tree> phi_args;
  for (gphi_iterator pi = gsi_start_phis (after); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree a = PHI_ARG_DEF_FROM_EDGE (pi.phi (), exit);
      phi_args.safe_push (a == vout ? vdef : a);
    }
  edge e = redirect_edge_and_branch (entry, after);
  unsigned i = 0;
  for (gphi_iterator pi = gsi_start_phis (after); !gsi_end_p (pi);
       gsi_next (&pi), i++)
    add_phi_arg (pi.phi (), phi_args[i], e, UNKNOWN_LOCATION);
  /* What read the nest's memory state after it reads the call's.  */
  imm_use_iterator it;
  gimple *use_stmt;
  FOR_EACH_IMM_USE_STMT (use_stmt, it, vout)
    {
      if (gimple_code (use_stmt) == GIMPLE_PHI
          ? gimple_bb (use_stmt) == after
          : flow_bb_inside_loop_p (root, gimple_bb (use_stmt)))
        continue;
      use_operand_p use;
      FOR_EACH_IMM_USE_ON_STMT (use, it)
        SET_USE (use, vdef);
      update_stmt (use_stmt);
    }
  return true;
}

/* ---- fmax and fmin without calls (vector-forward) -------------------- */

/* Is G a call of fmax, fmaxf, fmin or fminf with a result?  *CODE its
   MAX_EXPR or MIN_EXPR.  */
static bool
minmax_call (gimple *g, enum tree_code *code)
{
  if (!is_gimple_call (g) || !gimple_call_lhs (g)
      || gimple_call_num_args (g) != 2 || gimple_vdef (g))
    return false;
  tree type = TREE_TYPE (gimple_call_lhs (g));
  if (TYPE_MAIN_VARIANT (type) != float_type_node
      && TYPE_MAIN_VARIANT (type) != double_type_node)
    return false;
  switch (gimple_call_combined_fn (g))
    {
    case CFN_BUILT_IN_FMAX:
    case CFN_BUILT_IN_FMAXF:
      *code = MAX_EXPR;
      return true;
    case CFN_BUILT_IN_FMIN:
    case CFN_BUILT_IN_FMINF:
      *code = MIN_EXPR;
      return true;
    default:
      return false;
    }
}

/* X == X ? X : OTHER, appended to SEQ: X unless it is a NaN.  */
static tree
unless_nan (gimple_seq *seq, tree x, tree other)
{
  tree same = gimple_build (seq, EQ_EXPR, boolean_type_node, x, x);
  return gimple_build (seq, COND_EXPR, TREE_TYPE (x), same, x, other);
}

/* The call G, R = fmax (A, B), as R = MAX_EXPR <A', B'> with A' = A
   unless it is a NaN (then B) and B' = B unless it is a NaN (then A):
   a NaN operand gives the other, two give a NaN, as fmax does, and
   MAX_EXPR (whose NaNs GCC leaves unspecified) never sees just one.  */
static void
minmax_inline (gimple_stmt_iterator *gsi, enum tree_code code)
{
  gimple *g = gsi_stmt (*gsi);
  tree a = gimple_call_arg (g, 0), b = gimple_call_arg (g, 1);
  gimple_seq seq = NULL;
  tree a1 = unless_nan (&seq, a, b), b1 = unless_nan (&seq, b, a);
  gimple_seq_set_location (seq, gimple_location (g));
  gsi_insert_seq_before (gsi, seq, GSI_SAME_STMT);
  gassign *r = gimple_build_assign (gimple_call_lhs (g), code, a1, b1);
  gimple_set_location (r, gimple_location (g));
  gsi_replace (gsi, r, false);
}

/* Is every use of NAME outside LOOP in a statement AFTER dominates
   (for a PHI, on an edge from such a block)?  */
static bool
uses_outside_after (tree name, class loop *loop, basic_block after)
{
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, name)
    {
      gimple *u = USE_STMT (use);
      basic_block ub = gimple_bb (u);
      if (flow_bb_inside_loop_p (loop, ub))
        continue;
      if (gphi *phi = dyn_cast<gphi *> (u))
        ub = gimple_phi_arg_edge (phi, PHI_ARG_INDEX_FROM_USE (use))->src;
      if (!dominated_by_p (CDI_DOMINATORS, ub, after))
        return false;
    }
  return true;
}

/* Reset the debug statements that bind NAME.  */
static void
reset_debug_uses (tree name)
{
  imm_use_iterator it;
  gimple *u;
  FOR_EACH_IMM_USE_STMT (u, it, name)
    if (is_gimple_debug (u))
      {
        gimple_debug_bind_reset_value (u);
        update_stmt (u);
      }
}

/* Does NAME have one use in LOOP (not a debug one), USE_STMT?  */
static bool
only_use_in_loop (tree name, class loop *loop, gimple *use_stmt)
{
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, name)
    {
      gimple *u = USE_STMT (use);
      if (!is_gimple_debug (u) && u != use_stmt
          && flow_bb_inside_loop_p (loop, gimple_bb (u)))
        return false;
    }
  return true;
}

/* Replace the uses of OLD outside LOOP (debug ones too) by NEW_NAME,
   but NEW_NAME's own definition's (it may read OLD).  */
static void
replace_outside (tree old, class loop *loop, tree new_name)
{
  imm_use_iterator it;
  gimple *u;
  FOR_EACH_IMM_USE_STMT (u, it, old)
    {
      basic_block ub = gimple_bb (u);
      if (flow_bb_inside_loop_p (loop, ub)
          || u == SSA_NAME_DEF_STMT (new_name))
        continue;
      use_operand_p use;
      FOR_EACH_IMM_USE_ON_STMT (use, it)
        SET_USE (use, new_name);
      update_stmt (u);
    }
}

/* The block *AFTER that LOOP's one exit leads to, its only
   predecessor, when every use of RES (the header's PHI) and L (its
   value on the latch, defined in block DEF) outside LOOP is in blocks
   it dominates; *L_AT_EXIT: DEF dominates the exit (else L has no use
   outside LOOP: every block after LOOP is reached through it).  */
static bool
exit_for_uses (class loop *loop, tree res, tree l, basic_block def,
               basic_block *after, bool *l_at_exit)
{
  edge exit = single_exit (loop);
  if (!exit || !single_pred_p (exit->dest))
    return false;
  *after = exit->dest;
  *l_at_exit = dominated_by_p (CDI_DOMINATORS, exit->src, def);
  return (uses_outside_after (res, loop, *after)
          && uses_outside_after (l, loop, *after));
}

/* The identity of CODE's reduction in TYPE: -INFINITY for MAX_EXPR,
   INFINITY for MIN_EXPR.  */
static tree
reduction_fill (tree type, enum tree_code code)
{
  REAL_VALUE_TYPE inf;
  real_inf (&inf);
  if (code == MAX_EXPR)
    inf = real_value_negate (&inf);
  return build_real (type, inf);
}

/* On edge PRE (before a loop), at LOC: *OK = INIT == INIT (INIT is no
   NaN), with ANY the same as an int when asked; returns INIT unless it
   is a NaN, else FILL: a reduction's start.  */
static tree
start_unless_nan (edge pre, tree init, tree fill, location_t loc, tree *ok,
                  tree *any)
{
  gimple_seq seq = NULL;
  *ok = gimple_build (&seq, EQ_EXPR, boolean_type_node, init, init);
  tree m0 = gimple_build (&seq, COND_EXPR, TREE_TYPE (init), *ok, init,
                          fill);
  if (any)
    *any = gimple_build (&seq, NOP_EXPR, integer_type_node, *ok);
  gimple_seq_set_location (seq, loc);
  gsi_insert_seq_on_edge_immediate (pre, seq);
  return m0;
}

/* The reduction of LOOP whose header PHI is PHI, if its latch value is
   CALL = fmax (PHI, V) (either order) and neither is used in LOOP but
   there, as one GCC's vectorizer sums in lanes: the PHI becomes M, a
   MAX_EXPR reduction of V unless it is a NaN (then -INFINITY; the
   initial value alike), beside A, an OR reduction of "V is no NaN";
   after the loop, where its only exit leads, the value is A ? M : NaN,
   which is fmax's: the largest value that is no NaN, a NaN when all
   are.  Returns true if it rewrote them.  */
static bool
minmax_reduction (class loop *loop, gphi *phi, gimple *call,
                  enum tree_code code)
{
  tree res = gimple_phi_result (phi), l = gimple_call_lhs (call);
  edge pre = loop_preheader_edge (loop), latch = loop_latch_edge (loop);
  if (PHI_ARG_DEF_FROM_EDGE (phi, latch) != l)
    return false;
  tree a0 = gimple_call_arg (call, 0), a1 = gimple_call_arg (call, 1);
  tree v = a0 == res ? a1 : a1 == res ? a0 : NULL_TREE;
  basic_block after;
  bool l_at_exit;
  if (!v || v == res || v == l
      || !only_use_in_loop (res, loop, call)
      || !only_use_in_loop (l, loop, phi)
      || !exit_for_uses (loop, res, l, gimple_bb (call), &after,
                         &l_at_exit))
    return false;
  tree type = TREE_TYPE (res), it = integer_type_node;
  tree fill = reduction_fill (type, code);
  location_t loc = gimple_location (call);

  /* Before the loop.  */
  tree ok0, any0;
  tree m0 = start_unless_nan (pre, PHI_ARG_DEF_FROM_EDGE (phi, pre), fill,
                              loc, &ok0, &any0);
  gimple_seq seq;

  /* The header's PHIs and the body's statements.  */
  gphi *mp = create_phi_node (make_ssa_name (type), loop->header);
  gphi *ap = create_phi_node (make_ssa_name (it), loop->header);
  seq = NULL;
  tree okv = gimple_build (&seq, EQ_EXPR, boolean_type_node, v, v);
  tree vf = gimple_build (&seq, COND_EXPR, type, okv, v, fill);
  tree m2 = make_ssa_name (type);
  gimple_seq_add_stmt (&seq, gimple_build_assign (m2, code,
                                                  gimple_phi_result (mp),
                                                  vf));
  tree ai = gimple_build (&seq, NOP_EXPR, it, okv);
  tree a2 = make_ssa_name (it);
  gimple_seq_add_stmt (&seq, gimple_build_assign (a2, BIT_IOR_EXPR,
                                                  gimple_phi_result (ap),
                                                  ai));
  gimple_seq_set_location (seq, loc);
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
  add_phi_arg (mp, m0, pre, loc);
  add_phi_arg (mp, m2, latch, loc);
  add_phi_arg (ap, any0, pre, loc);
  add_phi_arg (ap, a2, latch, loc);

  /* After it: fmax's value of the PHI (the header's) and of the call
     (where the exit comes after it).  */
  REAL_VALUE_TYPE qnan;
  real_nan (&qnan, "", 1, TYPE_MODE (type));
  tree nan = build_real (type, qnan);
  gimple_stmt_iterator at = gsi_after_labels (after);
  tree outs[2] = { res, l };
  tree ms[2] = { gimple_phi_result (mp), m2 };
  tree as[2] = { gimple_phi_result (ap), a2 };
  for (int k = 0; k < 2; k++)
    {
      if (k == 1 && !l_at_exit)
        break;
      seq = NULL;
      tree some = gimple_build (&seq, NE_EXPR, boolean_type_node, as[k],
                                integer_zero_node);
      tree val = gimple_build (&seq, COND_EXPR, type, some, ms[k], nan);
      gimple_seq_set_location (seq, loc);
      gsi_insert_seq_before (&at, seq, GSI_SAME_STMT);
      replace_outside (outs[k], loop, val);
    }

  /* The old PHI and call, their uses gone (L's only one was the PHI)
     but the loop's debug statements'.  */
  reset_debug_uses (res);
  reset_debug_uses (l);
  gimple_stmt_iterator cg = gsi_for_stmt (call);
  gphi_iterator pg = gsi_for_phi (phi);
  remove_phi_node (&pg, true);
  gsi_remove (&cg, true);
  release_ssa_name (l);
  return true;
}

/* Does A compute the value B does: the same name or constant, a copy
   of it, or the same operation of operands that do, a load the same
   address in the same memory state, within DEPTH definitions?  (The
   branch of `if (x[j] > mx) mx = x[j];' loads x[j] again.)  */
static bool
same_value (tree a, tree b, int depth)
{
  if (a == b)
    return true;
  if (TREE_CODE (a) != SSA_NAME || TREE_CODE (b) != SSA_NAME)
    return (TREE_CODE (a) != SSA_NAME && TREE_CODE (b) != SSA_NAME
            && operand_equal_p (a, b, 0));
  if (depth == 0)
    return false;
  gimple *da = SSA_NAME_DEF_STMT (a), *db = SSA_NAME_DEF_STMT (b);
  if (gimple_assign_ssa_name_copy_p (da))
    return same_value (gimple_assign_rhs1 (da), b, depth - 1);
  if (gimple_assign_ssa_name_copy_p (db))
    return same_value (a, gimple_assign_rhs1 (db), depth - 1);
  if (!is_gimple_assign (da) || !is_gimple_assign (db)
      || gimple_assign_rhs_code (da) != gimple_assign_rhs_code (db)
      || gimple_num_ops (da) != gimple_num_ops (db)
      || gimple_has_volatile_ops (da) || gimple_has_volatile_ops (db)
      || !types_compatible_p (TREE_TYPE (a), TREE_TYPE (b)))
    return false;
  if (gimple_vuse (da) || gimple_vuse (db))
    {
      tree ra = gimple_assign_rhs1 (da), rb = gimple_assign_rhs1 (db);
      return (gimple_assign_load_p (da) && gimple_assign_load_p (db)
              && gimple_vuse (da) == gimple_vuse (db)
              && TREE_CODE (ra) == MEM_REF && TREE_CODE (rb) == MEM_REF
              && types_compatible_p (TREE_TYPE (ra), TREE_TYPE (rb))
              && operand_equal_p (TREE_OPERAND (ra, 1), TREE_OPERAND (rb, 1),
                                  0)
              && same_value (TREE_OPERAND (ra, 0), TREE_OPERAND (rb, 0),
                             depth - 1));
    }
  for (unsigned i = 1; i < gimple_num_ops (da); i++)
    if (!same_value (gimple_op (da, i), gimple_op (db, i), depth - 1))
      return false;
  return true;
}

/* Is every statement of BB one without memory effects or calls whose
   values are used only in BB or by PHI?  */
static bool
dead_without (basic_block bb, gphi *phi)
{
  for (gimple_stmt_iterator si = gsi_start_bb (bb); !gsi_end_p (si);
       gsi_next (&si))
    {
      gimple *g = gsi_stmt (si);
      if (is_gimple_debug (g) || gimple_code (g) == GIMPLE_LABEL)
        continue;
      if (!is_gimple_assign (g) || gimple_vdef (g)
          || gimple_has_volatile_ops (g)
          || TREE_CODE (gimple_assign_lhs (g)) != SSA_NAME)
        return false;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, gimple_assign_lhs (g))
        {
          gimple *u = USE_STMT (use);
          if (!is_gimple_debug (u) && u != phi && gimple_bb (u) != bb)
            return false;
        }
    }
  return true;
}

/* The running maximum of LOOP written as a branch, as llm.c writes it:

       mx = PHI <init, mx'>              (PHI, the header's)
       if (v > mx) goto T; else goto J;  (or mx < v, >=, <=; < for a
       T: ... w = v (a copy, or x[j]          minimum)
                 loaded again)
       J: mx' = PHI <mx (C), w (T)>

   A NaN v is never taken, a NaN start never left: the value is init
   when init is a NaN, else the largest v that is no NaN (and init).  So
   mx becomes a MAX_EXPR reduction of v unless it is a NaN (-INFINITY),
   started at init unless it is a NaN (-INFINITY), the branch never
   taken (CFG cleanup removes T), and after the loop the value is init
   == init ? mx : init.  Returns true if it rewrote them.  */
static bool
branch_reduction (class loop *loop, gphi *phi)
{
  tree res = gimple_phi_result (phi);
  edge pre = loop_preheader_edge (loop), latch = loop_latch_edge (loop);
  tree l = PHI_ARG_DEF_FROM_EDGE (phi, latch);
  if (TREE_CODE (l) != SSA_NAME)
    return false;
  gphi *join = dyn_cast<gphi *> (SSA_NAME_DEF_STMT (l));
  tree type = TREE_TYPE (res);
  if (!join || gimple_phi_num_args (join) != 2
      || !flow_bb_inside_loop_p (loop, gimple_bb (join))
      || (TYPE_MAIN_VARIANT (type) != float_type_node
          && TYPE_MAIN_VARIANT (type) != double_type_node))
    return false;
  /* Which edge keeps mx, which brings w.  */
  int keep = gimple_phi_arg_def (join, 0) == res ? 0
             : gimple_phi_arg_def (join, 1) == res ? 1 : -1;
  if (keep < 0)
    return false;
  edge ek = gimple_phi_arg_edge (join, keep);
  edge en = gimple_phi_arg_edge (join, 1 - keep);
  tree w = gimple_phi_arg_def (join, 1 - keep);
  basic_block c = ek->src, t = en->src;
  if (t == c || !single_pred_p (t) || single_pred (t) != c
      || !single_succ_p (t) || !flow_bb_inside_loop_p (loop, t))
    return false;
  gcond *cond = safe_dyn_cast<gcond *> (last_stmt (c));
  if (!cond || !(single_pred_edge (t)->flags & EDGE_TRUE_VALUE))
    return false;
  /* The condition that takes w: v > mx (a maximum) or v < mx.  */
  enum tree_code cmp = gimple_cond_code (cond);
  tree lhs = gimple_cond_lhs (cond), rhs = gimple_cond_rhs (cond), v;
  if (rhs == res)
    v = lhs;
  else if (lhs == res)
    {
      v = rhs;
      cmp = swap_tree_comparison (cmp);
    }
  else
    return false;
  enum tree_code code = cmp == GT_EXPR || cmp == GE_EXPR ? MAX_EXPR
                        : cmp == LT_EXPR || cmp == LE_EXPR ? MIN_EXPR
                                                           : ERROR_MARK;
  if (code == ERROR_MARK || v == res || TREE_CODE (v) != SSA_NAME
      || !types_compatible_p (TREE_TYPE (v), type)
      || !same_value (w, v, 8) || !dead_without (t, join))
    return false;
  /* J's other PHIs (another variable the branch sets, `seen = 1'; the
     memory state) the same on both edges: the branch does nothing
     else.  */
  for (gphi_iterator pi = gsi_start_phis (gimple_bb (join));
       !gsi_end_p (pi); gsi_next (&pi))
    if (pi.phi () != join
        && !operand_equal_p (PHI_ARG_DEF_FROM_EDGE (pi.phi (), ek),
                             PHI_ARG_DEF_FROM_EDGE (pi.phi (), en), 0))
      return false;
  /* MX is read in LOOP by the condition and the join only, MX' by the
     header's PHI only.  */
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, res)
    {
      gimple *u = USE_STMT (use);
      if (!is_gimple_debug (u) && u != cond && u != join
          && flow_bb_inside_loop_p (loop, gimple_bb (u)))
        return false;
    }
  basic_block after;
  bool l_at_exit;
  if (!only_use_in_loop (l, loop, phi)
      || !exit_for_uses (loop, res, l, gimple_bb (join), &after,
                         &l_at_exit))
    return false;

  /* T's values go with it: its debug statements' binds of them too.  */
  for (gimple_stmt_iterator si = gsi_start_bb (t); !gsi_end_p (si);
       gsi_next (&si))
    if (is_gimple_assign (gsi_stmt (si)))
      reset_debug_uses (gimple_assign_lhs (gsi_stmt (si)));
  tree fill = reduction_fill (type, code);
  location_t loc = gimple_location (cond);
  tree init = PHI_ARG_DEF_FROM_EDGE (phi, pre), ok0;
  tree m0 = start_unless_nan (pre, init, fill, loc, &ok0, NULL);
  SET_USE (PHI_ARG_DEF_PTR_FROM_EDGE (phi, pre), m0);
  gimple_seq seq;

  /* J: mx' = MAX_EXPR <mx, v unless a NaN>.  */
  basic_block jb = gimple_bb (join);
  gphi_iterator jg = gsi_for_phi (join);
  remove_phi_node (&jg, false);
  seq = NULL;
  tree vf = unless_nan (&seq, v, fill);
  gimple_seq_add_stmt (&seq, gimple_build_assign (l, code, res, vf));
  gimple_seq_set_location (seq, loc);
  gimple_stmt_iterator at = gsi_after_labels (jb);
  gsi_insert_seq_before (&at, seq, GSI_SAME_STMT);
  gimple_cond_make_false (cond);
  update_stmt (cond);

  /* After the loop.  */
  at = gsi_after_labels (after);
  tree outs[2] = { res, l };
  for (int k = 0; k < 2; k++)
    {
      if (k == 1 && !l_at_exit)
        break;
      seq = NULL;
      tree val = gimple_build (&seq, COND_EXPR, type, ok0, outs[k], init);
      gimple_seq_set_location (seq, loc);
      gsi_insert_seq_before (&at, seq, GSI_SAME_STMT);
      replace_outside (outs[k], loop, val);
    }
  return true;
}

unsigned
forward_minmax (function *fun)
{
  unsigned changed = 0, branches = 0;
  calculate_dominance_info (CDI_DOMINATORS);
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  /* The reductions: a header PHI whose latch value is such a call.  */
  for (auto loop : loops_list (fun, 0))
    {
      if (!loop->header || !loop_outer (loop))
        continue;
      for (gphi_iterator pi = gsi_start_phis (loop->header);
           !gsi_end_p (pi);)
        {
          gphi *phi = pi.phi ();
          gsi_next (&pi);
          if (virtual_operand_p (gimple_phi_result (phi)))
            continue;
          tree l = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
          enum tree_code code;
          if (TREE_CODE (l) != SSA_NAME)
            continue;
          gimple *call = SSA_NAME_DEF_STMT (l);
          if (gimple_bb (call)
              && flow_bb_inside_loop_p (loop, gimple_bb (call))
              && minmax_call (call, &code)
              && minmax_reduction (loop, phi, call, code))
            changed++;
          else if (branch_reduction (loop, phi))
            changed++, branches++;
        }
    }
  /* The others, one by one.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        enum tree_code code;
        if (minmax_call (gsi_stmt (gsi), &code))
          {
            minmax_inline (&gsi, code);
            changed++;
          }
      }
  loop_optimizer_finalize ();
  if (dump_file && changed - branches)
    fprintf (dump_file, "vector-forward: %u calls of fmax or fmin "
                        "inline\n", changed - branches);
  if (dump_file && branches)
    fprintf (dump_file, "vector-forward: %u running maxima or minima "
                        "of a branch as reductions\n", branches);
  /* The branches never taken, gone before blas-forward reads the
     loops.  */
  if (branches)
    {
      free_dominance_info (CDI_DOMINATORS);
      cleanup_tree_cfg ();
    }
  return 0;
}

/* walk_tree: a call of a math builtin libmvec has becomes one of
   vector-math's declaration of it.  */
static tree
vector_call_fn (tree *tp, int *walk_subtrees, void *)
{
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  else if (TREE_CODE (*tp) == CALL_EXPR)
    {
      tree v = emit_vector_math_of (get_callee_fndecl (*tp));
      if (v)
        CALL_EXPR_FN (*tp) = build_fold_addr_expr (v);
    }
  return NULL_TREE;
}

void
forward_vectorize (tree kernel, bool math)
{
  if (math)
    walk_tree_without_duplicates (&DECL_SAVED_TREE (kernel), vector_call_fn,
                                  NULL);
  /* As c-family's handle_optimize_attribute builds a function's
     options: the current ones saved, the function's own (an optimize
     attribute) as the base, the change, the node, the current ones
     back.  */
  cl_optimization cur;
  cl_optimization_save (&cur, &global_options, &global_options_set);
  tree old = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (kernel);
  /* The options the kernel had, for its gradient
     (forward_gradient_optimization).  */
  DECL_ATTRIBUTES (kernel) = tree_cons (get_identifier (FORWARD_OPTIONS),
                                        old, DECL_ATTRIBUTES (kernel));
  if (old)
    cl_optimization_restore (&global_options, &global_options_set,
                             TREE_OPTIMIZATION (old));
  global_options.x_flag_associative_math = 1;
  global_options.x_flag_signed_zeros = 0;
  global_options.x_flag_trapping_math = 0;
  global_options_set.x_flag_associative_math = 1;
  global_options_set.x_flag_signed_zeros = 1;
  global_options_set.x_flag_trapping_math = 1;
  DECL_FUNCTION_SPECIFIC_OPTIMIZATION (kernel)
      = build_optimization_node (&global_options, &global_options_set);
  cl_optimization_restore (&global_options, &global_options_set, &cur);
}

tree
forward_gradient_optimization (tree kernel)
{
  tree a = lookup_attribute (FORWARD_OPTIONS, DECL_ATTRIBUTES (kernel));
  return a ? TREE_VALUE (a) : DECL_FUNCTION_SPECIFIC_OPTIMIZATION (kernel);
}

/* Are all of KERNEL's parameters registers, their entry values SSA
   default definitions?  */
static bool
params_are_registers (tree kernel)
{
  for (tree parm = DECL_ARGUMENTS (kernel); parm; parm = DECL_CHAIN (parm))
    if (!is_gimple_reg (parm))
      return false;
  return true;
}

/* Step 5: the location of the parallel region whose one loop is ROOT
   (a loop of an OpenMP kernel's twin), or UNKNOWN_LOCATION.  */
static location_t
sole_region_of (class loop *root)
{
  for (gphi_iterator pi = gsi_start_phis (root->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree r = gimple_phi_result (pi.phi ());
      if (SSA_NAME_VAR (r))
        {
          location_t loc = omp_sole_region (SSA_NAME_VAR (r));
          if (loc != UNKNOWN_LOCATION)
            return loc;
        }
    }
  return UNKNOWN_LOCATION;
}

/* winograd: stage S of FWD as a program of one call of tg_conv3x3
   (lib/passes/winograd.c) over the kernel's parameters, or NULL when it
   is no such convolution or names a local array.  */
static te_program *
conv3x3_forward (te_program *fwd, const te_stage *s, bool tiled,
                 const te_call **call)
{
  const char *why;
  te_call *c = te_conv3x3_call (fwd, s, &why);
  if (!c)
    return NULL;
  /* Its products: the tiled product's with tiled-forward, else (blas-
     forward) the CBLAS's.  */
  c->gemm = tiled ? TE_GEMM_TILED : TE_GEMM_CBLAS;
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].tensor && c->args[i].tensor->kind != TE_TK_PARAM)
      return NULL;
  char name[256];
  snprintf (name, sizeof name, "%s.conv%d", fwd->name, (int) (s - fwd->stages));
  te_program *q = te_program_new (fwd->ctx, name);
  for (int i = 0; i < fwd->nparams; i++)
    {
      const te_param *pr = &fwd->params[i];
      te_program_add_param (q, pr->name, pr->kind, pr->type, pr->loc);
    }
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].tensor)
      te_program_share_tensor (q, c->args[i].tensor);
  te_stage *cs = te_program_add_stage (q, s->loc);
  cs->call = c;
  cs->nest = -1;
  *call = c;
  return q;
}

unsigned
forward_blas (function *fun, tree kernel, te_program *fwd, bool tiled,
              bool vmath, bool keep, bool parallel, bool winograd)
{
  bool twin = fun->decl != kernel;
  bool params_ok = twin || params_are_registers (kernel);
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  int replaced = 0;
  for (int si = 0; si < fwd->nstages; si++)
    {
      const te_stage *s = &fwd->stages[si];
      te_gemm g;
      const char *why = NULL;
      const te_call *conv = NULL;
      te_program *q
          = winograd ? conv3x3_forward (fwd, s, tiled, &conv) : NULL;
      if (!q)
        q = te_gemm_forward (fwd, si, &g, &why);
      /* The products of Q as the tiled function (the emitter makes it
         once per object, emit.cc's made_tiled).  */
      if (q)
        q->tiled = tiled;
      class loop *root = NULL;
      location_t region = UNKNOWN_LOCATION;
      if (q && !params_ok)
        why = "a parameter whose address is taken";
      else if (q && twin && q->nparams != fwd->nparams)
        why = "an OpenMP kernel's product into a local array";
      else if (q)
        {
          root = (unsigned) s->loop_ids[0] < number_of_loops (fun)
                     ? get_loop (fun, s->loop_ids[0])
                     : NULL;
          why = root ? nest_problem (fun, root, fwd, s)
                     : "its loops are not one nest";
          if (!why && twin)
            {
              region = sole_region_of (root);
              if (region == UNKNOWN_LOCATION)
                why = "an OpenMP kernel's nest that is not all its "
                      "parallel region does";
            }
        }
      location_t loc = s->nstmts ? (location_t) s->stmts[0].loc
                                 : (location_t) s->loc;
      /* im2col's packing: its padding's tests as loop bounds; the
         packing and the product one sample at a time; on threads where
         the region ran or the option parallel asks.  */
      te_diag diag;
      if (q && !why && !conv)
        {
          te_program_samples (q, &diag);
          te_program_clip (q, &diag);
          if (twin || parallel)
            {
              q->parallel_all = true;
              te_program_parallel (q, &diag);
            }
          if (dump_file && (dump_flags & TDF_DETAILS))
            te_program_dump (dump_file, q);
        }
      tree helper = q && !why ? make_helper (kernel, fwd, q, vmath, keep)
                              : NULL_TREE;
      if (q && !why && !helper)
        why = "the call could not be emitted";
      if (dump_file)
        {
          if (conv && !why)
            fprintf (dump_file, "blas-forward: stage %d (line %d): %s = a "
                                "3x3 convolution of %s by %s%s%s as %s",
                     si, LOCATION_LINE (loc),
                     conv->args[conv->nargs - 1].tensor->name,
                     conv->args[5].tensor->name, conv->args[6].tensor->name,
                     conv->nargs == 9 ? " + " : "",
                     conv->nargs == 9 ? conv->args[7].tensor->name : "",
                     conv->name);
          else
            fprintf (dump_file, "blas-forward: stage %d (line %d): %s%s",
                     si, LOCATION_LINE (loc), why ? "loops, " : "",
                     why ? why : te_gemm_text (q, &g));
          bool threads = false;
          for (int k = 0; helper && k < q->nstages; k++)
            threads |= q->stages[k].team || q->stages[k].par;
          if (threads)
            fputs (", on OpenMP threads", dump_file);
          if (helper && twin)
            fprintf (dump_file, ", in place of the parallel region at "
                                "line %d",
                     LOCATION_LINE (region));
          fputc ('\n', dump_file);
        }
      if (!helper)
        continue;
      if (twin)
        omp_replace_region (kernel, region, helper);
      else if (replace_nest (fun, kernel, root, helper, loc, fwd, q))
        replaced++;
      else if (dump_file)
        fprintf (dump_file, "blas-forward: stage %d: loops, no memory "
                            "state at the nest's ends\n", si);
    }
  loop_optimizer_finalize ();
  if (!replaced)
    return 0;
  /* The nests, unreachable, go with the CFG's cleanup, which mends the
     loop tree.  */
  free_dominance_info (CDI_DOMINATORS);
  loops_state_set (LOOPS_NEED_FIXUP);
  return TODO_cleanup_cfg;
}

/* Is G a call of libgomp that runs a parallel region (GOMP_parallel, or
   a combined parallel loop's GOMP_parallel_loop_*)?  Its outlined
   function, *CHILD.  */
static bool
region_call (gimple *g, tree *child)
{
  if (!is_gimple_call (g) || !gimple_call_builtin_p (g, BUILT_IN_NORMAL)
      || gimple_call_num_args (g) < 1)
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (gimple_call_fndecl (g)));
  if (!startswith (name, "__builtin_GOMP_parallel"))
    return false;
  tree fn = gimple_call_arg (g, 0);
  if (TREE_CODE (fn) != ADDR_EXPR
      || TREE_CODE (TREE_OPERAND (fn, 0)) != FUNCTION_DECL)
    return false;
  *child = TREE_OPERAND (fn, 0);
  return true;
}

unsigned
forward_regions (function *fun)
{
  tree kernel = fun->decl;
  tree calls = omp_region_calls (kernel);
  if (!calls)
    return 0;
  if (!params_are_registers (kernel))
    {
      if (dump_file)
        fprintf (dump_file, "blas-forward: the parallel regions stay: a "
                            "parameter whose address is taken\n");
      return 0;
    }
  for (tree c = calls; c; c = TREE_CHAIN (c))
    {
      tree helper = TREE_PURPOSE (c);
      location_t loc = (location_t) TREE_INT_CST_LOW (TREE_VALUE (c));
      gimple_stmt_iterator at = gsi_none ();
      int found = 0;
      basic_block bb;
      FOR_EACH_BB_FN (bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
             gsi_next (&gsi))
          {
            tree child;
            if (region_call (gsi_stmt (gsi), &child)
                && DECL_SOURCE_LOCATION (child) == loc)
              {
                at = gsi;
                found++;
              }
          }
      if (found != 1)
        {
          if (dump_file)
            fprintf (dump_file, "blas-forward: the parallel region at line "
                                "%d stays: %s\n",
                     LOCATION_LINE (loc),
                     found ? "another has its location" : "not found");
          continue;
        }
      auto_vec<tree> args;
      for (tree parm = DECL_ARGUMENTS (kernel); parm; parm = DECL_CHAIN (parm))
        args.safe_push (get_or_create_ssa_default_def (fun, parm));
      gimple *old = gsi_stmt (at);
      gcall *call = gimple_build_call_vec (helper, args);
      gimple_set_location (call, loc);
      gimple_move_vops (call, old);
      gsi_replace (&at, call, false);
      if (dump_file)
        fprintf (dump_file, "blas-forward: the parallel region at line %d: "
                            "a call of %s\n",
                 LOCATION_LINE (loc),
                 IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (helper)));
    }
  return 0;
}

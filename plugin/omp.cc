/* omp.cc -- OpenMP directives in a kernel: the serial twin.

   Before (kernel f, compiled with -fopenmp):
       #pragma omp parallel for collapse(2) schedule(static)
       for (int i = 0; i < n; i++)
         for (int j = 0; j < m; j++)
           y[i*m + j] = ...;
   After:
       f as written: GCC outlines the region and runs it on its threads;
       a twin of f, static, never emitted, whose body is f's with every
       directive gone: the region is its body, the loop a nest of plain
       for loops, whose counters are remembered as parallel.
   The pass lifts the twin in f's name: the kernel means what its serial
   loops mean, as it does when it is compiled without -fopenmp.

   1. Before the C front end genericizes f (PLUGIN_PRE_GENERICIZE), walk
      its body.  parallel, for (a worksharing loop) and simd, with the
      clauses that leave the serial meaning alone (data sharing,
      scheduling, collapse, nowait, reductions with a built-in
      operator), are accepted; every other construct and clause is an
      error at its directive, once each, and f gets no twin and no
      gradient.  A parallel region may hold only worksharing loops and
      declarations: any other statement in it runs once per thread.
   2. copy_fn (tree-inline.cc, as the C++ front end copies a body for
      constant evaluation) copies f's body, its parameters and its
      locals into the twin.  The twin's type is made of its parameters'
      types: a variably modified one (double x[][n]) is the twin's own,
      and gimplifying the twin must not rewrite the sizes of f's.
   3. In the copy, a parallel region becomes its body; a loop construct
      becomes its pre-body and one FOR_STMT per collapsed loop.  The
      counters of a region's worksharing loops are remembered: the
      lifter marks the loops they count (omp_parallel_var).  (GCC's
      ANNOTATE_EXPR would mark the loop itself, but leaves a copy of the
      exit test that the analysis of the trip count does not see
      through before the early optimizations.)
   4. The twin is genericized as f would be (c_genericize) and finalized,
      kept alive (DECL_PRESERVE_P) until the pass has lifted it
      (omp_twin_done), then left for the call graph to drop.

   Limits: C only (a C++ kernel keeps the lifter's refusal of OpenMP).
   A kernel that calls one with directives inlines the twin's program,
   which must be lifted first: the call graph's order does that, the
   twin being made before its kernel (tensorgrad.omp/calls-1.c, a caller
   before and one after); were it not, the call would be refused ("its
   own gradient could not be made"), never wrong.  */

#include "omp.h"

/* Of the C front end, in cc1 only: weak, so that the plugin loads in
   lto1 too (GCC-NOTES.md), where no front end makes a twin.  */
extern void c_genericize (tree) __attribute__ ((weak));
extern tree build_stmt (location_t, enum tree_code, ...)
  __attribute__ ((weak));

/* Kernels with directives: TREE_PURPOSE the kernel, TREE_VALUE its twin
   (error_mark_node: its directives were refused).  */
static tree twins;
/* The counters of the twins' loops that were worksharing loops of a
   parallel region, a TREE_LIST.  */
static tree parallel_vars;
/* The parallel regions whose body is one worksharing loop: TREE_PURPOSE
   the twin's counter of its outermost loop, TREE_VALUE the region's
   location (an INTEGER_CST), which GCC gives the function it outlines
   the region into.  */
static tree sole_regions;
/* The regions forward.cc replaces by calls: TREE_PURPOSE the kernel,
   TREE_VALUE a TREE_LIST of (the helper, the region's location).  */
static tree region_calls;

const struct ggc_root_tab omp_gc_roots[] = {
  { &twins, 1, sizeof (twins), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  { &parallel_vars, 1, sizeof (parallel_vars), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &sole_regions, 1, sizeof (sole_regions), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &region_calls, 1, sizeof (region_calls), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* ---- step 1: what a kernel may use -------------------------------------- */

/* The directive's name as the user spells it, for construct CODE.  */
static const char *
construct_name (enum tree_code code)
{
  switch (code)
    {
    case OMP_PARALLEL:
      return "parallel";
    case OMP_FOR:
      return "for";
    case OMP_SIMD:
      return "simd";
    case OMP_TASK:
      return "task";
    case OMP_TASKLOOP:
      return "taskloop";
    case OMP_CRITICAL:
      return "critical";
    case OMP_ATOMIC:
    case OMP_ATOMIC_READ:
    case OMP_ATOMIC_CAPTURE_OLD:
    case OMP_ATOMIC_CAPTURE_NEW:
      return "atomic";
    case OMP_SINGLE:
      return "single";
    case OMP_MASTER:
      return "master";
    case OMP_MASKED:
      return "masked";
    case OMP_SECTIONS:
      return "sections";
    case OMP_SECTION:
      return "section";
    case OMP_ORDERED:
      return "ordered";
    case OMP_TASKGROUP:
      return "taskgroup";
    case OMP_SCAN:
      return "scan";
    case OMP_SCOPE:
      return "scope";
    case OMP_DISTRIBUTE:
      return "distribute";
    case OMP_LOOP:
      return "loop";
    case OMP_TEAMS:
      return "teams";
    case OMP_TARGET:
      return "target";
    case OMP_TARGET_DATA:
      return "target data";
    case OMP_TARGET_UPDATE:
      return "target update";
    case OMP_TARGET_ENTER_DATA:
      return "target enter data";
    case OMP_TARGET_EXIT_DATA:
      return "target exit data";
    default:
      return NULL;
    }
}

/* The directive that builtin call CALL stands for (#pragma omp barrier
   is a call of GOMP_barrier), or NULL.  */
static const char *
builtin_directive (tree call)
{
  tree fn = get_callee_fndecl (call);
  if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    return NULL;
  switch (DECL_FUNCTION_CODE (fn))
    {
    case BUILT_IN_GOMP_BARRIER:
      return "barrier";
    case BUILT_IN_GOMP_TASKWAIT:
      return "taskwait";
    case BUILT_IN_GOMP_TASKYIELD:
      return "taskyield";
    case BUILT_IN_GOMP_CANCEL:
      return "cancel";
    case BUILT_IN_GOMP_CANCELLATION_POINT:
      return "cancellation point";
    case BUILT_IN_SYNC_SYNCHRONIZE:
      return "flush";
    default:
      return NULL;
    }
}

/* Does clause C leave the serial meaning of its construct alone?  */
static bool
clause_ok (tree c)
{
  switch (OMP_CLAUSE_CODE (c))
    {
    case OMP_CLAUSE_PRIVATE:
    case OMP_CLAUSE_FIRSTPRIVATE:
    case OMP_CLAUSE_LASTPRIVATE:
    case OMP_CLAUSE_SHARED:
    case OMP_CLAUSE_DEFAULT:
    case OMP_CLAUSE_NUM_THREADS:
    case OMP_CLAUSE_IF:
    case OMP_CLAUSE_PROC_BIND:
    case OMP_CLAUSE_COLLAPSE:
    case OMP_CLAUSE_SCHEDULE:
    case OMP_CLAUSE_NOWAIT:
    case OMP_CLAUSE_SAFELEN:
    case OMP_CLAUSE_SIMDLEN:
    case OMP_CLAUSE_ALIGNED:
    case OMP_CLAUSE_LINEAR:
    case OMP_CLAUSE__SIMDUID_:
      return true;
    case OMP_CLAUSE_REDUCTION:
      /* The serial loop computes what any such reduction does, up to
         the order of its operations; a user-defined combiner or a scan
         is another matter.  */
      return !OMP_CLAUSE_REDUCTION_PLACEHOLDER (c)
             && !OMP_CLAUSE_REDUCTION_INSCAN (c);
    default:
      return false;
    }
}

/* The state of the walk of one kernel.  */
struct omp_walk
{
  int errors;
  vec<location_t> reported; /* a construct the front end built twice (an
                               atomic update) is reported once */
};

/* Report construct T, directive NAME, as not supported.  */
static void
refuse (omp_walk *w, tree t, const char *name)
{
  if (w->reported.contains (EXPR_LOCATION (t)))
    return;
  w->reported.safe_push (EXPR_LOCATION (t));
  error_at (EXPR_LOCATION (t),
            "OpenMP %<%s%> in a differentiable function is not supported",
            name);
  inform (EXPR_LOCATION (t), "a kernel may use %<parallel%>, %<for%> and "
                             "%<simd%> loops; its gradient follows the "
                             "serial loops");
  w->errors++;
}

/* Report, at construct T, the clauses of CLAUSES that change the serial
   meaning.  */
static void
check_clauses (omp_walk *w, tree t, tree clauses)
{
  for (tree c = clauses; c; c = OMP_CLAUSE_CHAIN (c))
    if (!clause_ok (c))
      {
        const char *name = user_omp_clause_code_name (c, false);
        if (OMP_CLAUSE_CODE (c) == OMP_CLAUSE_REDUCTION)
          name = OMP_CLAUSE_REDUCTION_INSCAN (c) ? "reduction (inscan)"
                                                 : "user-defined reduction";
        error_at (EXPR_LOCATION (t),
                  "OpenMP clause %<%s%> in a differentiable function is not "
                  "supported",
                  name);
        w->errors++;
      }
}

/* Is every statement of region body T a worksharing loop or a
   declaration (or a construct or a call that is reported on its
   own)?  */
static bool
only_loops (tree t)
{
  if (construct_name (TREE_CODE (t))
      || (TREE_CODE (t) == CALL_EXPR && builtin_directive (t)))
    return true;
  switch (TREE_CODE (t))
    {
    case BIND_EXPR:
      return only_loops (BIND_EXPR_BODY (t));
    case STATEMENT_LIST:
      for (tree_stmt_iterator i = tsi_start (t); !tsi_end_p (i); tsi_next (&i))
        if (!only_loops (tsi_stmt (i)))
          return false;
      return true;
    case DECL_EXPR:
    case DEBUG_BEGIN_STMT:
      return true;
    default:
      return false;
    }
}

/* walk_tree callback of step 1.  */
static tree
check_r (tree *tp, int *walk_subtrees, void *data)
{
  omp_walk *w = (omp_walk *) data;
  tree t = *tp;
  enum tree_code code = TREE_CODE (t);
  if (code == CALL_EXPR)
    {
      const char *name = builtin_directive (t);
      if (name)
        refuse (w, t, name);
      return NULL_TREE;
    }
  switch (code)
    {
    case OMP_PARALLEL:
      check_clauses (w, t, OMP_PARALLEL_CLAUSES (t));
      if (!only_loops (OMP_PARALLEL_BODY (t)))
        {
          error_at (EXPR_LOCATION (t),
                    "an OpenMP %<parallel%> region of a differentiable "
                    "function runs statements other than loops");
          inform (EXPR_LOCATION (t),
                  "every thread runs such a statement; put the loops under "
                  "%<#pragma omp parallel for%> and the rest outside");
          w->errors++;
          *walk_subtrees = 0;
          return NULL_TREE;
        }
      return NULL_TREE;
    case OMP_FOR:
    case OMP_SIMD:
      check_clauses (w, t, OMP_FOR_CLAUSES (t));
      return NULL_TREE;
    default:
      break;
    }
  const char *name = construct_name (code);
  if (name)
    {
      refuse (w, t, name);
      *walk_subtrees = 0;
    }
  return NULL_TREE;
}

/* Does T hold an OpenMP construct (or a call that one is)?  */
static tree
any_r (tree *tp, int *, void *)
{
  tree t = *tp;
  if (construct_name (TREE_CODE (t))
      || (TREE_CODE (t) == CALL_EXPR && builtin_directive (t)))
    return t;
  return NULL_TREE;
}

/* ---- step 3: the serial loops ------------------------------------------- */

/* Loop construct T as plain loops: its pre-body, then one FOR_STMT per
   collapsed loop, outermost first; PARALLEL marks each loop so.  */
static tree
serial_loops (tree t, bool parallel)
{
  tree body = OMP_FOR_BODY (t);
  int n = TREE_VEC_LENGTH (OMP_FOR_INIT (t));
  location_t loc = EXPR_LOCATION (t);
  for (int k = n - 1; k >= 0; k--)
    {
      tree init = TREE_VEC_ELT (OMP_FOR_INIT (t), k);
      if (parallel && TREE_CODE (init) == MODIFY_EXPR
          && VAR_P (TREE_OPERAND (init, 0)))
        parallel_vars = tree_cons (NULL_TREE, TREE_OPERAND (init, 0),
                                   parallel_vars);
      body = build_stmt (loc, FOR_STMT, init,
                         TREE_VEC_ELT (OMP_FOR_COND (t), k),
                         TREE_VEC_ELT (OMP_FOR_INCR (t), k), body, NULL_TREE);
    }
  tree list = alloc_stmt_list ();
  if (OMP_FOR_PRE_BODY (t))
    append_to_statement_list (OMP_FOR_PRE_BODY (t), &list);
  append_to_statement_list (body, &list);
  return list;
}

/* Is region body T one worksharing loop (*LOOP) beside declarations
   whose initial values have no side effects: a region that does nothing
   but that loop (its clauses and the region's evaluate nothing with
   side effects either: clauses_pure)?  */
static bool
sole_loop (tree t, tree *loop)
{
  switch (TREE_CODE (t))
    {
    case OMP_FOR:
      if (*loop)
        return false;
      *loop = t;
      return true;
    case BIND_EXPR:
      return sole_loop (BIND_EXPR_BODY (t), loop);
    case STATEMENT_LIST:
      for (tree_stmt_iterator i = tsi_start (t); !tsi_end_p (i); tsi_next (&i))
        if (!sole_loop (tsi_stmt (i), loop))
          return false;
      return true;
    case DECL_EXPR:
      {
        tree d = DECL_EXPR_DECL (t);
        return !VAR_P (d) || !DECL_INITIAL (d)
               || !TREE_SIDE_EFFECTS (DECL_INITIAL (d));
      }
    case DEBUG_BEGIN_STMT:
      return true;
    default:
      return false;
    }
}

/* Do CLAUSES evaluate nothing with side effects (num_threads (f ()),
   a schedule's chunk)?  A call that replaces the region would skip it.  */
static bool
clauses_pure (tree clauses)
{
  for (tree c = clauses; c; c = OMP_CLAUSE_CHAIN (c))
    for (int i = 0; i < omp_clause_num_ops[OMP_CLAUSE_CODE (c)]; i++)
      {
        tree op = OMP_CLAUSE_OPERAND (c, i);
        if (op && TREE_SIDE_EFFECTS (op))
          return false;
      }
  return true;
}

/* walk_tree callback of step 3; DATA points at the number of parallel
   regions around.  */
static tree
serial_r (tree *tp, int *walk_subtrees, void *data)
{
  int *regions = (int *) data;
  tree t = *tp;
  switch (TREE_CODE (t))
    {
    case OMP_PARALLEL:
      {
        tree loop = NULL_TREE;
        if (sole_loop (OMP_PARALLEL_BODY (t), &loop) && loop
            && clauses_pure (OMP_PARALLEL_CLAUSES (t))
            && clauses_pure (OMP_FOR_CLAUSES (loop)))
          {
            tree init = TREE_VEC_ELT (OMP_FOR_INIT (loop), 0);
            if (TREE_CODE (init) == MODIFY_EXPR
                && VAR_P (TREE_OPERAND (init, 0)))
              sole_regions = tree_cons (
                  TREE_OPERAND (init, 0),
                  build_int_cst (unsigned_type_node, EXPR_LOCATION (t)),
                  sole_regions);
          }
      }
      (*regions)++;
      walk_tree (&OMP_PARALLEL_BODY (t), serial_r, data, NULL);
      (*regions)--;
      *tp = OMP_PARALLEL_BODY (t);
      *walk_subtrees = 0;
      return NULL_TREE;
    case OMP_FOR:
    case OMP_SIMD:
      walk_tree (&OMP_FOR_BODY (t), serial_r, data, NULL);
      *tp = serial_loops (t, TREE_CODE (t) == OMP_FOR && *regions > 0);
      *walk_subtrees = 0;
      return NULL_TREE;
    default:
      return NULL_TREE;
    }
}

/* ---- steps 2 and 4: the twin -------------------------------------------- */

/* A twin of FNDECL with its body, its directives made serial.  */
static tree
make_twin (tree fndecl)
{
  location_t loc = DECL_SOURCE_LOCATION (fndecl);
  tree twin = build_decl (loc, FUNCTION_DECL, DECL_NAME (fndecl),
                          TREE_TYPE (fndecl));
  char *asm_name = xasprintf ("%s.tg_serial",
                              IDENTIFIER_POINTER (DECL_NAME (fndecl)));
  SET_DECL_ASSEMBLER_NAME (twin, get_identifier (asm_name));
  free (asm_name);
  TREE_STATIC (twin) = 1;
  TREE_PUBLIC (twin) = 0;
  DECL_EXTERNAL (twin) = 0;
  TREE_USED (twin) = 1;
  DECL_IGNORED_P (twin) = 1;
  DECL_UNINLINABLE (twin) = 1;
  DECL_PRESERVE_P (twin) = 1;
  DECL_CONTEXT (twin) = DECL_CONTEXT (fndecl);
  DECL_FUNCTION_SPECIFIC_OPTIMIZATION (twin)
      = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (fndecl);
  DECL_FUNCTION_SPECIFIC_TARGET (twin)
      = DECL_FUNCTION_SPECIFIC_TARGET (fndecl);

  /* allocate_struct_function reads the result's type; the copy's
     result replaces this one.  */
  DECL_RESULT (twin) = build_decl (loc, RESULT_DECL, NULL_TREE,
                                   TREE_TYPE (TREE_TYPE (fndecl)));
  DECL_CONTEXT (DECL_RESULT (twin)) = twin;
  tree saved = current_function_decl;
  push_struct_function (twin);
  cfun->function_start_locus
      = DECL_STRUCT_FUNCTION (fndecl)->function_start_locus;
  cfun->function_end_locus = DECL_STRUCT_FUNCTION (fndecl)->function_end_locus;
  tree parms, result;
  tree body = copy_fn (fndecl, parms, result);
  DECL_ARGUMENTS (twin) = parms;
  /* The types of the copies of variably modified parameters (double
     x[][n]) are the twin's own (copy_fn remapped them): so is its type,
     or gimplifying the twin would rewrite the sizes of the kernel's.  */
  auto_vec<tree> types;
  for (tree p = parms; p; p = DECL_CHAIN (p))
    {
      DECL_CONTEXT (p) = twin;
      DECL_ARG_TYPE (p) = TREE_TYPE (p);
      types.safe_push (TREE_TYPE (p));
    }
  TREE_TYPE (twin) = build_function_type_array (
      TREE_TYPE (TREE_TYPE (fndecl)), types.length (), types.address ());
  if (result)
    {
      DECL_CONTEXT (result) = twin;
      DECL_RESULT (twin) = result;
    }
  int regions = 0;
  walk_tree (&body, serial_r, &regions, NULL);
  DECL_SAVED_TREE (twin) = body;
  tree block = TREE_CODE (body) == BIND_EXPR ? BIND_EXPR_BLOCK (body)
                                             : NULL_TREE;
  if (!block)
    block = make_node (BLOCK);
  BLOCK_SUPERCONTEXT (block) = twin;
  DECL_INITIAL (twin) = block;
  pop_cfun ();
  current_function_decl = saved;

  c_genericize (twin);
  cgraph_node::finalize_function (twin, true);
  return twin;
}

void
omp_pre_genericize (tree fndecl)
{
  if (!lang_GNU_C () || !c_genericize || !build_stmt
      || !walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), any_r,
                                        NULL))
    return;
  omp_walk w = { 0, vNULL };
  walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), check_r, &w);
  w.reported.release ();
  tree twin = w.errors ? error_mark_node : make_twin (fndecl);
  twins = tree_cons (fndecl, twin, twins);
}

bool
omp_kernel_skipped (tree fndecl)
{
  for (tree l = twins; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == fndecl)
      return true;
  return false;
}

tree
omp_twin_kernel (tree decl)
{
  for (tree l = twins; l; l = TREE_CHAIN (l))
    if (TREE_VALUE (l) == decl)
      return TREE_PURPOSE (l);
  return NULL_TREE;
}

bool
omp_parallel_var (tree var)
{
  for (tree l = parallel_vars; l; l = TREE_CHAIN (l))
    if (TREE_VALUE (l) == var)
      return true;
  return false;
}

location_t
omp_sole_region (tree var)
{
  for (tree l = sole_regions; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == var)
      return (location_t) TREE_INT_CST_LOW (TREE_VALUE (l));
  return UNKNOWN_LOCATION;
}

void
omp_replace_region (tree kernel, location_t loc, tree helper)
{
  tree call = tree_cons (helper, build_int_cst (unsigned_type_node, loc),
                         NULL_TREE);
  for (tree l = region_calls; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == kernel)
      {
        TREE_CHAIN (call) = TREE_VALUE (l);
        TREE_VALUE (l) = call;
        return;
      }
  region_calls = tree_cons (kernel, call, region_calls);
}

tree
omp_region_calls (tree kernel)
{
  for (tree l = region_calls; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == kernel)
      return TREE_VALUE (l);
  return NULL_TREE;
}

void
omp_twin_done (tree decl)
{
  DECL_PRESERVE_P (decl) = 0;
  cgraph_node *node = cgraph_node::get (decl);
  if (node)
    node->force_output = false;
}

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
   2. Emit each stage in the shape lib/back/lower.c decided (te_lowered:
      each statement a loop nest of its own, one nest, or one nest that
      computes the shared values once), with the NULL tests, accumulators,
      select arms and locals of shared subexpressions it decided, scope by
      scope; this file only builds the trees.
   3. Translate expressions node by node; math functions become calls of
      GCC's builtin declarations, so GCC folds and vectorizes them (with
      -fplugin-arg-tensorgrad-vector-math, those libmvec has become
      calls GCC may vectorize as libmvec's: vector_math_decl).
   4. Gimplify, and hand the function to the call graph, which runs the
      whole optimization pipeline on it at the user's -O level.  It is
      handed over when the early passes' walk of the call graph ends
      (emit_hand_over), not at once: a file that takes the gradient's
      address in an initializer (an operator table) made its cgraph node
      before the walk began, so the walk would still visit it, now a
      definition, and run the early passes on a body without a CFG.  */

#include "emit.h"
#include "abi.h"
#include "tiled.h"

#include "back/tiled.h"

#include <string.h>

/* Gradients with a body, not yet handed to the call graph: a TREE_LIST
   of their declarations, newest first.  */
static tree pending;
/* The external `stderr' emit.cc declared, if it did (stderr_decl).  */
static tree made_stderr;
/* libgomp's omp_get_max_threads, once declared (omp_max_threads).  */
static tree max_threads_decl;
/* cblas_sgemm and cblas_dgemm as emit.cc declared them (cblas_decl).  */
static tree made_cblas[2];
/* cblas_strmm and cblas_dtrmm, the same (trmm_decl).  */
static tree made_trmm[2];
/* libtensorgrad's tg_keep_product, the same (keep_decl).  */
static tree made_keep;
/* The runtime's functions a call stage names without a declaration of
   its own (lib/passes/winograd.c's tg_conv3x3): a TREE_LIST of
   (identifier, declaration).  */
static tree made_runtime;
/* The tiled products' static functions, float and double (tiled.cc),
   once made.  */
static tree made_tiled[2];
/* Winograd's gemm on the tiled product, per element type (tiled.cc's
   tiled_gemm_adapter).  */
static tree made_wgemm[2];
/* The math functions with vector forms as emit.cc declared them
   (vector_math_decl), by operation and precision (double second).  */
static tree made_vector_math[TE_NUM_OPS][2];

bool emit_vector_math;
long emit_parallel_min = EMIT_PARALLEL_MIN_DEFAULT;
emit_keep_mode emit_keep;
const char *emit_keep_kernel;

const struct ggc_root_tab emit_gc_roots[] = {
  { &pending, 1, sizeof (pending), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_stderr, 1, sizeof (made_stderr), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &max_threads_decl, 1, sizeof (max_threads_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_cblas[0], 2, sizeof (made_cblas[0]), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_trmm[0], 2, sizeof (made_trmm[0]), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_keep, 1, sizeof (made_keep), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_runtime, 1, sizeof (made_runtime), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_tiled[0], 2, sizeof (made_tiled[0]), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_wgemm[0], 2, sizeof (made_wgemm[0]), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &made_vector_math[0][0], 2 * TE_NUM_OPS, sizeof (made_vector_math[0][0]),
    &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
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
  const te_tensor *const *cond_loads; /* nullable tensors read as 0 if NULL */
  int ncond;
  /* The lowered scopes entered (lib/back/lower.h), innermost last; the
     local holding each node they bind, by node id (NULL_TREE: not
     bound), and the ids bound so far in binding order, so that a scope
     unbinds its own on exit.  */
  vec<const te_lw_scope *> scopes;
  tree *memo;
  int nmemo;
  vec<int> bound_ids;
  tree locals;       /* chain of VAR_DECLs for the BIND_EXPR */
  location_t loc;
  bool novector;     /* the loops built now must not be vectorized */
  bool rolled;       /* the loop built now must not be unrolled */
  bool failed;
  const te_stage *par_stage; /* the stage being built, when its outermost
                                loop runs on threads (te_stage.par) */
  vec<const te_tensor *> own_tensors; /* inside its region: arrays each */
  vec<tree> own_ptrs;                 /* thread has its own of, and
                                         where they are */
  vec<tree> bodies; /* the functions of the bodies of those nests
                       (outline_body), gimplified after the gradient */
  vec<tree> region_blocks; /* the blocks of their regions */
  struct lanes *lanes; /* the loop in lanes directly around, or NULL */
  struct lanes *spans; /* the loops around it that sums may span
                          (te_stmt.lanes_span), innermost first */
  const te_tensor *const *lane_skip; /* the NULL tests between it and the */
  int lane_nskip;                    /* statement being built */
};

/* A sum kept in lanes (te_loop.lanes, lib/passes/lanes.c): the array of
   partial sums ARR, for statement ST (added to its element after the
   loop, when none of its NSKIP tensors SKIP is NULL, or lane by lane to
   PARENT, the partial sums of the loop around, te_stmt.lanes_span) or
   reduction RED (added to its accumulator ACC).  */
struct lane_sum
{
  const te_stmt *st;
  const te_node *red;
  const te_tensor *const *skip;
  int nskip;
  tree acc;
  tree arr;
  tree parent;
};

/* The loop in lanes being built (LEVEL 1): WIDTH lanes, counted by
   LANE; or a loop LEVEL - 1 loops outside it in the same nest, across
   which partial sums may be kept; OUTER is the next such loop out.  */
struct lanes
{
  int width;
  tree lane;
  int level;
  lanes *outer;
  int nsums;
  lane_sum sums[16];
};

/* Builds the body of a loop nest with ARG (loop_nest may build it twice:
   a loop in lanes runs it in its lanes and in the rest).  */
typedef tree (*body_fn) (emitter *e, const void *arg);

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

/* Is NAME the name of a local the debugger sees?  */
static bool
visible_local (emitter *e, tree name)
{
  for (tree v = e->locals; v; v = DECL_CHAIN (v))
    if (DECL_NAME (v) == name && !DECL_IGNORED_P (v))
      return true;
  return false;
}

/* The counter VAR of a loop: a local named as the kernel's (j, then j2,
   j3 ... for other loops of that name), which the debugger shows.  */
static tree
loop_var_decl (emitter *e, int var)
{
  if (!e->vars[var])
    {
      const char *name = e->p->var_names[var];
      tree v = new_local (e, long_integer_type_node, NULL);
      if (name && *name)
        {
          tree id = get_identifier (name);
          char buf[64];
          for (int k = 2; visible_local (e, id) && k < 1000; k++)
            {
              snprintf (buf, sizeof buf, "%.50s%d", name, k);
              id = get_identifier (buf);
            }
          DECL_NAME (v) = id;
          DECL_ARTIFICIAL (v) = 0;
          DECL_IGNORED_P (v) = 0;
        }
      e->vars[var] = v;
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

/* Whether glibc's libmvec has vector forms of OP in both precisions on
   x86_64 (_ZGV?N?v_NAME, _ZGV?N?vv_NAME for two operands: glibc 2.22
   for exp, log, sin, cos, pow, 2.35 for the others).  sqrt, fabs,
   floor, ceil, trunc, round, fmax and fmin are instructions already.  */
static bool
libmvec_has (te_op op)
{
  switch (op)
    {
    case TE_EXP: case TE_EXP2: case TE_EXPM1: case TE_LOG: case TE_LOG2:
    case TE_LOG10: case TE_LOG1P: case TE_CBRT: case TE_SIN: case TE_COS:
    case TE_TAN: case TE_ASIN: case TE_ACOS: case TE_ATAN: case TE_SINH:
    case TE_COSH: case TE_TANH: case TE_ERF: case TE_ERFC: case TE_POW:
    case TE_ATAN2: case TE_HYPOT:
      return true;
    default:
      return false;
    }
}

/* The function to call for math operation OP in TYPE: SCALAR, GCC's
   builtin, or with -fplugin-arg-tensorgrad-vector-math and an OP that
   libmvec has, a declaration of the same symbol (expf) as glibc's
   <math.h> writes it under -ffast-math: `omp declare simd' notinbranch
   (the simd attribute), so that GCC's vectorizer calls its vector
   clones (_ZGVdN8v_expf, in libmvec, which -lm brings in), and const,
   so that a loop may (a call that may set errno has a memory effect,
   and the vectorizer gives up on it).  Not the builtin's own decl: the
   forward calls that one, and keeps glibc's scalar accuracy.  Neither
   builtin: GCC does not fold these calls or expand them inline (sqrt,
   fabs... are not among them).  */
static tree
vector_math_decl (te_op op, te_type type, tree scalar, bool asked)
{
  if (!asked || !scalar || !libmvec_has (op))
    return scalar;
  int d = type == TE_F64;
  if (!made_vector_math[op][d])
    {
      /* expf: __builtin_expf's assembler name.  */
      tree name = DECL_ASSEMBLER_NAME (scalar);
      tree fn = build_fn_decl (IDENTIFIER_POINTER (name),
                               TREE_TYPE (scalar));
      SET_DECL_ASSEMBLER_NAME (fn, name);
      TREE_READONLY (fn) = 1;
      TREE_NOTHROW (fn) = 1;
      tree clause = build_omp_clause (UNKNOWN_LOCATION,
                                      OMP_CLAUSE_NOTINBRANCH);
      DECL_ATTRIBUTES (fn)
          = tree_cons (get_identifier ("omp declare simd"),
                       build_tree_list (NULL_TREE, clause),
                       tree_cons (get_identifier ("leaf"), NULL_TREE,
                                  NULL_TREE));
      made_vector_math[op][d] = fn;
    }
  return made_vector_math[op][d];
}

tree
emit_vector_math_of (tree builtin)
{
  if (!builtin || !fndecl_built_in_p (builtin, BUILT_IN_NORMAL))
    return NULL_TREE;
  for (int op = 0; op < TE_NUM_OPS; op++)
    for (int d = 0; d < 2 && libmvec_has ((te_op) op); d++)
      {
        te_type type = d ? TE_F64 : TE_F32;
        tree scalar = math_decl ((te_op) op, type);
        if (scalar
            && DECL_FUNCTION_CODE (scalar) == DECL_FUNCTION_CODE (builtin))
          return vector_math_decl ((te_op) op, type, scalar, true);
      }
  return NULL_TREE;
}

bool
emit_is_vector_math (tree fn)
{
  for (int op = 0; op < TE_NUM_OPS; op++)
    for (int d = 0; d < 2; d++)
      if (fn && made_vector_math[op][d] == fn)
        return true;
  return false;
}

/* Print to F the declarations that give a C file (dump-c's) the calls
   vector_math_decl makes: each function libmvec has, as glibc's
   <math.h> declares it under -ffast-math, and const.  */
void
emit_vector_math_decls (FILE *f)
{
  fputs ("/* -fplugin-arg-tensorgrad-vector-math: GCC may vectorize these "
         "calls\n   with libmvec's forms (README, Options), as it does in "
         "the gradients\n   the plugin injects.  */\n#include <math.h>\n",
         f);
  for (int op = 0; op < TE_NUM_OPS; op++)
    for (int d = 0; d < 2 && libmvec_has ((te_op) op); d++)
      {
        tree fn = math_decl ((te_op) op, d ? TE_F64 : TE_F32);
        if (!fn)
          continue;
        const char *t = d ? "double" : "float";
        fprintf (f, "extern %s %s (%s%s%s) __attribute__ ((__simd__ "
                    "(\"notinbranch\"), __const__, __nothrow__, "
                    "__leaf__));\n",
                 t, IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fn)), t,
                 te_op_arity ((te_op) op) == 2 ? ", " : "",
                 te_op_arity ((te_op) op) == 2 ? t : "");
      }
}

static tree expr (emitter *e, const te_node *n);
static tree reduction (emitter *e, const te_node *n, const te_lw_scope *terms,
                       const char *name, tree *list);

/* PTR != 0.  */
static tree
nonnull (tree ptr)
{
  return build2 (NE_EXPR, boolean_type_node, ptr,
                 build_zero_cst (TREE_TYPE (ptr)));
}
static tree loop_nest (emitter *e, int nloops, const te_loop *loops,
                       bool reversed, body_fn fn, const void *arg);

/* The pointer to the elements of tensor T.  */
static tree
tensor_base (emitter *e, const te_tensor *t)
{
  for (unsigned i = 0; i < e->own_tensors.length (); i++)
    if (e->own_tensors[i] == t)
      return e->own_ptrs[i];
  if (t->kind == TE_TK_PARAM)
    return e->parms[t->param];
  if (t->kind == TE_TK_STATIC)
    /* The variable itself: a constant table, a global the forward
       left as the gradient finds it.  */
    return fold_convert (build_pointer_type (te_tree_type (t->type)),
                         build_fold_addr_expr ((tree) t->decl));
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
  /* An array of integers narrower than its elements' type (an unsigned
     char mask read as int) at its own width.  */
  tree pointee = POINTER_TYPE_P (TREE_TYPE (base)) ? TREE_TYPE (TREE_TYPE (base))
                                                   : NULL_TREE;
  if (pointee && INTEGRAL_TYPE_P (pointee) && INTEGRAL_TYPE_P (elem)
      && TYPE_PRECISION (pointee) < TYPE_PRECISION (elem))
    elem = TYPE_MAIN_VARIANT (pointee);
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
  if (!addr)
    return build_zero_cst (te_tree_type (t->type));
  tree ref = build_fold_indirect_ref (addr);
  /* A narrow integer (read only: integer arrays are never written).  */
  if (TYPE_MAIN_VARIANT (TREE_TYPE (ref)) != te_tree_type (t->type))
    ref = fold_convert (te_tree_type (t->type), ref);
  return ref;
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

/* ---- the lowering's scopes --------------------------------------------

   The TE value is a DAG; a tree built for every use of a node would be
   as large as the expression it stands for, exponentially larger than
   the DAG (and gimplify_function_tree unshares what is shared).  So
   lib/back/lower.c decided which nodes each scope (a guard, a value, an
   arm, a reduction's terms, a fused stage's shared values) computes
   once into a local at its start; here they are built, and read by
   every use below.  */

/* Enter scope S (may be NULL: nothing bound), computing its locals into
   *LIST, operands first.  */
static void
enter_scope (emitter *e, const te_lw_scope *s, tree *list)
{
  e->scopes.safe_push (s);
  for (int i = 0; s && i < s->nbinds; i++)
    {
      const te_lw_bind *b = &s->binds[i];
      const te_node *n = b->node;
      char name[32];
      snprintf (name, sizeof name, "%s%d", b->reduction ? "acc" : "s", b->id);
      tree v;
      if (b->reduction)
        v = reduction (e, n, b->terms, name, list);
      else
        {
          v = new_local (e, te_tree_type (n->type), name);
          tree x = expr (e, n);
          append_to_statement_list (build2 (MODIFY_EXPR, TREE_TYPE (v), v, x),
                                    list);
        }
      if (n->id < e->nmemo)
        {
          e->memo[n->id] = v;
          e->bound_ids.safe_push (n->id);
        }
    }
}

/* Leave the scopes entered since the lengths of bound_ids and scopes
   were MARK and SMARK, forgetting their locals.  */
static void
leave_scopes (emitter *e, unsigned mark, unsigned smark)
{
  while (e->bound_ids.length () > mark)
    e->memo[e->bound_ids.pop ()] = NULL_TREE;
  while (e->scopes.length () > smark)
    e->scopes.pop ();
}

/* The lowering's select N, in the innermost scope that lists it.  */
static const te_lw_select *
find_select (emitter *e, const te_node *n)
{
  for (unsigned i = e->scopes.length (); i-- > 0;)
    if (const te_lw_select *x = te_lw_find_select (e->scopes[i], n))
      return x;
  return NULL;
}

/* N evaluated in scope S of its own (a select's arm): its locals first,
   then its value.  */
static tree
scoped (emitter *e, const te_node *n, const te_lw_scope *s)
{
  unsigned mark = e->bound_ids.length (), smark = e->scopes.length ();
  tree stmts = alloc_stmt_list ();
  enter_scope (e, s, &stmts);
  tree v = expr (e, n);
  leave_scopes (e, mark, smark);
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
          /* real_from_string reads "%a" but not "inf" or "nan"
             (-INFINITY as a masked score's value).  */
          if (__builtin_isinf (n->u.f))
            {
              real_inf (&r);
              if (n->u.f < 0)
                r = real_value_negate (&r);
            }
          else if (__builtin_isnan (n->u.f))
            real_nan (&r, "", 1, TYPE_MODE (type));
          else
            {
              snprintf (buf, sizeof buf, "%a", n->u.f);
              real_from_string (&r, buf);
            }
          return build_real_truncate (type, r);
        }
      return build_int_cst (type, n->u.i);
    case TE_PARAM:
      if (te_is_nonnull (n))
        return fold_convert (type, nonnull (e->parms[n->u.index]));
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
      return binary (e, n, TRUTH_ANDIF_EXPR);
    case TE_OR:
      return binary (e, n, TRUTH_ORIF_EXPR);
    case TE_NOT:
      return fold_build1 (TRUTH_NOT_EXPR, type, expr (e, n->args[0]));
    case TE_SELECT:
      {
        tree c = expr (e, n->args[0]);
        const te_lw_select *x = find_select (e, n);
        return fold_build3 (COND_EXPR, type, c,
                            scoped (e, n->args[1], x ? x->arms[0] : NULL),
                            scoped (e, n->args[2], x ? x->arms[1] : NULL));
      }
    TE_CASE_MATH:
      {
        if (n->op == TE_SQRT && emit_vector_math
            && direct_internal_fn_supported_p (IFN_SQRT, type,
                                               OPTIMIZE_FOR_SPEED))
          /* The instruction, which sets no errno (nor do libmvec's
             calls): -fmath-errno's sqrt is a call for a negative
             argument, a branch in the loop that keeps it scalar (an
             asin's gradient, 1 / sqrt (1 - x*x)).  */
          return build_call_expr_internal_loc (e->loc, IFN_SQRT, type, 1,
                                               expr (e, n->args[0]));
        tree fn = vector_math_decl (n->op, n->type,
                                    math_decl (n->op, n->type),
                                    emit_vector_math);
        if (!fn)
          break;
        if (te_op_arity (n->op) == 1)
          return build_call_expr (fn, 1, expr (e, n->args[0]));
        return build_call_expr (fn, 2, expr (e, n->args[0]),
                                expr (e, n->args[1]));
      }
    case TE_REDUCE:
      {
        /* Outside the lowering's scopes (an extent): inline.  */
        tree stmts = alloc_stmt_list ();
        tree acc = reduction (e, n, NULL, NULL, &stmts);
        return build2 (COMPOUND_EXPR, type, stmts, acc);
      }
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

/* The partial sums of TYPE of statement ST or reduction RED (the other
   NULL; ACC its accumulator) in LN (made on first use, with those of
   the loops outside that ST's sums span, lib/back/cgen-expr.c's
   lane_entry), or NULL_TREE: there is no room.  */
static tree
lane_entry (emitter *e, lanes *ln, const te_stmt *st, const te_node *red,
            tree acc, tree type)
{
  for (int i = 0; i < ln->nsums; i++)
    if (ln->sums[i].st == st && ln->sums[i].red == red)
      return ln->sums[i].arr;
  if (ln->nsums == (int) (sizeof ln->sums / sizeof ln->sums[0]))
    return NULL_TREE;
  lane_sum *x = &ln->sums[ln->nsums++];
  x->st = st;
  x->red = red;
  x->skip = red ? NULL : e->lane_skip;
  x->nskip = red ? 0 : e->lane_nskip;
  x->acc = acc;
  x->arr = new_local (e, build_array_type_nelts (type, ln->width), NULL);
  x->parent = NULL_TREE;
  if (st && st->lanes_span > ln->level && ln->outer
      && ln->outer->level == ln->level + 1)
    x->parent = lane_entry (e, ln->outer, st, NULL, NULL_TREE, type);
  return x->arr;
}

/* The partial sums of TYPE that statement ST or reduction RED (the other
   NULL; ACC its accumulator) keeps in the loop in lanes directly around
   (made on first use), or NULL_TREE: there is none.  */
static tree
lane_sum_array (emitter *e, const te_stmt *st, const te_node *red, tree acc,
                tree type)
{
  return e->lanes ? lane_entry (e, e->lanes, st, red, acc, type) : NULL_TREE;
}

static tree
lane_ref (tree arr, tree lane)
{
  return build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (arr)), arr, lane,
                 NULL_TREE, NULL_TREE);
}

/* The COUNT partial sums ARR[LO], ARR[LO + STRIDE], ... added pairwise,
   in the order of lib/back/cgen-expr.c's lane_total.  */
static tree
lane_total (tree arr, int lo, int stride, int count)
{
  if (count == 1)
    return lane_ref (arr, build_int_cst (long_integer_type_node, lo));
  tree type = TREE_TYPE (TREE_TYPE (arr));
  return build2 (PLUS_EXPR, type, lane_total (arr, lo, stride * 2, count / 2),
                 lane_total (arr, lo + stride, stride * 2, count / 2));
}

/* One step of reduction N: t = term; acc = acc op t.  */
struct red_arg
{
  const te_node *n;
  const te_lw_scope *terms;
  tree acc, t;
};

static tree
red_body (emitter *e, const void *arg)
{
  const red_arg *r = (const red_arg *) arg;
  const te_node *n = r->n;
  tree type = TREE_TYPE (r->acc), acc = r->acc, t = r->t;
  tree body = alloc_stmt_list ();
  /* The terms' locals, once per iteration.  */
  unsigned mark = e->bound_ids.length (), smark = e->scopes.length ();
  enter_scope (e, r->terms, &body);
  append_to_statement_list (build2 (MODIFY_EXPR, type, t,
                                    fold_convert (type, expr (e, n->args[1]))),
                            &body);
  leave_scopes (e, mark, smark);
  tree update;
  switch (n->u.red.kind)
    {
    case TE_RED_SUM:
      {
        tree arr = lane_sum_array (e, NULL, n, acc, type);
        if (arr)
          acc = lane_ref (arr, e->lanes->lane);
        update = build2 (PLUS_EXPR, type, acc, t);
        break;
      }
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
  return body;
}

/* Reduction N as statements appended to *LIST: acc = init; loops { t =
   body; acc = acc op t }; returns acc, a local named NAME (may be NULL).
   TERMS: the scope of one term (NULL: nothing bound).  Max and min keep
   the earlier value on ties.  */
static tree
reduction (emitter *e, const te_node *n, const te_lw_scope *terms,
           const char *name, tree *list)
{
  tree type = te_tree_type (n->type);
  tree acc = new_local (e, type, name);
  append_to_statement_list (build2 (MODIFY_EXPR, type, acc,
                                    fold_convert (type, expr (e, n->args[0]))),
                            list);
  red_arg r = { n, terms, acc, new_local (e, type, NULL) };
  lanes *saved = e->lanes, *saved_spans = e->spans;
  e->lanes = NULL; /* a reduction of no loops sums as usual */
  e->spans = NULL;
  append_to_statement_list (loop_nest (e, n->u.red.nloops, n->u.red.loops,
                                       false, red_body, &r),
                            list);
  e->lanes = saved;
  e->spans = saved_spans;
  return acc;
}

/* None of the N shadows TS is NULL: their non-NULL tests, or NULL if
   N is 0.  */
static tree
all_nonnull (emitter *e, const te_tensor *const *ts, int n)
{
  tree cond = NULL_TREE;
  for (int i = 0; i < n; i++)
    {
      tree c = nonnull (e->parms[ts[i]->param]);
      cond = cond ? build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond, c) : c;
    }
  return cond;
}

/* A statement frontier at LOC (-gstatement-frontiers): where the
   debugger stops for that line.  */
static tree
frontier (location_t loc)
{
  tree mark = build0 (DEBUG_BEGIN_STMT, void_type_node);
  SET_EXPR_LOCATION (mark, loc);
  return mark;
}

/* The statement L itself: dst[index] (+)= value, under its guard.  */
static tree
store (emitter *e, const te_lw_stmt *l)
{
  const te_stmt *st = l->st;
  unsigned mark = e->bound_ids.length (), smark = e->scopes.length ();
  tree outer = alloc_stmt_list ();
  tree cond = NULL_TREE;
  if (st->guard)
    {
      /* The guard's locals before the test, the value's behind it: the
         guard may protect the value's loads.  */
      enter_scope (e, l->guard, &outer);
      cond = expr (e, st->guard);
    }
  tree inner = alloc_stmt_list ();
  enter_scope (e, l->body, &inner);
  tree arr = st->lanes_sum ? lane_sum_array (e, st, NULL, NULL_TREE,
                                              te_tree_type (st->dst->type))
                           : NULL_TREE;
  tree lhs = arr ? lane_ref (arr, e->lanes->lane)
                 : element (e, st->dst, st->index);
  tree rhs = expr (e, st->value);
  rhs = fold_convert (TREE_TYPE (lhs), rhs);
  if (arr)
    rhs = build2 (PLUS_EXPR, TREE_TYPE (lhs), lane_ref (arr, e->lanes->lane),
                  rhs);
  else if (st->op == TE_ADD_TO)
    rhs = fold_build2 (PLUS_EXPR, TREE_TYPE (lhs),
                       element (e, st->dst, st->index), rhs);
  tree s = build2 (MODIFY_EXPR, TREE_TYPE (lhs), lhs, rhs);
  SET_EXPR_LOCATION (s, e->loc);
  /* A statement frontier, as the front end marks each statement with
     (-gstatement-frontiers, on when optimizing with -g): where the
     debugger stops for the statement's line.  */
  if (MAY_HAVE_DEBUG_MARKER_STMTS)
    append_to_statement_list (frontier (e->loc), &inner);
  append_to_statement_list (s, &inner);
  leave_scopes (e, mark, smark);
  if (cond)
    inner = build3 (COND_EXPR, void_type_node, cond, inner, NULL_TREE);
  append_to_statement_list (inner, &outer);
  return outer;
}

static location_t stmt_location (emitter *e, te_loc loc);

/* walk_tree callback of vector_math_loop: *TP is a loop (stop:
   boolean_false_node) or a call of a vector_math_decl
   (boolean_true_node).  */
static tree
find_vector_call (tree *tp, int *, void *)
{
  if (TREE_CODE (*tp) == LOOP_EXPR)
    return boolean_false_node;
  if (TREE_CODE (*tp) == CALL_EXPR && get_callee_fndecl (*tp))
    {
      tree fn = get_callee_fndecl (*tp);
      for (int op = 0; op < TE_NUM_OPS; op++)
        if (made_vector_math[op][0] == fn || made_vector_math[op][1] == fn)
          return boolean_true_node;
    }
  return NULL_TREE;
}

/* Whether BODY, an innermost loop's, calls a function of libmvec
   (vector_math_decl): a loop GCC is asked to vectorize (at -O2 and up,
   not -Os), as #pragma GCC vector does, so that -O2 (whose very-cheap
   cost model vectorizes no loop that needs an epilogue, and whose SLP
   vectorizer calls no vector clone) vectorizes it too.  Dependences
   are still analysed: it is no #pragma omp simd.  */
static bool
vector_math_loop (tree body)
{
  bool found = false;
  hash_set<tree> seen;
  for (tree_stmt_iterator i = tsi_start (body); !tsi_end_p (i); tsi_next (&i))
    {
      tree r = walk_tree (tsi_stmt_ptr (i), find_vector_call, NULL, &seen);
      if (r == boolean_false_node)
        return false;
      found |= r == boolean_true_node;
    }
  return found;
}

/* LOOP_EXPR { EXIT_EXPR (DONE); BODY; STEP }, DONE annotated as
   not to be vectorized when the nests built now must not be, as to be
   vectorized when it calls libmvec's functions, and as not to be
   unrolled when E->rolled.  */
static tree
plain_loop (emitter *e, tree done, tree body, tree step)
{
  if (e->rolled)
    /* #pragma GCC unroll 1: the loop gets unroll = 1 (GCC 12's
       replace_loop_annotate), which keeps cunrolli from peeling it.  */
    done = build3 (ANNOTATE_EXPR, boolean_type_node, done,
                   build_int_cst (integer_type_node,
                                  annot_expr_unroll_kind),
                   build_int_cst (integer_type_node, 1));
  if (e->novector)
    /* What the C front end makes of #pragma GCC novector (GCC 14): the
       loop gets dont_vectorize (replace_loop_annotate).  */
    done = build3 (ANNOTATE_EXPR, boolean_type_node, done,
                   build_int_cst (integer_type_node,
                                  annot_expr_no_vector_kind),
                   integer_zero_node);
  else if (emit_vector_math && optimize >= 2 && !optimize_size
           && TREE_CODE (body) == STATEMENT_LIST && vector_math_loop (body))
    /* #pragma GCC vector: force_vectorize.  */
    done = build3 (ANNOTATE_EXPR, boolean_type_node, done,
                   build_int_cst (integer_type_node, annot_expr_vector_kind),
                   integer_zero_node);
  tree lbody = alloc_stmt_list ();
  append_to_statement_list (build1 (EXIT_EXPR, void_type_node, done), &lbody);
  append_to_statement_list (body, &lbody);
  append_to_statement_list (step, &lbody);
  return build1 (LOOP_EXPR, void_type_node, lbody);
}

/* walk_tree callback of located: a statement without a location gets
   *DATA's; operands keep theirs.  */
static tree
locate_stmt (tree *tp, int *walk_subtrees, void *data)
{
  tree t = *tp;
  switch (TREE_CODE (t))
    {
    case MODIFY_EXPR:
    case EXIT_EXPR:
    case CALL_EXPR:
      *walk_subtrees = 0;
      /* FALLTHRU */
    case LOOP_EXPR:
    case COND_EXPR:
      if (!EXPR_HAS_LOCATION (t))
        SET_EXPR_LOCATION (t, *(location_t *) data);
      break;
    case STATEMENT_LIST:
    case BIND_EXPR:
      break;
    default:
      *walk_subtrees = 0;
    }
  return NULL_TREE;
}

/* STMTS, the control of a loop nest (counters, tests, steps) at the
   statement it runs, e->loc, not at the gradient's first line: the
   debugger steps through the kernel's lines.  */
static tree
located (emitter *e, tree stmts)
{
  location_t loc = e->loc;
  walk_tree_without_duplicates (&stmts, locate_stmt, &loc);
  /* A statement frontier before the control too, as the front end puts
     one before a for statement: the first instruction of the line is a
     statement (is_stmt).  gdb keeps one entry per run of a line in its
     line table, the first, and drops the later ones that optimized code
     gives discriminators; without it a breakpoint on the line was set
     in the forward only.  */
  if (MAY_HAVE_DEBUG_MARKER_STMTS && loc != UNKNOWN_LOCATION)
    {
      tree list = alloc_stmt_list ();
      append_to_statement_list (frontier (loc), &list);
      append_to_statement_list (stmts, &list);
      stmts = list;
    }
  return stmts;
}

/* The partial sums of LN set to zero, into STMTS.  */
static void
lane_zero (const lanes *ln, tree *stmts)
{
  for (int i = 0; i < ln->nsums; i++)
    {
      tree arr = ln->sums[i].arr;
      tree elt = TREE_TYPE (TREE_TYPE (arr));
      for (int k = 0; k < ln->width; k++)
        append_to_statement_list (
            build2 (MODIFY_EXPR, elt,
                    lane_ref (arr, build_int_cst (long_integer_type_node, k)),
                    build_zero_cst (elt)),
            stmts);
    }
}

/* After the loop of LN, into STMTS: each of its partial sums added lane
   by lane to those of the loop around (te_stmt.lanes_span), or all of
   them to its element or accumulator.  */
static void
lane_finish (emitter *e, const lanes *ln, tree *stmts)
{
  for (int i = 0; i < ln->nsums; i++)
    {
      const lane_sum *x = &ln->sums[i];
      tree elt = TREE_TYPE (TREE_TYPE (x->arr));
      if (x->parent)
        {
          for (int k = 0; k < ln->width; k++)
            {
              tree lk = build_int_cst (long_integer_type_node, k);
              tree to = lane_ref (x->parent, lk);
              append_to_statement_list (
                  build2 (MODIFY_EXPR, elt, to,
                          build2 (PLUS_EXPR, elt, lane_ref (x->parent, lk),
                                  lane_ref (x->arr, lk))),
                  stmts);
            }
          continue;
        }
      tree total = lane_total (x->arr, 0, 1, ln->width);
      /* The gimplifier unshares DST's two uses.  */
      tree dst = x->red ? x->acc : element (e, x->st->dst, x->st->index);
      tree s = build2 (MODIFY_EXPR, TREE_TYPE (dst), dst,
                       build2 (PLUS_EXPR, TREE_TYPE (dst), dst, total));
      if (x->st)
        SET_EXPR_LOCATION (s, stmt_location (e, x->st->loc));
      tree cond = all_nonnull (e, x->skip, x->nskip);
      if (cond)
        s = build3 (COND_EXPR, void_type_node, cond, s, NULL_TREE);
      append_to_statement_list (s, stmts);
    }
}

/* Loop LP in lanes (te_loop.lanes), as lib/back/cgen-expr.c prints it:
     blk = 0;   (or LP's start, te_loop.start)
     for (; blk + W <= ext; blk += W)
       for (lane = 0; lane < W; lane++) { v = blk + lane; BODY }
     for (lane = 0; blk + lane < ext; lane++) { v = blk + lane; BODY }
   with the sums kept in lanes zeroed before and added up after.  When
   GCC vectorizes loops with a rest itself (te_program.vect_rest, -O3),
   the loop over the lanes is not to be unrolled (#pragma GCC unroll 1):
   -O3's cunrolli peeled it before the vectorizer ran, which then left
   the 8 partial sums scalar (a layer norm's gradient took 1.9 times as
   long as with the loop vectorized).  */
static tree
lanes_loop (emitter *e, const te_loop *lp, body_fn fn, const void *arg)
{
  tree lt = long_integer_type_node;
  int w = lp->lanes;
  tree var = loop_var_decl (e, lp->var);
  tree ext = new_local (e, lt, NULL), blk = new_local (e, lt, NULL);
  tree lane = new_local (e, lt, NULL);
  tree width = build_int_cst (lt, w), one = build_int_cst (lt, 1);
  lanes ln;
  memset (&ln, 0, sizeof ln);
  ln.width = w;
  ln.lane = lane;
  ln.level = 1;
  ln.outer = e->spans;
  lanes *saved = e->lanes;
  const te_tensor *const *saved_skip = e->lane_skip;
  int saved_nskip = e->lane_nskip;
  e->lane_skip = NULL; /* tests outside this loop */
  e->lane_nskip = 0;
  tree loops[2];
  for (int part = 0; part < 2; part++)
    {
      tree body = alloc_stmt_list ();
      append_to_statement_list (build2 (MODIFY_EXPR, lt, var,
                                        build2 (PLUS_EXPR, lt, blk, lane)),
                                &body);
      e->lanes = &ln;
      append_to_statement_list (fn (e, arg), &body);
      e->lanes = saved;
      tree done = part == 0 ? build2 (GE_EXPR, boolean_type_node, lane, width)
                            : build2 (GE_EXPR, boolean_type_node,
                                      build2 (PLUS_EXPR, lt, blk, lane), ext);
      loops[part] = alloc_stmt_list ();
      append_to_statement_list (build2 (MODIFY_EXPR, lt, lane,
                                        build_int_cst (lt, 0)),
                                &loops[part]);
      e->rolled = part == 0 && e->p->vect_rest;
      append_to_statement_list (
          plain_loop (e, done, body,
                      build2 (MODIFY_EXPR, lt, lane,
                              build2 (PLUS_EXPR, lt, lane, one))),
          &loops[part]);
      e->rolled = false;
    }
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, ext, fold_convert (lt, expr (e, lp->extent))),
      &stmts);
  lane_zero (&ln, &stmts);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, blk,
              lp->start ? fold_convert (lt, expr (e, lp->start))
                        : build_int_cst (lt, 0)),
      &stmts);
  tree done = build2 (GT_EXPR, boolean_type_node,
                      build2 (PLUS_EXPR, lt, blk, width), ext);
  append_to_statement_list (
      plain_loop (e, done, loops[0],
                  build2 (MODIFY_EXPR, lt, blk,
                          build2 (PLUS_EXPR, lt, blk, width))),
      &stmts);
  append_to_statement_list (loops[1], &stmts);
  lane_finish (e, &ln, &stmts);
  e->lane_skip = saved_skip;
  e->lane_nskip = saved_nskip;
  return located (e, stmts);
}

static tree parallel_nest (emitter *e, int nloops, const te_loop *loops,
                           body_fn fn, const void *arg);

/* NLOOPS LOOPS, outermost first, around the body FN builds with ARG.  */
static tree
loop_nest (emitter *e, int nloops, const te_loop *loops, bool reversed,
           body_fn fn, const void *arg)
{
  if (nloops == 0)
    return fn (e, arg);
  if (e->par_stage && loops == e->par_stage->loops)
    return parallel_nest (e, nloops, loops, fn, arg);
  lanes *saved = e->lanes;
  e->lanes = NULL;
  if (nloops == 1 && loops[0].lanes > 1 && !reversed && !e->novector)
    {
      tree r = lanes_loop (e, &loops[0], fn, arg);
      e->lanes = saved;
      return r;
    }
  /* A loop around one in lanes of the same nest: sums may span it.  */
  lanes span;
  memset (&span, 0, sizeof span);
  span.width = loops[nloops - 1].lanes;
  span.level = nloops;
  span.outer = e->spans;
  bool spans = span.width > 1 && !reversed && !e->novector;
  if (spans)
    e->spans = &span;
  tree inner = loop_nest (e, nloops - 1, loops + 1, reversed, fn, arg);
  e->lanes = saved;
  if (spans)
    e->spans = span.outer;
  tree var = loop_var_decl (e, loops[0].var);
  tree ext = new_local (e, long_integer_type_node, NULL);
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, long_integer_type_node, ext,
              fold_convert (long_integer_type_node,
                            expr (e, loops[0].extent))),
      &stmts);
  lane_zero (&span, &stmts);
  gcc_assert (!reversed || !loops[0].start);
  tree first = reversed ? fold_build2 (MINUS_EXPR, long_integer_type_node,
                                       ext, build_int_cst (long_integer_type_node, 1))
               : loops[0].start
                   ? fold_convert (long_integer_type_node,
                                   expr (e, loops[0].start))
                   : build_int_cst (long_integer_type_node, 0);
  append_to_statement_list (
      build2 (MODIFY_EXPR, long_integer_type_node, var, first), &stmts);
  tree done = reversed
                  ? build2 (LT_EXPR, boolean_type_node, var,
                            build_int_cst (long_integer_type_node, 0))
                  : build2 (GE_EXPR, boolean_type_node, var, ext);
  tree step = build2 (MODIFY_EXPR, long_integer_type_node, var,
                      build2 (reversed ? MINUS_EXPR : PLUS_EXPR,
                              long_integer_type_node, var,
                              build_int_cst (long_integer_type_node, 1)));
  append_to_statement_list (plain_loop (e, done, inner, step), &stmts);
  lane_finish (e, &span, &stmts);
  return located (e, stmts);
}

/* ---- a stage on OpenMP threads (te_stage.par, lib/passes/parallel.c) ---- */

static tree
long_cst (HOST_WIDE_INT v)
{
  return build_int_cst (long_integer_type_node, v);
}

/* The number of the calling thread in its team, as a long.  */
static tree
omp_thread (void)
{
  tree fn = builtin_decl_explicit (BUILT_IN_OMP_GET_THREAD_NUM);
  return fold_convert (long_integer_type_node, build_call_expr (fn, 0));
}

/* The number of threads a region would have, as a long.  */
static tree
omp_max_threads (void)
{
  if (!max_threads_decl)
    {
      max_threads_decl = build_fn_decl (
          "omp_get_max_threads",
          build_function_type_list (integer_type_node, NULL_TREE));
      DECL_EXTERNAL (max_threads_decl) = 1;
      TREE_PUBLIC (max_threads_decl) = 1;
    }
  return fold_convert (long_integer_type_node,
                       build_call_expr (max_threads_decl, 0));
}

/* A restrict pointer to ELEM: each thread's scratch rows and partials
   meet nothing else, and GCC, which sees them through the region's
   outlined function, vectorizes the loops over them only when told.  */
static tree
restrict_pointer (tree elem)
{
  return build_qualified_type (build_pointer_type (elem), TYPE_QUAL_RESTRICT);
}

/* calloc (N, sizeof ELEM) as a pointer to ELEM.  A negative N (the
   kernel's own VLA would be undefined then) allocates nothing: without
   the clamp GCC's range analysis sees a path where the count converts to
   a huge size_t and warns (-Walloc-size-larger-than) about code the user
   did not write.  */
static tree
calloc_of (tree elem, tree n)
{
  n = fold_build2 (MAX_EXPR, long_integer_type_node,
                   fold_convert (long_integer_type_node, n), long_cst (0));
  tree call = build_call_expr (builtin_decl_explicit (BUILT_IN_CALLOC), 2,
                               fold_convert (size_type_node, n),
                               TYPE_SIZE_UNIT (elem));
  return fold_convert (build_pointer_type (elem), call);
}

/* malloc (N * sizeof ELEM) as a pointer to ELEM, for an array whose
   first writer writes every element (te_lower_raw); a negative N
   allocates nothing (see calloc_of).  */
static tree
raw_alloc_of (tree elem, tree n)
{
  n = fold_build2 (MAX_EXPR, long_integer_type_node,
                   fold_convert (long_integer_type_node, n), long_cst (0));
  tree bytes = fold_build2 (MULT_EXPR, size_type_node,
                            fold_convert (size_type_node, n),
                            TYPE_SIZE_UNIT (elem));
  tree call = build_call_expr (builtin_decl_explicit (BUILT_IN_MALLOC), 1,
                               bytes);
  return fold_convert (build_pointer_type (elem), call);
}

/* PTR + N elements of ELEM.  */
static tree
element_plus (tree ptr, tree elem, tree n)
{
  return fold_build_pointer_plus (
      ptr, fold_build2 (MULT_EXPR, sizetype, fold_convert (sizetype, n),
                        TYPE_SIZE_UNIT (elem)));
}

/* for (I = 0; I < N; I++) BODY.  */
static tree
count_loop (emitter *e, tree i, tree n, tree body)
{
  tree lt = long_integer_type_node;
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (build2 (MODIFY_EXPR, lt, i, long_cst (0)),
                            &stmts);
  append_to_statement_list (
      plain_loop (e, build2 (GE_EXPR, boolean_type_node, i, n), body,
                  build2 (MODIFY_EXPR, lt, i,
                          build2 (PLUS_EXPR, lt, i, long_cst (1)))),
      &stmts);
  return stmts;
}

/* The locals of the emitter a tree refers to (walk_tree's DATA).  */
struct locals_query
{
  hash_set<tree> *locals;
  hash_set<tree> found;
};

static tree
find_locals (tree *tp, int *, void *data)
{
  locals_query *q = (locals_query *) data;
  if (VAR_P (*tp) && q->locals->contains (*tp))
    q->found.add (*tp);
  return NULL_TREE;
}

/* The clauses of the region of stage parallel form PAR around BODY:
   each local of E it uses that holds a value (no pointer, and no
   tensor's storage but of PAR's values) a copy per thread,
   set to the value it has (firstprivate); OWN, the pointers each thread
   sets, a copy per thread (private); but VAR, the loop's counter, which
   OpenMP keeps per thread anyway.  */
static tree
region_clauses (emitter *e, const te_parallel *par, tree body, tree var,
                const vec<tree> &own)
{
  hash_set<tree> locals;
  for (tree v = e->locals; v; v = DECL_CHAIN (v))
    locals.add (v);
  /* A one-element temporary is an array on the stack, which the threads
     share like any tensor, unless each iteration sets it before reading
     it (te_parallel.values): then each has its copy.  */
  for (unsigned i = 0; i < e->local_ptrs.length (); i++)
    if (TREE_CODE (e->local_ptrs[i]) == ADDR_EXPR)
      {
        bool value = false;
        for (int k = 0; k < par->nvalues; k++)
          value |= par->values[k] == e->local_tensors[i];
        if (!value)
          locals.remove (TREE_OPERAND (e->local_ptrs[i], 0));
      }
  locals_query q;
  q.locals = &locals;
  walk_tree_without_duplicates (&body, find_locals, &q);
  tree clauses = NULL_TREE;
  for (tree v = e->locals; v; v = DECL_CHAIN (v))
    {
      bool is_own = own.contains (v);
      if (v == var || !q.found.contains (v)
          || (POINTER_TYPE_P (TREE_TYPE (v)) && !is_own))
        continue;
      tree c = build_omp_clause (e->loc, is_own ? OMP_CLAUSE_PRIVATE
                                                : OMP_CLAUSE_FIRSTPRIVATE);
      OMP_CLAUSE_DECL (c) = v;
      OMP_CLAUSE_CHAIN (c) = clauses;
      clauses = c;
    }
  return clauses;
}

/* The free declarations of a body to outline (walk_tree's DATA):
   parameters of the gradient and its older locals, in order.  */
struct free_decls
{
  tree fndecl;
  hash_set<tree> *made;  /* the body's own locals */
  hash_set<tree> seen;
  auto_vec<tree> list;
};

static tree
find_free (tree *tp, int *walk_subtrees, void *data)
{
  free_decls *q = (free_decls *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  if ((TREE_CODE (t) == PARM_DECL && DECL_CONTEXT (t) == q->fndecl)
      || (VAR_P (t) && DECL_CONTEXT (t) == q->fndecl && !q->made->contains (t)
          && !TREE_STATIC (t)))
    if (!q->seen.add (t))
      q->list.safe_push (t);
  return NULL_TREE;
}

/* Replace each declaration of FROM by the same-numbered of TO
   (walk_tree's DATA, a pair of vecs); an array of FROM is replaced by
   what its pointer of TO points to.  */
struct decl_map
{
  const vec<tree> *from, *to;
};

static tree
replace_decls (tree *tp, int *walk_subtrees, void *data)
{
  decl_map *m = (decl_map *) data;
  tree t = *tp;
  if (TYPE_P (t))
    {
      *walk_subtrees = 0;
      return NULL_TREE;
    }
  for (unsigned i = 0; i < m->from->length (); i++)
    if (t == (*m->from)[i])
      {
        tree to = (*m->to)[i];
        *tp = TREE_CODE (TREE_TYPE (t)) == ARRAY_TYPE
                  ? build_simple_mem_ref (to)
                  : to;
        *walk_subtrees = 0;
        return NULL_TREE;
      }
  return NULL_TREE;
}

/* BODY, which the nest being built made with the locals of E since
   OLDER (its own), as a call of a function of its own, whose parameters
   are BODY's free declarations (the gradient's parameters and older
   locals; an array by its address), its pointers restrict.  In the
   outlined function of an OpenMP region GCC reads the gradient's
   pointers from a structure and no longer knows they are restrict, and
   left the loops of a row unvectorized; inlined from a function with
   restrict parameters, the knowledge stays (its dependence cliques).  */
static tree
outline_body (emitter *e, tree body, tree older)
{
  hash_set<tree> made;
  tree own = NULL_TREE;
  for (tree v = e->locals; v && v != older;)
    {
      tree next = DECL_CHAIN (v);
      made.add (v);
      DECL_CHAIN (v) = own;
      own = v;
      v = next;
    }
  e->locals = older;
  for (unsigned i = 0; i < e->vars.length (); i++)
    if (e->vars[i] && made.contains (e->vars[i]))
      e->vars[i] = NULL_TREE; /* a later nest makes its own */
  free_decls q;
  q.fndecl = e->fndecl;
  q.made = &made;
  walk_tree_without_duplicates (&body, find_free, &q);

  auto_vec<tree> types, args;
  for (unsigned i = 0; i < q.list.length (); i++)
    {
      tree d = q.list[i], type = TREE_TYPE (d);
      tree arg = d;
      if (TREE_CODE (type) == ARRAY_TYPE)
        {
          arg = build_fold_addr_expr (d);
          type = build_pointer_type (type);
        }
      if (POINTER_TYPE_P (type))
        type = build_qualified_type (TYPE_MAIN_VARIANT (type),
                                     TYPE_QUAL_RESTRICT);
      types.safe_push (type);
      args.safe_push (arg);
    }
  char *name = xasprintf ("%s.rows%u", IDENTIFIER_POINTER (
                                           DECL_NAME (e->fndecl)),
                          e->bodies.length ());
  tree fn = build_decl (e->loc, FUNCTION_DECL, get_identifier (name),
                        build_function_type_array (void_type_node,
                                                   types.length (),
                                                   types.address ()));
  free (name);
  TREE_STATIC (fn) = 1;
  TREE_PUBLIC (fn) = 0;
  DECL_ARTIFICIAL (fn) = 1;
  DECL_IGNORED_P (fn) = 1;
  TREE_USED (fn) = 1;
  DECL_FUNCTION_SPECIFIC_OPTIMIZATION (fn)
      = DECL_FUNCTION_SPECIFIC_OPTIMIZATION (e->fndecl);
  DECL_FUNCTION_SPECIFIC_TARGET (fn) = DECL_FUNCTION_SPECIFIC_TARGET (e->fndecl);
  /* The gradient's versions (-fplugin-arg-tensorgrad-target-clones): the
     body gets the same, each version of its caller calling the best.  */
  if (tree tc = lookup_attribute ("target_clones", DECL_ATTRIBUTES (e->fndecl)))
    DECL_ATTRIBUTES (fn) = tree_cons (get_identifier ("target_clones"),
                                      TREE_VALUE (tc), DECL_ATTRIBUTES (fn));
  tree result = build_decl (e->loc, RESULT_DECL, NULL_TREE, void_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_CONTEXT (result) = fn;
  DECL_RESULT (fn) = result;
  auto_vec<tree> parms;
  tree chain = NULL_TREE, *tail = &chain;
  for (unsigned i = 0; i < types.length (); i++)
    {
      tree parm = build_decl (e->loc, PARM_DECL, DECL_NAME (q.list[i]),
                              types[i]);
      DECL_ARG_TYPE (parm) = types[i];
      DECL_CONTEXT (parm) = fn;
      TREE_USED (parm) = 1;
      *tail = parm;
      tail = &DECL_CHAIN (parm);
      parms.safe_push (parm);
    }
  DECL_ARGUMENTS (fn) = chain;
  /* The emitter shares trees between nests (a one-element temporary's
     address): the body gets copies of its own before its declarations
     change.  */
  body = unshare_expr (body);
  decl_map m = { &q.list, &parms };
  walk_tree (&body, replace_decls, &m, NULL);
  for (tree v = own; v; v = DECL_CHAIN (v))
    DECL_CONTEXT (v) = fn;
  tree block = make_node (BLOCK);
  BLOCK_VARS (block) = own;
  BLOCK_SUPERCONTEXT (block) = fn;
  DECL_INITIAL (fn) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, own, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fn) = bind;
  e->bodies.safe_push (fn);
  return build_call_expr_loc_array (e->loc, fn, args.length (),
                                    args.address ());
}

/* The bytes between the blocks of two threads in a partial: a page, so
   that no page holds parts of two threads' blocks.  With the blocks of
   a layer norm's d_gamma side by side (4 KB each), its gradient took
   0.14 ms on 2 threads, and 0.105 ms with them a page apart: a core's
   prefetchers pull in lines of the next block, which the other thread
   writes, row after row.  */
#define PARTIAL_GAP 4096

/* A cache line, to which each thread's block of a partial is aligned.  */
#define PARTIAL_LINE 64

/* PTR rounded up to a multiple of PARTIAL_LINE bytes, of PTR's type.  */
static tree
line_aligned (tree ptr)
{
  tree ut = pointer_sized_int_node;
  tree a = fold_build2 (PLUS_EXPR, ut, fold_convert (ut, ptr),
                        build_int_cst (ut, PARTIAL_LINE - 1));
  a = fold_build2 (BIT_AND_EXPR, ut, a, build_int_cst (ut, -PARTIAL_LINE));
  return fold_convert (TREE_TYPE (ptr), a);
}

/* malloc (N * sizeof ELEM + PARTIAL_LINE) as a pointer to ELEM; a
   negative N allocates the line only (see calloc_of).  */
static tree
malloc_of (tree elem, tree n)
{
  n = fold_build2 (MAX_EXPR, long_integer_type_node,
                   fold_convert (long_integer_type_node, n), long_cst (0));
  tree bytes = fold_build2 (
      PLUS_EXPR, size_type_node,
      fold_build2 (MULT_EXPR, size_type_node, fold_convert (size_type_node, n),
                   TYPE_SIZE_UNIT (elem)),
      build_int_cst (size_type_node, PARTIAL_LINE));
  tree call = build_call_expr (builtin_decl_explicit (BUILT_IN_MALLOC), 1,
                               bytes);
  return fold_convert (build_pointer_type (elem), call);
}

/* A worksharing loop for (I = 0; I < N; I++) BODY of the region being
   built, statically scheduled, without the barrier at its end when
   NOWAIT.  */
static tree
omp_for_loop (location_t loc, tree i, tree n, tree body, bool nowait)
{
  tree lt = long_integer_type_node;
  tree loop = make_node (OMP_FOR);
  TREE_TYPE (loop) = void_type_node;
  TREE_SIDE_EFFECTS (loop) = 1;
  SET_EXPR_LOCATION (loop, loc);
  OMP_FOR_INIT (loop) = make_tree_vec (1);
  TREE_VEC_ELT (OMP_FOR_INIT (loop), 0) = build2 (MODIFY_EXPR, lt, i,
                                                  long_cst (0));
  OMP_FOR_COND (loop) = make_tree_vec (1);
  TREE_VEC_ELT (OMP_FOR_COND (loop), 0)
      = build2 (LT_EXPR, boolean_type_node, i, n);
  OMP_FOR_INCR (loop) = make_tree_vec (1);
  TREE_VEC_ELT (OMP_FOR_INCR (loop), 0)
      = build2 (MODIFY_EXPR, lt, i, build2 (PLUS_EXPR, lt, i, long_cst (1)));
  OMP_FOR_BODY (loop) = body;
  tree sched = build_omp_clause (loc, OMP_CLAUSE_SCHEDULE);
  OMP_CLAUSE_SCHEDULE_KIND (sched) = OMP_CLAUSE_SCHEDULE_STATIC;
  if (nowait)
    OMP_CLAUSE_CHAIN (sched) = build_omp_clause (loc, OMP_CLAUSE_NOWAIT);
  OMP_FOR_CLAUSES (loop) = sched;
  return loop;
}

/* ---- partials of the elements a thread's iterations reach ---- */

/* The iterations of the loop of COUNT iterations (clamped at 0) that
   the calling thread runs, statically: the team's NTEAM threads take
   runs of COUNT / NTEAM, the first COUNT % NTEAM one more, in thread
   order.  Appends to *REGION
     tid = omp_get_thread_num ();  n0 = max (count, 0);
     v0 = tid * (n0 / nteam) + min (tid, n0 % nteam);
     v1 = v0 + n0 / nteam + (tid < n0 % nteam);
   and gives the locals (private: each is pushed on OWN) in *TID, *V0
   and *V1.  */
static void
region_chunk (emitter *e, tree count, tree nteam, vec<tree> &own,
              tree *region, tree *tid, tree *v0, tree *v1)
{
  tree lt = long_integer_type_node;
  tree n0 = new_local (e, lt, NULL), qq = new_local (e, lt, NULL);
  tree rr = new_local (e, lt, NULL);
  *tid = new_local (e, lt, NULL);
  *v0 = new_local (e, lt, NULL);
  *v1 = new_local (e, lt, NULL);
  own.safe_push (n0), own.safe_push (qq), own.safe_push (rr);
  own.safe_push (*tid), own.safe_push (*v0), own.safe_push (*v1);
  append_to_statement_list (build2 (MODIFY_EXPR, lt, *tid, omp_thread ()),
                            region);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, n0, build2 (MAX_EXPR, lt, count, long_cst (0))),
      region);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, qq, build2 (TRUNC_DIV_EXPR, lt, n0, nteam)),
      region);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, rr, build2 (TRUNC_MOD_EXPR, lt, n0, nteam)),
      region);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, *v0,
              build2 (PLUS_EXPR, lt, build2 (MULT_EXPR, lt, *tid, qq),
                      build2 (MIN_EXPR, lt, *tid, rr))),
      region);
  tree extra = fold_convert (lt, build2 (LT_EXPR, boolean_type_node, *tid,
                                         rr));
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, *v1,
              build2 (PLUS_EXPR, lt, *v0,
                      build2 (PLUS_EXPR, lt, qq, extra))),
      region);
}

/* The integer N of the program, with counter VAR standing for AT.  */
static tree
expr_at (emitter *e, const te_node *n, int var, tree at)
{
  tree saved = e->vars[var];
  e->vars[var] = at;
  tree r = fold_convert (long_integer_type_node, expr (e, n));
  e->vars[var] = saved;
  return r;
}

/* The calling thread's partial of ELEM that holds the elements its
   iterations V0 to V1 - 1 of the loop over VAR (blocks of WIDTH of it,
   when not NULL) reach, FIRST at its first to LAST at its last, within
   LO to LO + SPAN - 1:
     if (ptrs)
       { a = max (FIRST (v0), lo);  b = min (LAST (v1 - 1), lo + span - 1);
         sp = v0 < v1 ? max (b - a + 1, 0) : 0;
         blk = malloc (sp * size + gap);  memset (blk, 0, sp * size);
         ptrs[tid] = blk;  bnds[2 tid] = a;  bnds[2 tid + 1] = sp;
         BASE = blk - a; }
     else BASE = NULL;
   The gap keeps the next block of the heap, another thread's maybe,
   a page from the lines this one writes (PARTIAL_GAP).  */
static tree
ranged_block (emitter *e, int var, tree width, const te_node *first,
              const te_node *last, tree elem, tree lo, tree span, tree ptrs,
              tree bnds, tree tid, tree v0, tree v1, tree base,
              vec<tree> &own)
{
  tree lt = long_integer_type_node;
  tree at = new_local (e, lt, NULL), a = new_local (e, lt, NULL);
  tree b = new_local (e, lt, NULL), sp = new_local (e, lt, NULL);
  tree pe = build_pointer_type (elem);
  tree blk = new_local (e, pe, NULL);
  own.safe_push (at), own.safe_push (a), own.safe_push (b);
  own.safe_push (sp), own.safe_push (blk);
  tree set = alloc_stmt_list ();
  tree from = width ? build2 (MULT_EXPR, lt, v0, width) : v0;
  tree to = build2 (MINUS_EXPR, lt,
                    width ? build2 (MULT_EXPR, lt, v1, width) : v1,
                    long_cst (1));
  append_to_statement_list (build2 (MODIFY_EXPR, lt, at, from), &set);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, a,
              build2 (MAX_EXPR, lt, expr_at (e, first, var, at), lo)),
      &set);
  append_to_statement_list (build2 (MODIFY_EXPR, lt, at, to), &set);
  tree top = build2 (MINUS_EXPR, lt, build2 (PLUS_EXPR, lt, lo, span),
                     long_cst (1));
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, b,
              build2 (MIN_EXPR, lt, expr_at (e, last, var, at), top)),
      &set);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, sp,
              build3 (COND_EXPR, lt,
                      build2 (LT_EXPR, boolean_type_node, v0, v1),
                      build2 (MAX_EXPR, lt,
                              build2 (PLUS_EXPR, lt,
                                      build2 (MINUS_EXPR, lt, b, a),
                                      long_cst (1)),
                              long_cst (0)),
                      long_cst (0))),
      &set);
  tree bytes = fold_build2 (MULT_EXPR, size_type_node,
                            fold_convert (size_type_node, sp),
                            TYPE_SIZE_UNIT (elem));
  tree call = build_call_expr (
      builtin_decl_explicit (BUILT_IN_MALLOC), 1,
      fold_build2 (PLUS_EXPR, size_type_node, bytes,
                   build_int_cst (size_type_node, PARTIAL_GAP)));
  append_to_statement_list (
      build2 (MODIFY_EXPR, pe, blk, fold_convert (pe, call)), &set);
  append_to_statement_list (
      build_call_expr (builtin_decl_explicit (BUILT_IN_MEMSET), 3, blk,
                       integer_zero_node, bytes),
      &set);
  append_to_statement_list (
      build2 (MODIFY_EXPR, pe,
              build_fold_indirect_ref (element_plus (ptrs, pe, tid)), blk),
      &set);
  tree two_t = build2 (MULT_EXPR, lt, tid, long_cst (2));
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt,
              build_fold_indirect_ref (element_plus (bnds, lt, two_t)), a),
      &set);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt,
              build_fold_indirect_ref (element_plus (
                  bnds, lt, build2 (PLUS_EXPR, lt, two_t, long_cst (1)))),
              sp),
      &set);
  append_to_statement_list (
      build2 (MODIFY_EXPR, TREE_TYPE (base), base,
              fold_convert (TREE_TYPE (base),
                            element_plus (blk, elem,
                                          build1 (NEGATE_EXPR, lt, a)))),
      &set);
  return build3 (COND_EXPR, void_type_node, nonnull (ptrs), set,
                 build2 (MODIFY_EXPR, TREE_TYPE (base), base,
                         build_zero_cst (TREE_TYPE (base))));
}

/* After the barrier, the sum of partials kept by ranged_block into DST
   (of ELEM), the elements LO to LO + SPAN - 1 shared out among the
   NTEAM threads, each element's partials added in thread order:
     if (ptrs)
       #pragma omp for schedule (static) nowait
       for (q = 0; q < span; q++)
         { acc = 0;
           for (t = 0; t < nteam; t++)
             { d = lo + q - bnds[2 t];
               if (d >= 0 && d < bnds[2 t + 1]) acc += ptrs[t][d]; }
           if (acc != 0) DST[lo + q] += acc; }  */
static tree
ranged_sum (emitter *e, tree elem, tree dst, tree lo, tree span, tree ptrs,
            tree bnds, tree nteam, vec<tree> &own)
{
  tree lt = long_integer_type_node;
  tree q = new_local (e, lt, NULL), t = new_local (e, lt, NULL);
  tree d = new_local (e, lt, NULL), acc = new_local (e, elem, NULL);
  own.safe_push (q), own.safe_push (t), own.safe_push (d);
  own.safe_push (acc);
  tree pe = build_pointer_type (elem);
  tree two_t = build2 (MULT_EXPR, lt, t, long_cst (2));
  tree at = build_fold_indirect_ref (element_plus (bnds, lt, two_t));
  tree sp = build_fold_indirect_ref (element_plus (
      bnds, lt, build2 (PLUS_EXPR, lt, two_t, long_cst (1))));
  tree blk = build_fold_indirect_ref (element_plus (ptrs, pe, t));
  tree per_thread = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, d,
              build2 (MINUS_EXPR, lt, build2 (PLUS_EXPR, lt, lo, q), at)),
      &per_thread);
  tree inside = build2 (TRUTH_ANDIF_EXPR, boolean_type_node,
                        build2 (GE_EXPR, boolean_type_node, d, long_cst (0)),
                        build2 (LT_EXPR, boolean_type_node, d, sp));
  append_to_statement_list (
      build3 (COND_EXPR, void_type_node, inside,
              build2 (MODIFY_EXPR, elem, acc,
                      build2 (PLUS_EXPR, elem, acc,
                              build_fold_indirect_ref (
                                  element_plus (blk, elem, d)))),
              NULL_TREE),
      &per_thread);
  tree per_elem = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, elem, acc, build_zero_cst (elem)), &per_elem);
  append_to_statement_list (count_loop (e, t, nteam, per_thread), &per_elem);
  tree to = build_fold_indirect_ref (
      element_plus (dst, elem, build2 (PLUS_EXPR, lt, lo, q)));
  append_to_statement_list (
      build3 (COND_EXPR, void_type_node,
              build2 (NE_EXPR, boolean_type_node, acc, build_zero_cst (elem)),
              build2 (MODIFY_EXPR, elem, to,
                      build2 (PLUS_EXPR, elem, to, acc)),
              NULL_TREE),
      &per_elem);
  return build3 (COND_EXPR, void_type_node, nonnull (ptrs),
                 omp_for_loop (e->loc, q, span, per_elem, true), NULL_TREE);
}

/* After the region: if (ptrs) { for (t < nth) free (ptrs[t]);
   free (ptrs); free (bnds); }  */
static tree
ranged_free (emitter *e, tree ptrs, tree bnds, tree nth)
{
  tree t = new_local (e, long_integer_type_node, NULL);
  tree pe = TREE_TYPE (TREE_TYPE (ptrs));
  tree fr = builtin_decl_explicit (BUILT_IN_FREE);
  tree all = count_loop (
      e, t, nth,
      build_call_expr (fr, 1,
                       build_fold_indirect_ref (element_plus (ptrs, pe, t))));
  append_to_statement_list (build_call_expr (fr, 1, ptrs), &all);
  append_to_statement_list (build_call_expr (fr, 1, bnds), &all);
  return build3 (COND_EXPR, void_type_node, nonnull (ptrs), all, NULL_TREE);
}

/* The team a region of WORK (an integer node of the sizes, or NULL:
   not told) asks for: one thread where WORK is below parallel-min,
   else omp_get_max_threads (), as a long.  */
static tree
team_size (emitter *e, const te_node *work)
{
  tree lt = long_integer_type_node;
  if (!work || emit_parallel_min <= 0)
    return omp_max_threads ();
  return build3 (COND_EXPR, lt,
                 build2 (LT_EXPR, boolean_type_node,
                         fold_convert (lt, expr (e, work)),
                         long_cst (emit_parallel_min)),
                 long_cst (1), omp_max_threads ());
}

/* #pragma omp parallel CLAUSES [num_threads (NTH)] { REGION } (NTH may be
   NULL).  omp-low.cc takes the first statement of a region for its bind,
   and the outlined function the bind's block for its own: a subblock of
   the gradient's (emit_gradient links it in), or -g's final pass walks
   from a statement's block to a function it never reaches.  */
static tree
omp_region (emitter *e, tree region, tree clauses, tree nth)
{
  if (nth)
    {
      tree c = build_omp_clause (e->loc, OMP_CLAUSE_NUM_THREADS);
      OMP_CLAUSE_NUM_THREADS_EXPR (c) = fold_convert (integer_type_node, nth);
      OMP_CLAUSE_CHAIN (c) = clauses;
      clauses = c;
    }
  tree team = make_node (OMP_PARALLEL);
  TREE_TYPE (team) = void_type_node;
  TREE_SIDE_EFFECTS (team) = 1;
  SET_EXPR_LOCATION (team, e->loc);
  tree rblock = make_node (BLOCK);
  e->region_blocks.safe_push (rblock);
  tree bind = build3 (BIND_EXPR, void_type_node, NULL_TREE, region, rblock);
  TREE_SIDE_EFFECTS (bind) = 1;
  OMP_PARALLEL_BODY (team) = bind;
  OMP_PARALLEL_CLAUSES (team) = clauses;
  return team;
}

/* LOOPS (NLOOPS of them, those of stage E->par_stage) around the body FN
   builds with ARG, the outermost on OpenMP threads:
     ext = ...;  nth = omp_get_max_threads ();
     stride = span rounded up to a line, + a page;        (each partial S)
     raw = S ? malloc (nth * stride * size + line) : NULL;
     part = raw rounded up to a line;
     #pragma omp parallel num_threads (nth) firstprivate (...) private (...)
     {
       own = calloc (size, ...);                           (each scratch)
       if (part) { base = part + omp_get_thread_num () * stride;
                   memset (base, 0, span * size); base -= lo; }
       else base = NULL;
       #pragma omp for schedule (static)
       for (v = 0; v < ext; v++)  (the inner loops, S at base, a scratch
                                    at own)
       free (own);
       nteam = omp_get_num_threads ();
       if (part)
         #pragma omp for schedule (static) nowait
         for (q = 0; q < span; q++)
           { a = sum (t < nteam) part[t * stride + q];
             if (a != 0) S[lo + q] += a; }
     }
     free (raw);
   Each thread zeroes its own block (so the lines it writes are in its
   cache), the blocks are a page apart, and the elements' sums are
   shared out among the threads, each in the order of the threads: the
   static schedule and that order make the result the same for a given
   number of threads on every run.  */
static tree
parallel_nest (emitter *e, int nloops, const te_loop *loops, body_fn fn,
               const void *arg)
{
  const te_stage *stage = e->par_stage;
  const te_parallel *par = stage->par;
  e->par_stage = NULL; /* its inner loops run as ever */
  tree lt = long_integer_type_node;
  location_t loc = e->loc;
  tree stmts = alloc_stmt_list ();
  tree ext = new_local (e, lt, NULL);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, ext,
              fold_convert (lt, expr (e, loops[0].extent))),
      &stmts);
  bool in_lanes = nloops == 1 && loops[0].lanes > 1 && !e->novector;
  tree width = in_lanes ? long_cst (loops[0].lanes) : NULL_TREE;
  tree count = ext;
  if (in_lanes)
    {
      count = new_local (e, lt, NULL);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, count,
                  build2 (TRUNC_DIV_EXPR, lt, ext, width)),
          &stmts);
    }
  tree nth = NULL_TREE;
  int np = par->npartial;
  bool ranged = false;
  for (int k = 0; k < np; k++)
    ranged |= par->first[k] != NULL;
  auto_vec<tree> part, raw, span, stride, lo, dst, elem, ptrs, bnds;
  /* nth = work < parallel-min ? 1 : omp_get_max_threads ();  */
  if (np || (par->work && emit_parallel_min > 0))
    {
      nth = new_local (e, lt, NULL);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, nth, team_size (e, par->work)), &stmts);
    }
  for (int k = 0; k < np; k++)
    {
      const te_tensor *t = par->partial[k];
      elem.safe_push (te_tree_type (t->type));
      /* A one-element local is an array on the stack: its element.  */
      dst.safe_push (fold_convert (build_pointer_type (elem[k]),
                                   tensor_base (e, t)));
      lo.safe_push (new_local (e, lt, NULL));
      span.safe_push (new_local (e, lt, NULL));
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, lo[k],
                  fold_convert (lt, expr (e, par->lo[k]))),
          &stmts);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, span[k],
                  fold_convert (lt, expr (e, par->span[k]))),
          &stmts);
      if (par->first[k])
        {
          /* ptrs = S ? calloc (nth, sizeof (T *)) : NULL;
             bnds = ptrs ? calloc (2 * nth, sizeof (long)) : NULL;  */
          tree pe = build_pointer_type (elem[k]);
          ptrs.safe_push (new_local (e, build_pointer_type (pe), NULL));
          bnds.safe_push (new_local (e, build_pointer_type (lt), NULL));
          append_to_statement_list (
              build2 (MODIFY_EXPR, TREE_TYPE (ptrs[k]), ptrs[k],
                      build3 (COND_EXPR, TREE_TYPE (ptrs[k]), nonnull (dst[k]),
                              calloc_of (pe, nth),
                              build_zero_cst (TREE_TYPE (ptrs[k])))),
              &stmts);
          append_to_statement_list (
              build2 (MODIFY_EXPR, TREE_TYPE (bnds[k]), bnds[k],
                      build3 (COND_EXPR, TREE_TYPE (bnds[k]),
                              nonnull (ptrs[k]),
                              calloc_of (lt, build2 (MULT_EXPR, lt, nth,
                                                     long_cst (2))),
                              build_zero_cst (TREE_TYPE (bnds[k])))),
              &stmts);
          stride.safe_push (NULL_TREE);
          raw.safe_push (NULL_TREE);
          part.safe_push (NULL_TREE);
          continue;
        }
      ptrs.safe_push (NULL_TREE);
      bnds.safe_push (NULL_TREE);
      stride.safe_push (new_local (e, lt, NULL));
      raw.safe_push (new_local (e, build_pointer_type (elem[k]), NULL));
      part.safe_push (new_local (e, restrict_pointer (elem[k]), NULL));
      /* stride = (max (span, 0) + L - 1) / L * L + G, in elements.  */
      HOST_WIDE_INT size = tree_to_shwi (TYPE_SIZE_UNIT (elem[k]));
      tree line = long_cst (PARTIAL_LINE / size);
      tree rounded = build2 (
          MULT_EXPR, lt,
          build2 (TRUNC_DIV_EXPR, lt,
                  build2 (PLUS_EXPR, lt,
                          build2 (MAX_EXPR, lt, span[k], long_cst (0)),
                          long_cst (PARTIAL_LINE / size - 1)),
                  line),
          line);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, stride[k],
                  build2 (PLUS_EXPR, lt, rounded,
                          long_cst (PARTIAL_GAP / size))),
          &stmts);
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (raw[k]), raw[k],
                  build3 (COND_EXPR, TREE_TYPE (raw[k]), nonnull (dst[k]),
                          malloc_of (elem[k],
                                     build2 (MULT_EXPR, lt, nth, stride[k])),
                          build_zero_cst (TREE_TYPE (raw[k])))),
          &stmts);
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (part[k]), part[k],
                  fold_convert (TREE_TYPE (part[k]),
                                line_aligned (raw[k]))),
          &stmts);
    }

  /* The region's own pointers, set first in it.  */
  tree region = alloc_stmt_list ();
  auto_vec<tree> own, frees;
  tree nteam = NULL_TREE, tid = NULL_TREE, v0 = NULL_TREE, v1 = NULL_TREE;
  if (np)
    {
      nteam = new_local (e, lt, NULL);
      own.safe_push (nteam);
      tree nfn = builtin_decl_explicit (BUILT_IN_OMP_GET_NUM_THREADS);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, nteam,
                  fold_convert (lt, build_call_expr (nfn, 0))),
          &region);
    }
  if (ranged)
    region_chunk (e, count, nteam, own, &region, &tid, &v0, &v1);
  unsigned mark = e->own_tensors.length ();
  for (int k = 0; k < par->nscratch; k++)
    {
      const te_tensor *t = par->scratch[k];
      tree el = te_tree_type (t->type);
      tree ptr = new_local (e, restrict_pointer (el), NULL);
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (ptr), ptr,
                  calloc_of (el, expr (e, t->size))),
          &region);
      frees.safe_push (ptr);
      own.safe_push (ptr);
      e->own_tensors.safe_push (t);
      e->own_ptrs.safe_push (ptr);
    }
  for (int k = 0; k < np; k++)
    {
      if (ptrs[k])
        {
          tree base = new_local (e, restrict_pointer (elem[k]), NULL);
          append_to_statement_list (
              ranged_block (e, loops[0].var, width, par->first[k],
                            par->last[k], elem[k], lo[k], span[k], ptrs[k],
                            bnds[k], tid, v0, v1, base, own),
              &region);
          own.safe_push (base);
          e->own_tensors.safe_push (par->partial[k]);
          e->own_ptrs.safe_push (base);
          continue;
        }
      tree base = new_local (e, TREE_TYPE (part[k]), NULL);
      tree set = alloc_stmt_list ();
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (base), base,
                  element_plus (part[k], elem[k],
                                build2 (MULT_EXPR, lt, omp_thread (),
                                        stride[k]))),
          &set);
      tree bytes = fold_build2 (
          MULT_EXPR, size_type_node,
          fold_convert (size_type_node,
                        build2 (MAX_EXPR, lt, span[k], long_cst (0))),
          TYPE_SIZE_UNIT (elem[k]));
      append_to_statement_list (
          build_call_expr (builtin_decl_explicit (BUILT_IN_MEMSET), 3, base,
                           integer_zero_node, bytes),
          &set);
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (base), base,
                  element_plus (base, elem[k],
                                build1 (NEGATE_EXPR, lt, lo[k]))),
          &set);
      append_to_statement_list (
          build3 (COND_EXPR, void_type_node, nonnull (part[k]), set,
                  build2 (MODIFY_EXPR, TREE_TYPE (base), base,
                          build_zero_cst (TREE_TYPE (base)))),
          &region);
      own.safe_push (base);
      e->own_tensors.safe_push (par->partial[k]);
      e->own_ptrs.safe_push (base);
    }
  /* The counter before the nest's own locals: the loop runs it, the
     body only reads it.  */
  /* A loop in lanes (lanes.c; parallel.c lets no sum along it through)
     runs its blocks of WIDTH on threads, each block's lanes in one
     thread, and the rest after the region:
       for (blk = 0; blk < ext / W; blk++)      (on threads)
         for (lane = 0; lane < W; lane++) { v = blk * W + lane; BODY }
       for (v = ext / W * W; v < ext; v++) BODY  */
  tree var = NULL_TREE, ctr;
  if (!in_lanes)
    ctr = var = loop_var_decl (e, loops[0].var);
  else
    ctr = new_local (e, lt, NULL);
  tree older = e->locals;
  tree inner;
  if (in_lanes)
    {
      /* The element's counter is the body's own, as the lane's.  */
      e->vars[loops[0].var] = NULL_TREE;
      var = loop_var_decl (e, loops[0].var);
      tree lane = new_local (e, lt, NULL);
      tree body = alloc_stmt_list ();
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, var,
                  build2 (PLUS_EXPR, lt,
                          build2 (MULT_EXPR, lt, ctr, width), lane)),
          &body);
      append_to_statement_list (fn (e, arg), &body);
      inner = alloc_stmt_list ();
      append_to_statement_list (build2 (MODIFY_EXPR, lt, lane, long_cst (0)),
                                &inner);
      append_to_statement_list (
          plain_loop (e, build2 (GE_EXPR, boolean_type_node, lane, width),
                      body,
                      build2 (MODIFY_EXPR, lt, lane,
                              build2 (PLUS_EXPR, lt, lane, long_cst (1)))),
          &inner);
    }
  else
    inner = loop_nest (e, nloops - 1, loops + 1, false, fn, arg);
  e->own_tensors.truncate (mark);
  e->own_ptrs.truncate (mark);
  /* The stage's other nests (a shared stage's slow one, each statement's
     of a stage of nests) run on threads too.  */
  e->par_stage = stage;

  if (ranged)
    {
      /* for (ctr = v0; ctr < v1; ctr++) BODY; then the barrier.  */
      own.safe_push (ctr);
      append_to_statement_list (build2 (MODIFY_EXPR, lt, ctr, v0), &region);
      append_to_statement_list (
          plain_loop (e, build2 (GE_EXPR, boolean_type_node, ctr, v1),
                      outline_body (e, inner, older),
                      build2 (MODIFY_EXPR, lt, ctr,
                              build2 (PLUS_EXPR, lt, ctr, long_cst (1)))),
          &region);
      append_to_statement_list (
          build_call_expr (builtin_decl_explicit (BUILT_IN_GOMP_BARRIER), 0),
          &region);
    }
  else
    append_to_statement_list (
        omp_for_loop (loc, ctr, count, outline_body (e, inner, older), false),
        &region);
  for (unsigned k = 0; k < frees.length (); k++)
    append_to_statement_list (
        build_call_expr (builtin_decl_explicit (BUILT_IN_FREE), 1, frees[k]),
        &region);

  /* The partials: each element's, thread by thread, added to it, the
     elements shared out among the threads after the loop's barrier.  An
     element no thread added to is left alone: the range [lo, lo + span)
     covers every element the indices reach over all the loops, also
     where a guard keeps the statement from running (a padded
     convolution's taps), which may lie outside the array.  The sum runs
     over the team the region has (omp_get_num_threads), which may be
     smaller than asked for: each thread zeroed its own block only.  */
  for (int k = 0; k < np; k++)
    {
      if (ptrs[k])
        {
          append_to_statement_list (
              ranged_sum (e, elem[k], dst[k], lo[k], span[k], ptrs[k],
                          bnds[k], nteam, own),
              &region);
          continue;
        }
      tree t = new_local (e, lt, NULL), q = new_local (e, lt, NULL);
      tree acc = new_local (e, elem[k], NULL);
      own.safe_push (t);
      own.safe_push (q);
      own.safe_push (acc);
      tree to = build_fold_indirect_ref (
          element_plus (dst[k], elem[k], build2 (PLUS_EXPR, lt, lo[k], q)));
      tree from = build_fold_indirect_ref (element_plus (
          part[k], elem[k],
          build2 (PLUS_EXPR, lt, build2 (MULT_EXPR, lt, t, stride[k]), q)));
      tree per_elem = alloc_stmt_list ();
      append_to_statement_list (build2 (MODIFY_EXPR, elem[k], acc,
                                        build_zero_cst (elem[k])),
                                &per_elem);
      append_to_statement_list (
          count_loop (e, t, nteam,
                      build2 (MODIFY_EXPR, elem[k], acc,
                              build2 (PLUS_EXPR, elem[k], acc, from))),
          &per_elem);
      append_to_statement_list (
          build3 (COND_EXPR, void_type_node,
                  build2 (NE_EXPR, boolean_type_node, acc,
                          build_zero_cst (elem[k])),
                  build2 (MODIFY_EXPR, elem[k], to,
                          build2 (PLUS_EXPR, elem[k], to, acc)),
                  NULL_TREE),
          &per_elem);
      append_to_statement_list (
          build3 (COND_EXPR, void_type_node, nonnull (part[k]),
                  omp_for_loop (loc, q, span[k], per_elem, true), NULL_TREE),
          &region);
    }

  tree clauses = region_clauses (e, par, region, ranged ? NULL_TREE : ctr,
                                own);
  location_t at = e->loc;
  e->loc = loc;
  append_to_statement_list (omp_region (e, region, clauses, nth), &stmts);
  e->loc = at;

  for (int k = 0; k < np; k++)
    append_to_statement_list (
        ptrs[k] ? ranged_free (e, ptrs[k], bnds[k], nth)
                : build_call_expr (builtin_decl_explicit (BUILT_IN_FREE), 1,
                                   raw[k]),
        &stmts);
  if (in_lanes)
    {
      /* The rest, on this thread.  */
      tree v = loop_var_decl (e, loops[0].var);
      append_to_statement_list (
          build2 (MODIFY_EXPR, lt, v, build2 (MULT_EXPR, lt, count, width)),
          &stmts);
      append_to_statement_list (
          plain_loop (e, build2 (GE_EXPR, boolean_type_node, v, ext),
                      fn (e, arg),
                      build2 (MODIFY_EXPR, lt, v,
                              build2 (PLUS_EXPR, lt, v, long_cst (1)))),
          &stmts);
    }
  return located (e, stmts);
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

/* Which loops stmt_nest puts around a statement: none (inside a run's
   nest of them), its own, or its own and its stage's.  */
enum nest_loops
{
  NO_LOOPS,
  OWN_LOOPS,
  ALL_LOOPS
};

static tree
store_body (emitter *e, const void *arg)
{
  return store (e, (const te_lw_stmt *) arg);
}

/* Statement ARG's own loops around it.  */
static tree
own_nest (emitter *e, const void *arg)
{
  const te_lw_stmt *l = (const te_lw_stmt *) arg;
  return loop_nest (e, l->st->ninner, l->st->inner, false, store_body, l);
}

/* Statement L of stage S inside its NULL tests, in the loops LOOPS
   says.  */
static tree
stmt_nest (emitter *e, const te_stage *s, const te_lw_stmt *l,
           enum nest_loops loops)
{
  const te_stmt *st = l->st;
  e->loc = stmt_location (e, st->loc);
  e->cond_loads = l->zero;
  e->ncond = l->nzero;
  /* Inside a loop in lanes, its partial sums reach the element behind
     the same tests.  */
  e->lane_skip = e->lanes ? l->skip : NULL;
  e->lane_nskip = e->lanes ? l->nskip : 0;
  tree nest;
  if (loops == NO_LOOPS)
    nest = store (e, l);
  else
    {
      /* Loops that read NULL-able shadows as 0 run twice: where they are
         all there, without a test per load (which keeps GCC from
         vectorizing at -O2), else with the tests.  */
      tree cond = all_nonnull (e, l->zero, l->nzero);
      tree fast = NULL_TREE;
      if (cond)
        {
          e->ncond = 0;
          fast = loops == ALL_LOOPS
                     ? loop_nest (e, s->nloops, s->loops, s->reversed,
                                  own_nest, l)
                     : own_nest (e, l);
          e->ncond = l->nzero;
        }
      nest = loops == ALL_LOOPS
                 ? loop_nest (e, s->nloops, s->loops, s->reversed, own_nest, l)
                 : own_nest (e, l);
      if (cond)
        nest = build3 (COND_EXPR, void_type_node, cond, fast, nest);
    }
  e->lane_skip = NULL;
  e->lane_nskip = 0;
  e->ncond = 0;
  tree cond = all_nonnull (e, l->skip, l->nskip);
  if (cond)
    nest = build3 (COND_EXPR, void_type_node, cond, nest, NULL_TREE);
  return nest;
}

/* The fast body of a TE_LW_SHARED stage ARG: its shared values, then
   every statement.  */
static tree
shared_fast_body (emitter *e, const void *arg)
{
  const te_lw_stage *g = (const te_lw_stage *) arg;
  const te_stage *s = g->stage;
  tree body = alloc_stmt_list ();
  e->loc = stmt_location (e, s->stmts[0].loc);
  unsigned mark = e->bound_ids.length (), smark = e->scopes.length ();
  enter_scope (e, g->scope, &body);
  for (int k = 0; k < s->nstmts; k++)
    append_to_statement_list (store (e, &g->fast[k]), &body);
  leave_scopes (e, mark, smark);
  return body;
}

/* Its slow body: each statement inside its NULL tests.  */
static tree
shared_slow_body (emitter *e, const void *arg)
{
  const te_lw_stage *g = (const te_lw_stage *) arg;
  tree slow = alloc_stmt_list ();
  for (int k = 0; k < g->nstmts; k++)
    append_to_statement_list (stmt_nest (e, g->stage, &g->stmts[k],
                                         OWN_LOOPS),
                              &slow);
  return slow;
}

/* Stage G of shape TE_LW_SHARED: if every shadow its statements touch is
   there, one loop nest computing the shared values once and every
   statement; otherwise one loop nest of the statements, each skipped or
   reading zeros for its NULL shadows (still one nest: a temporary may
   live for one iteration, lib/passes/shrink.c).  */
static tree
shared_nest (emitter *e, const te_lw_stage *g)
{
  const te_stage *s = g->stage;
  tree fast = loop_nest (e, s->nloops, s->loops, false, shared_fast_body, g);
  tree cond = all_nonnull (e, g->all, g->nall);
  if (!cond)
    return fast;
  tree slow = loop_nest (e, s->nloops, s->loops, false, shared_slow_body, g);
  return build3 (COND_EXPR, void_type_node, cond, fast, slow);
}

struct run_arg
{
  const te_lw_stage *g;
  const te_lw_run *r;
};

/* The fast body of run ARG: the values its statements share, then each
   statement.  */
static tree
run_fast_body (emitter *e, const void *arg)
{
  const te_lw_run *r = ((const run_arg *) arg)->r;
  tree body = alloc_stmt_list ();
  e->loc = stmt_location (e, r->fast[0].st->loc);
  unsigned mark = e->bound_ids.length (), smark = e->scopes.length ();
  enter_scope (e, r->scope, &body);
  for (int k = 0; k < r->n; k++)
    {
      e->loc = stmt_location (e, r->fast[k].st->loc);
      append_to_statement_list (store (e, &r->fast[k]), &body);
    }
  leave_scopes (e, mark, smark);
  return body;
}

/* Its slow body: each statement inside its NULL tests.  */
static tree
run_slow_body (emitter *e, const void *arg)
{
  const run_arg *a = (const run_arg *) arg;
  tree slow = alloc_stmt_list ();
  for (int k = 0; k < a->r->n; k++)
    append_to_statement_list (stmt_nest (e, a->g->stage,
                                         &a->g->stmts[a->r->first + k],
                                         NO_LOOPS),
                              &slow);
  return slow;
}

/* Run R of stage G of shape TE_LW_ONE (lib/back/lower.h): one loop nest
   of its statements' own loops, the fast one computing their shared
   values once if every shadow they touch is there, else the slow one,
   each statement inside its NULL tests but those R hoists around it.  */
static tree
run_nest (emitter *e, const te_lw_stage *g, const te_lw_run *r)
{
  const te_stmt *st = r->fast[0].st;
  run_arg a = { g, r };
  tree fast = loop_nest (e, st->ninner, st->inner, false, run_fast_body, &a);
  tree cond = all_nonnull (e, r->all, r->nall);
  if (!cond)
    return fast;
  tree slow = loop_nest (e, st->ninner, st->inner, false, run_slow_body, &a);
  tree hoist = all_nonnull (e, r->hoist, r->nhoist);
  if (hoist)
    slow = build3 (COND_EXPR, void_type_node, hoist, slow, NULL_TREE);
  return build3 (COND_EXPR, void_type_node, cond, fast, slow);
}

/* The body of a TE_LW_ONE stage ARG: every statement, those of a run in
   one nest of their own loops.  */
static tree
one_body (emitter *e, const void *arg)
{
  const te_lw_stage *g = (const te_lw_stage *) arg;
  const te_stage *s = g->stage;
  tree inner = alloc_stmt_list ();
  int r = 0;
  for (int k = 0; k < g->nstmts; k++)
    if (r < g->nruns && g->runs[r].first == k)
      {
        append_to_statement_list (run_nest (e, g, &g->runs[r]), &inner);
        k += g->runs[r++].n - 1;
      }
    else
      append_to_statement_list (stmt_nest (e, s, &g->stmts[k], OWN_LOOPS),
                                &inner);
  return inner;
}

/* Stage G of shape TE_LW_ONE: one loop nest, each iteration running
   every statement, those of a run in one nest of their own loops.  */
static tree
one_nest (emitter *e, const te_lw_stage *g)
{
  const te_stage *s = g->stage;
  return loop_nest (e, s->nloops, s->loops, s->reversed, one_body, g);
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

static tree library_fn (const char *name, tree *made, tree ret, int n,
                        tree *args);
static tree const_pointer_to (tree elem);
static tree cblas_decl_of (te_type type);

/* The function call C calls when it names no declaration (a function of
   libtensorgrad: lib/passes/winograd.c): the translation unit's (from
   <tensorgrad.h>) or one made once, void NAME (its arguments: long for
   an integer, const T * for an array it reads, T * for one it writes,
   then T * for each shadow of its gradient, then the gemm's pointer).  */
static tree
runtime_fn (const te_call *c)
{
  const char *name = c->grad ? c->grad_name : c->name;
  tree id = get_identifier (name);
  for (tree l = made_runtime; l; l = TREE_CHAIN (l))
    if (TREE_PURPOSE (l) == id)
      return TREE_VALUE (l);
  auto_vec<tree> types;
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind == TE_PK_INT)
        types.safe_push (long_integer_type_node);
      else
        {
          tree elem = te_tree_type (a->tensor->type);
          types.safe_push (a->writes ? build_pointer_type (elem)
                                     : const_pointer_to (elem));
        }
    }
  for (int i = 0; c->grad && i < c->nargs; i++)
    if (c->args[i].kind == TE_PK_PTR_FLOAT)
      types.safe_push (build_pointer_type (
          te_tree_type (c->args[i].tensor->type)));
  if (c->gemm != TE_GEMM_NONE)
    types.safe_push (build_pointer_type (
        TREE_TYPE (cblas_decl_of (te_call_elem_type (c)))));
  tree made = NULL_TREE;
  tree fn = library_fn (name, &made, void_type_node, types.length (),
                        types.address ());
  made_runtime = tree_cons (id, fn, made_runtime);
  return fn;
}

/* Call stage C: the callee, in the prologue (storing its result), or its
   gradient with the adjoints, after the locals of its arguments' scope
   SCOPE.  */
static tree
call_stmt (emitter *e, const te_call *c, const te_lw_scope *scope)
{
  tree list = alloc_stmt_list ();
  enter_scope (e, scope, &list);
  tree fn = (tree) (c->grad ? c->grad_fn : c->fn);
  if (!fn)
    fn = runtime_fn (c);
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
  if (c->gemm != TE_GEMM_NONE)
    {
      /* The gemm: the CBLAS's, the tiled product's (tiled.cc's adapter,
         made once per object and type), or NULL (the callee's loops).  */
      te_type t = te_call_elem_type (c);
      int d = t == TE_F64;
      tree gemm = NULL_TREE;
      if (c->gemm == TE_GEMM_CBLAS)
        gemm = cblas_decl_of (t);
      else if (c->gemm == TE_GEMM_TILED)
        {
          if (!made_tiled[d])
            made_tiled[d] = tiled_build (t, e->fndecl, &pending);
          if (!made_wgemm[d])
            made_wgemm[d] = tiled_gemm_adapter (t, made_tiled[d], e->fndecl,
                                                &pending);
          gemm = made_wgemm[d];
        }
      tree v = null_pointer_node;
      if (gemm)
        {
          TREE_USED (gemm) = 1;
          v = build_fold_addr_expr (gemm);
        }
      args.safe_push (fold_convert (next_type (&types, ptr_type_node), v));
    }
  TREE_USED (fn) = 1;
  tree call = build_call_expr_loc_array (e->loc, fn, args.length (),
                                         args.address ());
  if (!c->grad && c->ret)
    {
      tree dst = element (e, c->ret, te_int (e->p->ctx, 0));
      call = build2 (MODIFY_EXPR, TREE_TYPE (dst), dst,
                     fold_convert (TREE_TYPE (dst), call));
    }
  leave_scopes (e, 0, 0);
  append_to_statement_list (call, &list);
  return list;
}

/* The C library's stderr: the translation unit's declaration when the
   call graph knows one, else an external `void *stderr' (what glibc and
   musl define).  */
static tree
stderr_decl (location_t loc)
{
  varpool_node *v;
  FOR_EACH_VARIABLE (v)
    if (DECL_NAME (v->decl) && id_equal (DECL_NAME (v->decl), "stderr")
        && TREE_PUBLIC (v->decl) && POINTER_TYPE_P (TREE_TYPE (v->decl)))
      return v->decl;
  if (!made_stderr)
    {
      made_stderr = build_decl (loc, VAR_DECL, get_identifier ("stderr"),
                                ptr_type_node);
      TREE_PUBLIC (made_stderr) = 1;
      DECL_EXTERNAL (made_stderr) = 1;
    }
  return made_stderr;
}

/* ---- matrix products as CBLAS calls (te_lw_stage.gemm) ----------------- */

/* Library function NAME: the translation unit's declaration when the
   call graph knows one (<cblas.h>, with its enum types; <tensorgrad.h>),
   else *MADE, made once as an external RET NAME (ARGS[0..N)), its own
   name, never a C++ mangling of it.  The CBLAS defines the enums
   int-sized and the sizes int (an LP64 build).  */
static tree
library_fn (const char *name, tree *made, tree ret, int n, tree *args)
{
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (DECL_NAME (node->decl) && id_equal (DECL_NAME (node->decl), name)
        && TREE_PUBLIC (node->decl))
      return node->decl;
  if (!*made)
    {
      tree type = build_function_type_array (ret, n, args);
      *made = build_fn_decl (name, type);
      SET_DECL_ASSEMBLER_NAME (*made, get_identifier (name));
    }
  return *made;
}

/* const ELEM *.  */
static tree
const_pointer_to (tree elem)
{
  return build_pointer_type (build_qualified_type (elem, TYPE_QUAL_CONST));
}

/* cblas_sgemm or cblas_dgemm for G (library_fn): void NAME (int, int, int,
   int, int, int, T, const T *, int, const T *, int, T, T *, int), the
   enums CblasRowMajor 101, CblasNoTrans 111, CblasTrans 112.  */
static tree
cblas_decl_of (te_type type)
{
  tree elem = te_tree_type (type), cptr = const_pointer_to (elem);
  tree i = integer_type_node;
  tree args[14] = { i, i, i, i, i, i, elem, cptr, i, cptr, i, elem,
                    build_pointer_type (elem), i };
  return library_fn (te_blas_function (type, false),
                     &made_cblas[type == TE_F64], void_type_node, 14, args);
}

static tree
cblas_decl (const te_gemm *g)
{
  return cblas_decl_of (g->c->type);
}

/* A call of FN with the N values VALS, each converted to its parameter's
   type (FALLBACK[I] without a prototype).  */
static tree
call_converted (emitter *e, tree fn, int n, tree *vals, tree *fallback)
{
  tree types = TYPE_ARG_TYPES (TREE_TYPE (fn));
  tree args[16];
  for (int i = 0; i < n; i++)
    {
      if (!vals[i])
        return build_empty_stmt (e->loc);
      args[i] = fold_convert (next_type (&types, fallback[i]), vals[i]);
    }
  TREE_USED (fn) = 1;
  return build_call_expr_loc_array (e->loc, fn, n, args);
}

/* The CBLAS's gemm for G at the batch counters' values, into C (NULL:
   G's destination) with leading dimension LDC and BETA (NULL: G's).  */
static tree
gemm_call_into (emitter *e, const te_gemm *g, tree c, tree ldc, tree beta)
{
  te_ctx *ctx = e->p->ctx;
  tree elem = te_tree_type (g->c->type), it = integer_type_node;
  tree cptr = build_pointer_type (elem);
  tree vals[14] = {
    build_int_cst (it, 101), build_int_cst (it, g->trans_a ? 112 : 111),
    build_int_cst (it, g->trans_b ? 112 : 111), expr (e, g->m),
    expr (e, g->n), expr (e, g->k),
    expr (e, te_float (ctx, g->c->type, g->alpha)),
    element_address (e, g->a, g->off_a), expr (e, g->lda),
    element_address (e, g->b, g->off_b), expr (e, g->ldb),
    beta ? beta : expr (e, te_float (ctx, g->c->type, g->beta)),
    c ? c : element_address (e, g->c, g->off_c), ldc ? ldc : expr (e, g->ldc)
  };
  tree fb[14] = { it, it, it, it, it, it, elem, cptr, it, cptr, it,
                  elem, cptr, it };
  return call_converted (e, cblas_decl (g), 14, vals, fb);
}

/* One call of the CBLAS for product ARG (a te_gemm), at the batch
   counters' values.  */
static tree
gemm_call (emitter *e, const void *arg)
{
  return gemm_call_into (e, (const te_gemm *) arg, NULL_TREE, NULL_TREE,
                         NULL_TREE);
}

/* LO <= X <= INT_MAX, X an integer node; true when X is LO_NODE
   (tested before).  */
static tree
in_int_range (emitter *e, const te_node *x, tree lo, const te_node *lo_node)
{
  if (x == lo_node)
    return boolean_true_node;
  tree v = fold_convert (long_integer_type_node, expr (e, x));
  tree max = build_int_cst (long_integer_type_node, INT_MAX);
  return build2 (TRUTH_ANDIF_EXPR, boolean_type_node,
                 build2 (GE_EXPR, boolean_type_node, v,
                         fold_convert (long_integer_type_node, lo)),
                 build2 (LE_EXPR, boolean_type_node, v, max));
}

/* The sizes of G suit the BLAS: M, N, K between 1 and INT_MAX, each
   leading dimension at least its rows' length and at most INT_MAX.  */
static tree
gemm_sizes_ok (emitter *e, const te_gemm *g)
{
  tree one = build_int_cst (long_integer_type_node, 1);
  tree m = fold_convert (long_integer_type_node, expr (e, g->m));
  tree n = fold_convert (long_integer_type_node, expr (e, g->n));
  tree k = fold_convert (long_integer_type_node, expr (e, g->k));
  tree tests[6] = {
    in_int_range (e, g->m, one, NULL), in_int_range (e, g->n, one, NULL),
    in_int_range (e, g->k, one, NULL),
    in_int_range (e, g->lda, g->trans_a ? m : k, g->trans_a ? g->m : g->k),
    in_int_range (e, g->ldb, g->trans_b ? k : n, g->trans_b ? g->k : g->n),
    in_int_range (e, g->ldc, n, g->n)
  };
  tree cond = tests[0];
  for (int i = 1; i < 6; i++)
    cond = build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond, tests[i]);
  return cond;
}

/* One call of the tiled product's function (lib/back/tiled.h) for
   product G at the batch counters' values, on its columns from N0 on, N
   of them (N0 NULL: all): a transposed operand is its strides swapped.  */
static tree
tiled_call_cols (emitter *e, const te_gemm *g, tree n0, tree n)
{
  te_ctx *ctx = e->p->ctx;
  tree fn = made_tiled[g->c->type == TE_F64];
  tree lt = long_integer_type_node;
  tree one = build_int_cst (lt, 1);
  tree lda = expr (e, g->lda), ldb = expr (e, g->ldb);
  tree elem = te_tree_type (g->c->type);
  tree b = element_address (e, g->b, g->off_b);
  tree c = element_address (e, g->c, g->off_c);
  if (n0 && b && c && ldb)
    {
      /* Column j of op (B) starts at j (B[p ldb + j]) or j ldb.  */
      tree step = g->trans_b ? fold_convert (lt, ldb) : one;
      b = element_plus (b, elem, build2 (MULT_EXPR, lt, n0, step));
      c = element_plus (c, elem, n0);
    }
  tree vals[13] = {
    expr (e, g->m), n0 ? n : expr (e, g->n), expr (e, g->k),
    expr (e, te_float (ctx, g->c->type, g->alpha)),
    element_address (e, g->a, g->off_a), g->trans_a ? one : lda,
    g->trans_a ? lda : one, b, g->trans_b ? one : ldb,
    g->trans_b ? ldb : one, c, expr (e, g->ldc),
    build_int_cst (lt, g->beta == 0.0)
  };
  if (!fn)
    return build_empty_stmt (e->loc);
  /* The function has its prototype (tiled.cc): no fallback types.  */
  tree fb[13];
  for (int i = 0; i < 13; i++)
    fb[i] = lt;
  return call_converted (e, fn, 13, vals, fb);
}

static tree
tiled_call (emitter *e, const void *arg)
{
  return tiled_call_cols (e, (const te_gemm *) arg, NULL_TREE, NULL_TREE);
}

/* The sizes of G run tiled (lib/back/tiled.h): M, N, K at least their
   minimums and M N >= MIN_MNK / K, as longs.  */
static tree
tiled_sizes_ok (emitter *e, const te_gemm *g)
{
  tree lt = long_integer_type_node;
  tree m = fold_convert (lt, expr (e, g->m));
  tree n = fold_convert (lt, expr (e, g->n));
  tree k = fold_convert (lt, expr (e, g->k));
  tree cond = build2 (GE_EXPR, boolean_type_node, m,
                      build_int_cst (lt, TE_TILED_MIN_M));
  tree more[3] = {
    build2 (GE_EXPR, boolean_type_node, n, build_int_cst (lt, TE_TILED_MIN_N)),
    build2 (GE_EXPR, boolean_type_node, k, build_int_cst (lt, TE_TILED_MIN_K)),
    build2 (GE_EXPR, boolean_type_node, build2 (MULT_EXPR, lt, m, n),
            build2 (TRUNC_DIV_EXPR, lt, build_int_cst (lt, TE_TILED_MIN_MNK),
                    k))
  };
  for (int i = 0; i < 3; i++)
    cond = build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond, more[i]);
  return cond;
}

/* Does set product G (lower.c step 6c) run as a call: the sizes suit
   it and no NULL test skips it?  Then its array need not be zeroed.  */
static tree
gemm_runs (emitter *e, const te_lw_stage *g)
{
  tree cond = e->p->tiled ? tiled_sizes_ok (e, g->gemm)
                          : gemm_sizes_ok (e, g->gemm);
  tree tests = all_nonnull (e, g->stmts[0].skip, g->stmts[0].nskip);
  if (tests)
    cond = build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond, tests);
  return cond;
}

/* ---- products kept for the gradient (keep-products) -------------------- */

/* tg_keep_product's steps, <tensorgrad.h>'s TG_KEEP_OPERANDS,
   TG_KEEP_RESULT and TG_KEEP_TAKE (libtensorgrad's ABI).  */
enum { KEEP_OPERANDS, KEEP_RESULT, KEEP_TAKE };

/* libtensorgrad's int tg_keep_product (const char *, int, int, long,
   long, long, const void *, long, const void *, long, void *, long,
   double, double) (library_fn).  */
static tree
keep_decl (void)
{
  tree l = long_integer_type_node, i = integer_type_node;
  tree cv = const_ptr_type_node, cc = const_pointer_to (char_type_node);
  tree d = double_type_node;
  tree args[14] = { cc, i, i, l, l, l, cv, l, cv, l, ptr_type_node, l, d,
                    d };
  return library_fn ("tg_keep_product", &made_keep, integer_type_node, 14,
                     args);
}

/* A call of tg_keep_product for product G at step STEP (KEEP_...),
   under key "KERNEL/C".  */
static tree
keep_call (emitter *e, const te_gemm *g, int step)
{
  te_ctx *ctx = e->p->ctx;
  char *key = xasprintf ("%s/%s", emit_keep_kernel, g->c->name);
  tree lt = long_integer_type_node, it = integer_type_node;
  int flags = g->trans_a | g->trans_b << 1 | (g->c->type == TE_F64) << 2;
  tree vals[14] = {
    build_string_literal (strlen (key) + 1, key), build_int_cst (it, step),
    build_int_cst (it, flags), expr (e, g->m), expr (e, g->n),
    expr (e, g->k), element_address (e, g->a, g->off_a), expr (e, g->lda),
    element_address (e, g->b, g->off_b), expr (e, g->ldb),
    element_address (e, g->c, g->off_c), expr (e, g->ldc),
    expr (e, te_float (ctx, TE_F64, g->alpha)),
    expr (e, te_float (ctx, TE_F64, g->beta))
  };
  free (key);
  tree fb[14] = { TREE_TYPE (vals[0]), it, it, lt, lt, lt, ptr_type_node,
                  lt, ptr_type_node, lt, ptr_type_node, lt,
                  double_type_node, double_type_node };
  return call_converted (e, keep_decl (), 14, vals, fb);
}

/* CALLS, the calls of product G, with keep-products (emit_keep): in
   the kernel's helper (forward.cc), the operands kept before and the
   result after; in the gradient, the calls only where the kept product
   cannot be taken.  Only an unbatched product into a local array of
   the kernel's (te_tensor.decl), which the gradient computes again.  */
static tree
kept (emitter *e, const te_gemm *g, tree calls)
{
  if (emit_keep == EMIT_KEEP_NONE || g->nbatch || !g->c->decl)
    return calls;
  if (dump_file)
    fprintf (dump_file, "keep-products: %s/%s: %s %s\n", emit_keep_kernel,
             g->c->name, te_gemm_text (e->p, g),
             emit_keep == EMIT_KEEP_PUT
                 ? "kept for the gradient"
                 : "taken from the kernel's where its operands are "
                   "unchanged");
  if (emit_keep == EMIT_KEEP_TAKE)
    return build3 (COND_EXPR, void_type_node,
                   build2 (EQ_EXPR, boolean_type_node,
                           keep_call (e, g, KEEP_TAKE),
                           integer_zero_node),
                   calls, NULL_TREE);
  tree list = NULL_TREE;
  append_to_statement_list (keep_call (e, g, KEEP_OPERANDS), &list);
  append_to_statement_list (calls, &list);
  append_to_statement_list (keep_call (e, g, KEEP_RESULT), &list);
  return list;
}

/* ---- tiled products on the threads ------------------------------------ */

/* A tiled product and the locals of its thread's block of columns.  */
typedef struct cols_arg
{
  const te_gemm *g;
  tree nt, id, n0, n1;
} cols_arg;

/* One iteration of the batch loops of ARG (a cols_arg) in a thread:
   its block of CHUNK = ceil (N / nt / 16) 16 columns,
   n0 = min (N, id CHUNK), n1 = min (N, n0 + CHUNK), when not empty.  */
static tree
cols_call (emitter *e, const void *arg)
{
  const cols_arg *c = (const cols_arg *) arg;
  tree lt = long_integer_type_node;
  tree n = fold_convert (lt, expr (e, c->g->n));
  tree per = build2 (CEIL_DIV_EXPR, lt, n, c->nt);
  tree chunk = build2 (MULT_EXPR, lt,
                       build2 (CEIL_DIV_EXPR, lt, per, long_cst (16)),
                       long_cst (16));
  tree stmts = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, c->n0,
              build2 (MIN_EXPR, lt, n,
                      build2 (MULT_EXPR, lt, c->id, chunk))),
      &stmts);
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, c->n1,
              build2 (MIN_EXPR, lt, unshare_expr (n),
                      build2 (PLUS_EXPR, lt, c->n0, unshare_expr (chunk)))),
      &stmts);
  append_to_statement_list (
      build3 (COND_EXPR, void_type_node,
              build2 (GT_EXPR, boolean_type_node, c->n1, c->n0),
              tiled_call_cols (e, c->g, c->n0,
                               build2 (MINUS_EXPR, lt, c->n1, c->n0)),
              NULL_TREE),
      &stmts);
  return stmts;
}

/* Tiled product G in a gradient that runs on OpenMP threads: every
   thread runs each batch iteration's product on its own block of C's
   columns.  The blocks are apart, and an element's sum does not depend
   on the columns beside it (lib/back/tiled.h: blocks of 64 terms in
   order), so the result is the serial call's, bit for bit, whatever the
   number of threads.  The team is one thread where M N K times the
   batch iterations is below parallel-min.
     #pragma omp parallel num_threads (nth) firstprivate (...)
     { nt = omp_get_num_threads (); id = omp_get_thread_num ();
       for (batch...) { n0 = ...; n1 = ...; if (n1 > n0) tiled (...); } } */
static tree
tiled_team (emitter *e, const te_gemm *g)
{
  tree lt = long_integer_type_node;
  cols_arg c = { g, new_local (e, lt, NULL), new_local (e, lt, NULL),
                 new_local (e, lt, NULL), new_local (e, lt, NULL) };
  tree region = alloc_stmt_list ();
  append_to_statement_list (
      build2 (MODIFY_EXPR, lt, c.nt,
              fold_convert (lt, build_call_expr (builtin_decl_explicit (
                                                     BUILT_IN_OMP_GET_NUM_THREADS),
                                                 0))),
      &region);
  append_to_statement_list (build2 (MODIFY_EXPR, lt, c.id, omp_thread ()),
                            &region);
  append_to_statement_list (
      loop_nest (e, g->nbatch, g->batch, false, cols_call, &c), &region);
  auto_vec<tree> own;
  own.safe_push (c.nt);
  own.safe_push (c.id);
  own.safe_push (c.n0);
  own.safe_push (c.n1);
  te_parallel none;
  memset (&none, 0, sizeof none);
  tree clauses = region_clauses (e, &none, region, NULL_TREE, own);
  te_ctx *ctx = e->p->ctx;
  te_node *work = te_mul (ctx, te_mul (ctx, g->m, g->n), g->k);
  for (int i = 0; i < g->nbatch; i++)
    work = te_mul (ctx, work, g->batch[i].extent);
  return omp_region (e, region, clauses,
                     emit_parallel_min > 0 ? team_size (e, work) : NULL_TREE);
}

/* ---- products over a triangle (te_gemm.tri) --------------------------- */

/* cblas_strmm or cblas_dtrmm for G (library_fn): void NAME (int, int, int,
   int, int, int, int, T, const T *, int, T *, int), the enums order,
   side (CblasLeft 141, CblasRight 142), uplo (CblasUpper 121,
   CblasLower 122), transposition and diagonal (CblasNonUnit 131).  */
static tree
trmm_decl (const te_gemm *g)
{
  tree elem = te_tree_type (g->c->type), cptr = const_pointer_to (elem);
  tree i = integer_type_node;
  tree args[12] = { i, i, i, i, i, i, i, elem, cptr, i,
                    build_pointer_type (elem), i };
  return library_fn (te_gemm_function (g), &made_trmm[g->c->type == TE_F64],
                     void_type_node, 12, args);
}

/* *(P + I * LD + J) of element type ELEM.  */
static tree
matrix_ref (tree p, tree elem, tree i, tree ld, tree j)
{
  tree lt = long_integer_type_node;
  return build_fold_indirect_ref (element_plus (
      p, elem, build2 (PLUS_EXPR, lt, build2 (MULT_EXPR, lt, i, ld), j)));
}

/* A triangular product and its scratch.  */
typedef struct tri_arg
{
  const te_gemm *g;
  tree w;
} tri_arg;

/* The scratch's elements for G: TRI_C's product, or the factor a trmm
   works on in place (op (B), K by N, or op (A), M by K).  */
static tree
tri_scratch (emitter *e, const te_gemm *g)
{
  tree lt = long_integer_type_node;
  const te_node *r = g->tri == TE_GEMM_TRI_A ? g->k : g->m;
  const te_node *c = g->tri == TE_GEMM_TRI_B ? g->k : g->n;
  return build2 (MULT_EXPR, lt, fold_convert (lt, expr (e, r)),
                 fold_convert (lt, expr (e, c)));
}

/* One iteration of the batch loops of triangular product ARG (a
   tri_arg), W its scratch:
     TRI_C:  W = alpha op (A) op (B) (gemm, beta 0, ldc N);
             C[i ldc + j] += W[i N + j] over the triangle;
     TRI_A:  W[p N + j] = op (B)[p][j];  W = alpha op (A) W (trmm from
             the left, A's triangle);  C[i ldc + j] += W[i N + j];
     TRI_B:  W[i K + p] = op (A)[i][p];  W = alpha W op (B) (from the
             right);  C[i ldc + j] += W[i K + j].  */
static tree
tri_call (emitter *e, const void *arg)
{
  const tri_arg *t = (const tri_arg *) arg;
  const te_gemm *g = t->g;
  tree lt = long_integer_type_node, it = integer_type_node;
  tree elem = te_tree_type (g->c->type);
  tree c = element_address (e, g->c, g->off_c);
  if (!c)
    return build_empty_stmt (e->loc);
  tree m = fold_convert (lt, expr (e, g->m));
  tree n = fold_convert (lt, expr (e, g->n));
  tree i = new_local (e, lt, NULL), j = new_local (e, lt, NULL);
  tree stmts = alloc_stmt_list ();
  tree wld = n;
  if (g->tri == TE_GEMM_TRI_C)
    append_to_statement_list (
        gemm_call_into (e, g, t->w, n, build_zero_cst (elem)), &stmts);
  else
    {
      tree a = element_address (e, g->a, g->off_a);
      tree b = element_address (e, g->b, g->off_b);
      if (!a || !b)
        return build_empty_stmt (e->loc);
      tree k = fold_convert (lt, expr (e, g->k));
      tree lda = fold_convert (lt, expr (e, g->lda));
      tree ldb = fold_convert (lt, expr (e, g->ldb));
      bool left = g->tri == TE_GEMM_TRI_A;
      tree rows = left ? k : m;
      wld = left ? n : k;
      tree src = left ? b : a, ld = left ? ldb : lda;
      bool trans = left ? g->trans_b : g->trans_a;
      tree from = trans ? matrix_ref (src, elem, j, ld, i)
                        : matrix_ref (src, elem, i, ld, j);
      append_to_statement_list (
          count_loop (e, i, rows,
                      count_loop (e, j, wld,
                                  build2 (MODIFY_EXPR, elem,
                                          matrix_ref (t->w, elem, i, wld, j),
                                          from))),
          &stmts);
      tree cptr = build_pointer_type (elem);
      tree vals[12] = {
        build_int_cst (it, 101), build_int_cst (it, left ? 141 : 142),
        build_int_cst (it, g->tri_upper ? 121 : 122),
        build_int_cst (it, (left ? g->trans_a : g->trans_b) ? 112 : 111),
        build_int_cst (it, 131), m, n,
        expr (e, te_float (e->p->ctx, g->c->type, g->alpha)),
        left ? a : b, left ? lda : ldb, t->w, wld
      };
      tree fb[12] = { it, it, it, it, it, it, it, elem, cptr, it, cptr, it };
      append_to_statement_list (
          call_converted (e, trmm_decl (g), 12, vals, fb), &stmts);
    }
  /* C[i ldc + jj] += W[i wld + jj] for i < M: every column but over
     TRI_C's triangle, lower j <= i, upper jj = i + j, j < N - i.  */
  bool upper = g->tri == TE_GEMM_TRI_C && g->tri_upper;
  tree jj = upper ? build2 (PLUS_EXPR, lt, i, j) : j;
  tree span = g->tri != TE_GEMM_TRI_C
                  ? n
                  : upper ? build2 (MINUS_EXPR, lt, n, i)
                          : build2 (MIN_EXPR, lt,
                                    build2 (PLUS_EXPR, lt, i, long_cst (1)),
                                    n);
  tree to = matrix_ref (c, elem, i,
                        fold_convert (lt, expr (e, g->ldc)), jj);
  tree add = build2 (MODIFY_EXPR, elem, to,
                     build2 (PLUS_EXPR, elem, unshare_expr (to),
                             matrix_ref (t->w, elem, i, wld, jj)));
  append_to_statement_list (count_loop (e, i, m, count_loop (e, j, span, add)),
                            &stmts);
  return stmts;
}

/* Blas stage G (lib/back/lower.c step 6): when the sizes suit the BLAS
   (or the tiled function, te_program.tiled), inside the statement's NULL
   tests, one call per iteration of the batch loops; otherwise the
   statement's loop nest.  */
static tree
gemm_stage (emitter *e, const te_lw_stage *g)
{
  const te_lw_stmt *l = &g->stmts[0];
  const te_gemm *gm = g->gemm;
  e->loc = stmt_location (e, l->st->loc);
  bool tiled = e->p->tiled;
  tree cond = tiled ? tiled_sizes_ok (e, gm) : gemm_sizes_ok (e, gm);
  tree calls, w = NULL_TREE;
  if (gm->tri)
    {
      /* w = malloc (...), freed after the calls; the loops when it
         fails.  */
      tree elem = te_tree_type (gm->c->type);
      w = new_local (e, build_pointer_type (elem), NULL);
      tri_arg ta = { gm, w };
      calls = loop_nest (e, gm->nbatch, gm->batch, false, tri_call, &ta);
      append_to_statement_list (
          build_call_expr (builtin_decl_explicit (BUILT_IN_FREE), 1, w),
          &calls);
      tree alloc = build2 (MODIFY_EXPR, TREE_TYPE (w), w,
                           raw_alloc_of (elem, tri_scratch (e, gm)));
      cond = build2 (TRUTH_ANDIF_EXPR, boolean_type_node, cond,
                     build2 (NE_EXPR, boolean_type_node, alloc,
                             build_zero_cst (TREE_TYPE (w))));
    }
  else if (tiled && g->stage->team && flag_openmp)
    calls = kept (e, gm, tiled_team (e, gm));
  else
    calls = kept (e, gm, loop_nest (e, gm->nbatch, gm->batch, false,
                                    tiled ? tiled_call : gemm_call, gm));
  tree tests = all_nonnull (e, l->skip, l->nskip);
  if (tests)
    {
      /* The NULL tests first: no scratch where they skip the call.  */
      if (w)
        return build3 (COND_EXPR, void_type_node, tests,
                       build3 (COND_EXPR, void_type_node, cond, calls,
                               stmt_nest (e, g->stage, l, ALL_LOOPS)),
                       NULL_TREE);
      calls = build3 (COND_EXPR, void_type_node, tests, calls, NULL_TREE);
    }
  tree loops = stmt_nest (e, g->stage, l, ALL_LOOPS);
  return build3 (COND_EXPR, void_type_node, cond, calls, loops);
}

static tree stage_nest (emitter *e, const te_lw_stage *g);

/* Stage G as a statement list: where the product of G->unless does not
   run, when there is one (lib/back/lower.c step 6d).  */
static tree
stage_tree (emitter *e, const te_lw_stage *g)
{
  tree t = stage_nest (e, g);
  if (!g->unless)
    return t;
  return build3 (COND_EXPR, void_type_node,
                 build1 (TRUTH_NOT_EXPR, boolean_type_node,
                         gemm_runs (e, g->unless)),
                 t, NULL_TREE);
}

/* Stage G as its shape says.  */
static tree
stage_nest (emitter *e, const te_lw_stage *g)
{
  const te_stage *st = g->stage;
  e->novector = g->chain[0] >= 0;
  e->par_stage = st->par ? st : NULL;
  switch (g->shape)
    {
    case TE_LW_CALL:
      e->loc = stmt_location (e, st->loc);
      return call_stmt (e, st->call, g->scope);
    case TE_LW_SHARED:
      return shared_nest (e, g);
    case TE_LW_ONE:
      return one_nest (e, g);
    case TE_LW_EACH:
      break;
    }
  if (g->gemm)
    return gemm_stage (e, g);
  tree list = alloc_stmt_list ();
  for (int k = 0; k < g->nstmts; k++)
    append_to_statement_list (stmt_nest (e, st, &g->stmts[k], ALL_LOOPS),
                              &list);
  return list;
}

/* The stages of a group (te_stage.group, lib/passes/samples.c).  */
typedef struct group_arg
{
  const te_lw_stage *first;
  int n;
} group_arg;

/* One iteration of a group's loop: each stage as a copy without its
   first loop (and its product without that batch loop), whose counter
   the group's loop binds.  */
static tree
group_body (emitter *e, const void *arg)
{
  const group_arg *a = (const group_arg *) arg;
  tree list = alloc_stmt_list ();
  for (int i = 0; i < a->n; i++)
    {
      te_lw_stage g;
      te_stage s;
      te_gemm gm;
      te_lower_in_group (&a->first[i], &g, &s, &gm);
      append_to_statement_list (stage_tree (e, &g), &list);
    }
  return list;
}

/* The N stages of a group from FIRST on: their shared first loop once
   around them all.  */
static tree
group_nest (emitter *e, const te_lw_stage *first, int n)
{
  group_arg a = { first, n };
  e->novector = false;
  e->par_stage = NULL;
  return loop_nest (e, 1, first->stage->loops, false, group_body, &a);
}

/* Step 2a: what P requires of its sizes (te_require), tested first: when
   one does not hold, f_grad says so on stderr and aborts.  */
static void
requirements (emitter *e, tree *body)
{
  const te_program *p = e->p;
  for (int i = 0; i < p->nrequires; i++)
    {
      const te_require *r = &p->requires[i];
      char msg[1400];
      snprintf (msg, sizeof msg, "tensorgrad: %s: %s\n", p->name,
                te_require_text (p, r, "this"));
      tree gap = expr (e, r->gap);
      if (!gap)
        return;
      tree cond = fold_build2 (LT_EXPR, boolean_type_node, gap,
                               build_zero_cst (TREE_TYPE (gap)));
      tree fputs_fn = builtin_decl_explicit (BUILT_IN_FPUTS);
      tree file_type = TREE_VALUE (TREE_CHAIN (TYPE_ARG_TYPES (
          TREE_TYPE (fputs_fn))));
      tree fail = alloc_stmt_list ();
      append_to_statement_list (
          build_call_expr (fputs_fn, 2, build_string_literal (strlen (msg) + 1,
                                                              msg),
                           fold_convert (file_type, stderr_decl (e->loc))),
          &fail);
      append_to_statement_list (
          build_call_expr (builtin_decl_explicit (BUILT_IN_ABORT), 0), &fail);
      append_to_statement_list (build3 (COND_EXPR, void_type_node, cond,
                                        fail, NULL_TREE),
                                body);
    }
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
emit_gradient (tree fndecl, const te_program *p, const te_lowered *lw)
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
  make_parms (&e, fndecl, p);
  tree result = build_decl (DECL_SOURCE_LOCATION (fndecl), RESULT_DECL,
                            NULL_TREE, void_type_node);
  DECL_ARTIFICIAL (result) = 1;
  DECL_IGNORED_P (result) = 1;
  DECL_CONTEXT (result) = fndecl;
  DECL_RESULT (fndecl) = result;
  /* The tiled products' functions, made once per object before the
     gradient's body (they are gimplified on their own).  */
  for (int s = 0; s < lw->nstages && p->tiled; s++)
    {
      const te_gemm *gm = lw->stages[s].gemm;
      int d = gm ? gm->c->type == TE_F64 : 0;
      if (gm && !made_tiled[d])
        {
          made_tiled[d] = tiled_build (gm->c->type, fndecl, &pending);
        }
    }
  /* allocate_struct_function lays out the parameters and the result.  */
  tree saved_fn = current_function_decl;
  push_struct_function (fndecl);

  tree body = alloc_stmt_list ();
  requirements (&e, &body);
  /* Temporaries: zeroed, so statements skipped for a NULL shadow leave
     zeros behind; but an array a product fills first (te_lower_raw)
     is not where that product runs as a call.  */
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
      tree size = expr (&e, t->size);
      tree alloc = calloc_of (elem, size);
      if (const te_lw_stage *g = te_lower_raw (lw, t))
        alloc = build3 (COND_EXPR, TREE_TYPE (alloc), gemm_runs (&e, g),
                        raw_alloc_of (elem, unshare_expr (size)), alloc);
      append_to_statement_list (
          build2 (MODIFY_EXPR, TREE_TYPE (ptr), ptr, alloc), &body);
      e.local_tensors.safe_push (t);
      e.local_ptrs.safe_push (ptr);
    }
  for (int s = 0; s < lw->nstages; s++)
    {
      int n = te_program_group (p, s);
      append_to_statement_list (lw->stages[s].stage->group
                                    ? group_nest (&e, &lw->stages[s], n)
                                    : stage_tree (&e, &lw->stages[s]),
                                &body);
      s += n - 1;
    }
  e.novector = false;
  for (unsigned i = 0; i < e.local_ptrs.length (); i++)
    if (TREE_CODE (e.local_ptrs[i]) != ADDR_EXPR)
      append_to_statement_list (
        build_call_expr (builtin_decl_explicit (BUILT_IN_FREE), 1,
                         e.local_ptrs[i]),
        &body);
  tree block = make_node (BLOCK);
  BLOCK_VARS (block) = e.locals;
  BLOCK_SUPERCONTEXT (block) = fndecl;
  for (unsigned i = 0; i < e.region_blocks.length (); i++)
    {
      tree b = e.region_blocks[i];
      BLOCK_SUPERCONTEXT (b) = block;
      BLOCK_CHAIN (b) = BLOCK_SUBBLOCKS (block);
      BLOCK_SUBBLOCKS (block) = b;
    }
  DECL_INITIAL (fndecl) = block;
  tree bind = build3 (BIND_EXPR, void_type_node, e.locals, body, block);
  TREE_SIDE_EFFECTS (bind) = 1;
  DECL_SAVED_TREE (fndecl) = bind;
  if (!e.failed)
    {
      gimplify_function_tree (fndecl);
    }
  pop_cfun ();
  /* The bodies of the nests on threads (outline_body).  */
  for (unsigned i = 0; i < e.bodies.length () && !e.failed; i++)
    {
      push_struct_function (e.bodies[i]);
      gimplify_function_tree (e.bodies[i]);
      pop_cfun ();
      pending = tree_cons (NULL_TREE, e.bodies[i], pending);
    }
  current_function_decl = saved_fn;
  e.parms.release ();
  e.vars.release ();
  e.local_tensors.release ();
  e.local_ptrs.release ();
  e.bound_ids.release ();
  e.scopes.release ();
  e.own_tensors.release ();
  e.own_ptrs.release ();
  e.bodies.release ();
  e.region_blocks.release ();
  free (e.memo);
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
    {
      cgraph_node::add_new_function (TREE_VALUE (l), false);
      if (TREE_PURPOSE (l))
        tiled_hand_over (TREE_PURPOSE (l), TREE_VALUE (l));
    }
}

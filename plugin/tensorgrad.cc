/* tensorgrad.cc -- the plugin's entry point: options, the attribute, the
   pass that turns each differentiable kernel into its gradient.

   For each function marked __attribute__((differentiable)), right after
   the "ssa" pass (so at every -O level, before any optimization changes
   the loops):
     1. lift its GIMPLE to a TE program (lift.cc);
     2. run the pipeline, lib/passes/pipeline.c's table of passes: the forward
        canonicalizations, roles and shadows, the reverse sweep, the
        backward optimizations (verified after each pass in a checking
        build);
     3. emit <name>_grad as a new function of the translation unit
        (emit.cc), which then goes through GCC's whole pipeline, and its
        descriptor, dump-c and header entries.
   A kernel whose <name>_grad the user wrote stops before the reverse
   sweep; with the check option its gradient is checked (check.cc).
   The dump file (option dump) shows the program as lifted and after each
   pass that changed it.  */

#include "gcc-common.h"
#include "plugin-version.h"
#include "lift.h"
#include "emit.h"
#include "abi.h"
#include "descriptor.h"
#include "check.h"
#include "header.h"
#include "remarks.h"
#include "groups.h"
#include "cxx.h"
#include "int-calls.h"
#include "omp.h"
#include "forward.h"

int plugin_is_GPL_compatible;

static struct plugin_info tg_info = {
  TG_VERSION,
  "tensorgrad: reverse-mode gradients of C tensor kernels.\n"
  "Mark a kernel __attribute__((differentiable)); the object file gains\n"
  "<name>_grad (see the README for its signature).  Options:\n"
  "  -fplugin-arg-tensorgrad-blas   run the gradient's matrix products as\n"
  "                                 calls of cblas_sgemm/cblas_dgemm (link\n"
  "                                 a CBLAS: -lopenblas, -lcblas, -lblas)\n"
  "  -fplugin-arg-tensorgrad-blas-forward\n"
  "                                 also run a nest of the kernel itself\n"
  "                                 that is a matrix product as such a\n"
  "                                 call (implies blas; the sum is in the\n"
  "                                 BLAS's order, not the source's)\n"
  "  -fplugin-arg-tensorgrad-dump   write the pass's dump file\n"
  "                                 (<output>.NNNt.tensorgrad): the lifted\n"
  "                                 and the backward TE programs\n"
  "  -fplugin-arg-tensorgrad-dump-c=FILE\n"
  "                                 write every synthesized gradient as\n"
  "                                 readable, compilable C to FILE\n"
  "  -fplugin-arg-tensorgrad-header=FILE\n"
  "                                 write the prototype of every public\n"
  "                                 <name>_grad to FILE, for other files\n"
  "  -fplugin-arg-tensorgrad-help   print this text\n"
  "  -fplugin-arg-tensorgrad-keep-products\n"
  "                                 with blas-forward or tiled-forward:\n"
  "                                 the kernel keeps, per thread, each\n"
  "                                 product it computes into a local\n"
  "                                 array, with copies of its operands;\n"
  "                                 the gradient takes it where they are\n"
  "                                 unchanged (link -ltensorgrad)\n"
  "  -fplugin-arg-tensorgrad-no-opt turn the optimizer off (no reuse of\n"
  "                                 forward results, fusion or loop\n"
  "                                 ordering), for comparison\n"
  "  -fplugin-arg-tensorgrad-no-tiled\n"
  "                                 without blas, run the gradient's\n"
  "                                 matrix products as loops, not tiled\n"
  "  -fplugin-arg-tensorgrad-tiled-forward\n"
  "                                 run the nests blas-forward would call\n"
  "                                 the CBLAS for as the plugin's tiled\n"
  "                                 product instead: no library (the sum\n"
  "                                 is in blocks of 64 terms, not the\n"
  "                                 source's order)\n"
  "  -fplugin-arg-tensorgrad-parallel\n"
  "                                 run every loop nest of a gradient that\n"
  "                                 can on OpenMP threads (with -fopenmp)\n"
  "  -fplugin-arg-tensorgrad-parallel-min=N\n"
  "                                 run such a nest on one thread when it\n"
  "                                 runs its statements fewer than N times\n"
  "                                 (default 2097152; 0: always on the\n"
  "                                 threads OpenMP gives)\n"
  "  -fplugin-arg-tensorgrad-target-clones\n"
  "                                 (x86_64) give each gradient versions\n"
  "                                 for AVX-512F and AVX2 beside the\n"
  "                                 default one, chosen when the program\n"
  "                                 starts (with vector-forward, each\n"
  "                                 kernel too)\n"
  "  -fplugin-arg-tensorgrad-vector-forward\n"
  "                                 let GCC vectorize the kernel's own\n"
  "                                 sums (reassociated, as with\n"
  "                                 -fassociative-math) and, on x86_64,\n"
  "                                 math calls (libmvec, within 4 ulp):\n"
  "                                 its results change in the last bits\n"
  "  -fplugin-arg-tensorgrad-vector-math\n"
  "                                 let GCC's vectorizer call glibc's\n"
  "                                 libmvec (x86_64) for the gradient's\n"
  "                                 exp, log, tanh, sin, pow...: within\n"
  "                                 4 ulp, the scalar ones 2 (README)\n"
  "  -fplugin-arg-tensorgrad-winograd\n"
  "                                 run a 3x3 convolution's gradient (and\n"
  "                                 with blas-forward or tiled-forward the\n"
  "                                 convolution) as libtensorgrad's\n"
  "                                 Winograd F(2x2,3x3), its products the\n"
  "                                 CBLAS's with blas, else the tiled\n"
  "                                 product's (link -ltensorgrad)\n"
  "  -fplugin-arg-tensorgrad-check  check each gradient against finite\n"
  "                                 differences in MPFR while compiling\n"
  "  -fplugin-arg-tensorgrad-check-tol=X\n"
  "                                 the largest relative error the check\n"
  "                                 accepts (default 1e-8; 1e-4 for a\n"
  "                                 kernel with float data)\n"
  "  -fplugin-arg-tensorgrad-check-sizes=NAME:n=4,m=3\n"
  "                                 the check's values of kernel NAME's\n"
  "                                 integer parameters (repeatable)\n"
};

/* The options, in the order the error for an unknown one lists them,
   with whether each takes a value (check's, which check.cc parses
   first, too).  */
static const struct
{
  const char *name;
  const char *value; /* what its value is, or NULL: it takes none */
} tg_options[] = { { "blas", NULL },  { "blas-forward", NULL },
                   { "check", NULL }, { "check-sizes", "" },
                   { "check-tol", "" }, { "dump", NULL },
                   { "dump-c", "FILE" },
                   { "header", "FILE" }, { "help", NULL },
                   { "keep-products", NULL },
                   { "no-opt", NULL }, { "no-tiled", NULL },
                   { "parallel", NULL }, { "parallel-min", "N" },
                   { "target-clones", NULL },
                   { "tiled-forward", NULL }, { "vector-forward", NULL },
                   { "vector-math", NULL }, { "winograd", NULL } };

/* -fplugin-arg-tensorgrad-no-opt: no reuse, fusion or loop ordering.  */
static bool tg_no_opt;

/* -fplugin-arg-tensorgrad-no-tiled: without blas, the matrix products
   stay loops (lib/back/tiled.h not used).  */
static bool tg_no_tiled;

/* -fplugin-arg-tensorgrad-parallel: every gradient's loop nests on
   OpenMP threads where they can (lib/passes/parallel.c), not only those
   of kernels with parallel loops.  */
static bool tg_parallel;
/* -fplugin-arg-tensorgrad-blas: matrix products as CBLAS calls.  */
static bool tg_blas;
/* -fplugin-arg-tensorgrad-blas-forward: those of the kernels too
   (forward.cc).  */
static bool tg_blas_forward;
/* -fplugin-arg-tensorgrad-tiled-forward: the kernels' products as the
   tiled product (forward.cc, lib/back/tiled.h), no CBLAS.  */
static bool tg_tiled_forward;
/* -fplugin-arg-tensorgrad-keep-products: the kernels' products into
   local arrays kept for their gradients (emit.h, EMIT_KEEP_PUT and
   EMIT_KEEP_TAKE; lib/runtime/keep.c).  */
static bool tg_keep_products;
/* -fplugin-arg-tensorgrad-winograd: 3x3 convolutions as calls of
   libtensorgrad's tg_conv3x3 (lib/passes/winograd.c; forward.cc for the
   kernel's own).  */
static bool tg_winograd;
/* -fplugin-arg-tensorgrad-vector-forward: the kernels' own sums
   reassociated, their math calls libmvec's (forward.cc's
   forward_vectorize).  */
static bool tg_vector_forward;

/* -fplugin-arg-tensorgrad-check and its settings (check.cc).  */
static check_options tg_check;

/* -fplugin-arg-tensorgrad-dump-c=FILE, -fplugin-arg-tensorgrad-header=FILE:
   the files, and whether anything was written to them yet.  Each is
   written to a temporary file beside it, FILE.PID.tmp (tg_dump_c_tmp,
   tg_header_tmp), which replaces FILE at the end of the translation unit
   only if the two differ (finish_output): FILE's time stamp changes only
   with its content, so that make rebuilds only what a changed header
   concerns, and a reader never sees it half written.  */
static const char *tg_dump_c_name, *tg_header_name;
static char *tg_dump_c_tmp, *tg_header_tmp;
static FILE *tg_dump_c, *tg_header;
static bool tg_dump_c_started;

/* Open the temporary file of output NAME, storing its name in *TMP, the
   first time a kernel is written to it, so that a translation unit
   without kernels leaves NAME alone.  */
static FILE *
open_output (FILE **f, char **tmp, const char *name)
{
  if (*f || !name)
    return *f;
  *tmp = xasprintf ("%s.%d.tmp", name, (int) getpid ());
  *f = fopen (*tmp, "w");
  if (!*f)
    {
      error ("tensorgrad: cannot open %qs for writing: %m", *tmp);
      free (*tmp);
      *tmp = NULL;
      return NULL;
    }
  return *f;
}

/* Whether files A and B exist and hold the same bytes.  */
static bool
same_contents (const char *a, const char *b)
{
  FILE *fa = fopen (a, "rb");
  FILE *fb = fa ? fopen (b, "rb") : NULL;
  bool same = fb != NULL;
  while (same)
    {
      char ba[4096], bb[4096];
      size_t na = fread (ba, 1, sizeof ba, fa);
      size_t nb = fread (bb, 1, sizeof bb, fb);
      same = na == nb && !memcmp (ba, bb, na);
      if (na < sizeof ba)
        break;
    }
  same = same && !ferror (fa) && !ferror (fb);
  if (fb)
    fclose (fb);
  if (fa)
    fclose (fa);
  return same;
}

/* Close *F, the temporary file *TMP of output NAME, and put it in NAME's
   place if NAME's content differs.  A translation unit with errors
   leaves NAME as it was: its kernels' gradients may be missing.  */
static void
finish_output (FILE **f, char **tmp, const char *name)
{
  if (!*f)
    return;
  bool ok = !ferror (*f);
  if (fclose (*f))
    ok = false;
  *f = NULL;
  if (!ok)
    error ("tensorgrad: cannot write %qs: %m", *tmp);
  if (!ok || seen_error () || same_contents (*tmp, name))
    unlink (*tmp);
  else if (rename (*tmp, name))
    {
      error ("tensorgrad: cannot rename %qs to %qs: %m", *tmp, name);
      unlink (*tmp);
    }
  free (*tmp);
  *tmp = NULL;
}

/* ---- diagnostics from lib/ ---------------------------------------------- */

/* Report DIAG, filled by lib/, at its location or at FALLBACK.  */
static void
report (const te_diag *diag, location_t fallback)
{
  location_t loc = diag->loc ? (location_t) diag->loc : fallback;
  if (diag->kind == TE_DIAG_INTERNAL && diag->where[0])
    error_at (loc, "tensorgrad: internal error %s: %s", diag->where,
              diag->msg);
  else if (diag->kind == TE_DIAG_INTERNAL)
    error_at (loc, "tensorgrad: internal error: %s", diag->msg);
  else
    error_at (loc, "%s", diag->msg);
  if (diag->note[0])
    inform (loc, "%s", diag->note);
}

/* ---- the attribute ------------------------------------------------------ */

static tree
handle_differentiable (tree *node, tree name, tree, int, bool *no_add)
{
  if (TREE_CODE (*node) != FUNCTION_DECL)
    {
      error_at (DECL_P (*node) ? DECL_SOURCE_LOCATION (*node)
                               : input_location,
                "%qE attribute only applies to functions", name);
      *no_add = true;
      return NULL_TREE;
    }
  /* A static kernel nothing calls must survive until the pass.  */
  DECL_PRESERVE_P (*node) = 1;
  return NULL_TREE;
}

static struct attribute_spec differentiable_attr = {
  "differentiable", 0, 0, false, false, false, false,
  handle_differentiable, NULL
};

static void
register_attributes (void *, void *)
{
  register_attribute (&differentiable_attr);
}

static void
finish_parse_function (void *gcc_data, void *)
{
  groups_begin ();
  abi_declare_grad ((tree) gcc_data);
  groups_end ();
}

static void
finish_decl (void *gcc_data, void *)
{
  abi_finish_decl ((tree) gcc_data);
}

/* The front end is about to genericize FNDECL: its OpenMP directives
   (omp.cc), the values of std::min and std::max (cxx.cc), the calls of
   integer expression functions (int-calls.cc) and its early exits
   (lift-exit.cc).  */
static bool target_x86_64_lp64 (void);
static void add_target_clones (tree decl);
static bool target_wide_vectors (void);

static void
pre_genericize (void *gcc_data, void *)
{
  tree fndecl = (tree) gcc_data;
  groups_begin ();
  if (abi_is_kernel (fndecl))
    {
      omp_pre_genericize (fndecl);
      if (tg_vector_forward)
        {
          forward_vectorize (fndecl, target_x86_64_lp64 ());
          add_target_clones (fndecl);
        }
    }
  if (abi_is_kernel (fndecl) || abi_helper_shape (fndecl))
    {
      bool changed = cxx_value_calls (fndecl);
      changed |= int_calls_substitute (fndecl);
      if (changed)
        cxx_trees_changed ();
      lift_record_exits (fndecl);
    }
  groups_end ();
}

/* The early passes have visited every function: the gradients made
   meanwhile join the call graph (emit.cc, step 4).  */
static void
early_gimple_passes_end (void *, void *)
{
  emit_hand_over ();
}

/* ---- dump-c and header ------------------------------------------------- */

/* The C spelling of parameter types of FNDECL, for lib/back/cgen.c.  */
static const char **
param_ctypes (tree fndecl, int *n)
{
  *n = list_length (DECL_ARGUMENTS (fndecl));
  const char **types = XNEWVEC (const char *, *n + 1);
  int i = 0;
  for (tree a = DECL_ARGUMENTS (fndecl); a; a = DECL_CHAIN (a))
    types[i++] = print_generic_expr_to_str (TREE_TYPE (a));
  return types;
}

/* Append the gradient BWD of kernel FWD, lowered as LW, to the dump-c
   file.  */
static void
write_c (tree fndecl, const te_program *fwd, const te_program *bwd,
         const te_lowered *lw)
{
  int n;
  const char **types = param_ctypes (fndecl, &n);
  te_diag diag;
  memset (&diag, 0, sizeof diag);
  /* The file's first lines: the math functions as the gradients call
     them.  */
  if (emit_vector_math && !tg_dump_c_started)
    emit_vector_math_decls (tg_dump_c);
  if (te_program_emit_c (tg_dump_c, bwd, lw, fwd, types, !tg_dump_c_started,
                         &diag))
    tg_dump_c_started = true;
  else
    report (&diag, DECL_SOURCE_LOCATION (fndecl));
  for (int i = 0; i < n; i++)
    free ((void *) types[i]);
  XDELETEVEC (types);
}

static void
finish (void *, void *)
{
  if (tg_header)
    header_write (tg_header, tg_header_name);
  finish_output (&tg_header, &tg_header_tmp, tg_header_name);
  finish_output (&tg_dump_c, &tg_dump_c_tmp, tg_dump_c_name);
}

/* ---- the pass ----------------------------------------------------------- */

/* ---- custom gradients -------------------------------------------------- */

/* A kernel whose <name>_grad the user wrote: the kernel's program, and
   the user's gradient lifted into the kernel's context, each kept until
   the other is there (either function may be compiled first).  */
struct custom
{
  tree kernel;
  te_program *fwd;
  te_program *grad;
  location_t grad_loc;
};
static vec<custom> customs;
/* The gradients this plugin synthesized.  */
static hash_set<tree> emitted;

static custom *
find_custom (tree kernel)
{
  for (unsigned i = 0; i < customs.length (); i++)
    if (customs[i].kernel == kernel)
      return &customs[i];
  customs.safe_push ({ kernel, NULL, NULL, UNKNOWN_LOCATION });
  return &customs.last ();
}

tree
custom_gradient (tree kernel)
{
  tree d = abi_grad_decl (kernel);
  if (d && DECL_INITIAL (d) && DECL_INITIAL (d) != error_mark_node
      && !emitted.contains (d))
    return d;
  return NULL_TREE;
}

/* Check a custom gradient once both programs are there.  */
static void
check_custom (custom *c)
{
  if (c->fwd && c->grad && tg_check.enabled)
    check_gradient (c->kernel, c->fwd, c->grad, &tg_check);
}

/* The user's gradient FUN of kernel KERNEL, lifted like a kernel (its
   += statements are in-out updates), then copied into the context of
   the kernel's program so both share the kernel's tensors.  */
static void
lift_custom (function *fun, tree kernel)
{
  custom *c = find_custom (kernel);
  if (!c->fwd)
    return;
  calculate_dominance_info (CDI_DOMINATORS);
  lift_post_dominators ();
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  scev_initialize ();
  te_ctx *ctx = te_ctx_new ();
  te_program *user = lift_function (fun, ctx, true);
  scev_finalize ();
  loop_optimizer_finalize ();
  free_dominance_info (CDI_POST_DOMINATORS);
  if (!user)
    {
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "custom gradient %qD of %qD not checked", fun->decl, kernel);
      te_ctx_free (ctx);
      return;
    }
  te_program *fwd = c->fwd;
  te_program *g = te_program_new (fwd->ctx, user->name);
  te_node **args = XCNEWVEC (te_node *, user->nparams + 1);
  te_tensor **tensors = XCNEWVEC (te_tensor *, user->nparams + 1);
  te_node **offsets = XCNEWVEC (te_node *, user->nparams + 1);
  for (int i = 0; i < user->nparams; i++)
    {
      const te_param *q = &user->params[i];
      te_program_add_param (g, q->name, q->kind, q->type, q->loc);
    }
  for (int i = 0; i < user->nparams; i++)
    {
      const te_param *q = &user->params[i];
      offsets[i] = te_int (fwd->ctx, 0);
      if (q->kind == TE_PK_PTR_FLOAT || q->kind == TE_PK_PTR_INT)
        {
          te_tensor *t = i < fwd->nparams ? fwd->params[i].tensor : NULL;
          if (t)
            {
              te_program_share_tensor (g, t);
              g->params[i].tensor = t;
            }
          else
            t = te_program_add_tensor (g, q->name, q->type, TE_TK_PARAM, i,
                                       q->loc);
          tensors[i] = t;
        }
      else
        args[i] = te_param_ref (fwd->ctx, q->type, i);
    }
  te_diag diag;
  memset (&diag, 0, sizeof diag);
  te_program_inline (g, user, args, tensors, offsets,
                     DECL_SOURCE_LOCATION (fun->decl), NULL, &diag);
  /* Run as C runs it: every statement of an iteration together.  */
  for (int s = 0; s < g->nstages; s++)
    g->stages[s].fused = true;
  XDELETEVEC (args);
  XDELETEVEC (tensors);
  XDELETEVEC (offsets);
  te_ctx_free (ctx);
  c->grad = g;
  check_custom (c);
}

/* Lift FUN into CTX and run the pipeline (lib/passes/pipeline.c) on it,
   up to the gradient unless FORWARD_ONLY; callers of KERNEL (FUN's
   declaration, or the kernel FUN is the serial twin of) inline the
   snapshot it leaves (lift.cc).  The forward program, or NULL when FUN
   cannot be lifted; *OK whether the passes accepted it.  */
static te_program *
lift_and_run (function *fun, tree kernel, te_ctx *ctx, bool forward_only,
              te_pipeline *pl, te_diag *diag, bool *ok,
              te_program **lifted = NULL)
{
  calculate_dominance_info (CDI_DOMINATORS);
  lift_post_dominators ();
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  scev_initialize ();
  te_program *fwd = lift_function (fun, ctx, false);
  scev_finalize ();
  loop_optimizer_finalize ();
  free_dominance_info (CDI_POST_DOMINATORS);

  memset (diag, 0, sizeof *diag);
  memset (pl, 0, sizeof *pl);
  pl->opt = !tg_no_opt;
  pl->blas = tg_blas;
  pl->tiled = !tg_no_tiled;
  pl->forward_only = forward_only;
#ifdef TG_CHECKING
  pl->verify = true;
#endif
  pl->dump = dump_file;
  if (fwd && tg_parallel)
    fwd->parallel_all = true;
  /* winograd's gemm: the CBLAS with blas, else the tiled product, or
     with no-tiled libtensorgrad's loops.  */
  if (fwd && tg_winograd)
    fwd->winograd = tg_blas       ? TE_GEMM_CBLAS
                    : tg_no_tiled ? TE_GEMM_LOOPS
                                  : TE_GEMM_TILED;
  if (fwd)
    {
      fwd->vect_rest
          = opt_for_fn (kernel, flag_tree_loop_vectorize)
            && opt_for_fn (kernel, flag_vect_cost_model)
                   != VECT_COST_MODEL_VERY_CHEAP;
      fwd->wide_vectors = target_wide_vectors ();
    }
  if (fwd && dump_file)
    {
      /* Lifting walks GCC's statements (as many as the source has
         operations, which a DAG can have exponentially fewer of); what
         follows walks the DAG.  */
      te_walk_stats_dump (dump_file, ctx, "walks in lifting");
      te_walk_stats_reset (ctx);
    }
  /* The program as lifted, before the passes rewrite it: what the
     kernel's own nests compute (forward.cc).  */
  if (lifted)
    *lifted = fwd && (tg_blas_forward || tg_tiled_forward)
                  ? te_program_copy (fwd)
                  : NULL;
  *ok = fwd && te_pipeline_run (pl, fwd, diag);
  lift_remember (kernel, pl->callee);
  return fwd;
}

/* Lift helper FUN (abi.h), for the kernels that call it; no gradient.  */
static void
lift_helper (function *fun)
{
  te_ctx *ctx = te_ctx_new ();
  te_pipeline pl;
  te_diag diag;
  bool ok;
  lift_and_run (fun, fun->decl, ctx, true, &pl, &diag, &ok);
  if (diag.kind != TE_DIAG_NONE)
    report (&diag, DECL_SOURCE_LOCATION (fun->decl));
  te_ctx_free (ctx);
}

/* Whether the target is x86_64 with LP64 (not -m32 or -mx32, which are
   applied to the target flags after plugin_init: ask once the options
   are final).  */
static bool
target_x86_64_lp64 (void)
{
#if defined(__x86_64__)
  return TARGET_LP64;
#else
  return false;
#endif
}

/* -fplugin-arg-tensorgrad-target-clones: each gradient gets GCC's
   target_clones attribute with TG_CLONES (x86_64 only), and with
   vector-forward each kernel too (pre_genericize: its OpenMP regions,
   outlined later, inherit it; GCC's pass targetclone makes the versions
   after the plugin's pass has read and changed the body).  ISA names, not
   arch=x86-64-v4: a version with an arch of its own could not inline
   the gradient's outlined bodies (emit.cc, outline_body), which the
   target's hook refuses between functions of different arches.  */
static bool tg_target_clones;
static const char *const tg_clones[] = { "avx512f", "avx2", "default" };

/* Do the gradient's vectors hold 8 floats or more: does the kernel's
   target (this function's, set while the pass runs on it) have AVX, or
   will the gradient have versions for AVX2 and AVX-512F
   (te_program.wide_vectors)?  */
static bool
target_wide_vectors (void)
{
#if defined(__x86_64__) || defined(__i386__)
  return TARGET_AVX || tg_target_clones;
#else
  return false;
#endif
}

/* Give gradient DECL its versions (GCC's pass targetclone makes them,
   and their ifunc, after the early passes; the bodies of its OpenMP
   regions inherit the attribute): as the C front end stores
   __attribute__ ((target_clones ("avx512f", "avx2", "default"))).  */
static void
add_target_clones (tree decl)
{
  if (!tg_target_clones
      || lookup_attribute ("target_clones", DECL_ATTRIBUTES (decl)))
    return;
  tree args = NULL_TREE;
  for (int i = ARRAY_SIZE (tg_clones) - 1; i >= 0; i--)
    args = tree_cons (NULL_TREE,
                      build_string (strlen (tg_clones[i]) + 1, tg_clones[i]),
                      args);
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("target_clones"), args,
                                      DECL_ATTRIBUTES (decl));
}

/* FN is a function GCC outlined: if it is the body of an OpenMP region
   of a gradient with versions (it inherits their attribute), made after
   the early debug information, with -g, it gets none: the pass
   targetclone's copies of a function without an early DIE stop GCC 12
   with an internal error (in dwarf2out_abstract_function).  */
static void
region_of_clones (tree fn)
{
  if (debug_info_level <= DINFO_LEVEL_NONE || DECL_IGNORED_P (fn)
      || !lookup_attribute ("target_clones", DECL_ATTRIBUTES (fn)))
    return;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fn));
  for (hash_set<tree>::iterator it = emitted.begin (); it != emitted.end ();
       ++it)
    {
      const char *g = IDENTIFIER_POINTER (DECL_NAME (*it));
      size_t n = strlen (g);
      if (!strncmp (name, g, n) && !strncmp (name + n, "._omp_fn.", 9))
        {
          DECL_IGNORED_P (fn) = 1;
          return;
        }
    }
}

/* The attributes that turn a sanitizer or the stack protector off or on
   for one function: the passes that instrument a function read them from
   its declaration (sanitize_flags_p and the stack protector's choice).  */
static const char *const check_attributes[] = {
  "no_sanitize",        "no_sanitize_address",   "no_address_safety_analysis",
  "no_sanitize_thread", "no_sanitize_undefined", "no_sanitize_coverage",
  "no_stack_protector", "stack_protect"
};

/* Give gradient GRAD the attributes of CHECK_ATTRIBUTES that KERNEL has
   and GRAD lacks, so that the passes that run on both instrument the
   gradient as they do the kernel.  */
static void
copy_check_attributes (tree grad, tree kernel)
{
  for (tree a = DECL_ATTRIBUTES (kernel); a; a = TREE_CHAIN (a))
    for (unsigned k = 0; k < ARRAY_SIZE (check_attributes); k++)
      if (is_attribute_p (check_attributes[k], get_attribute_name (a))
          && !lookup_attribute (check_attributes[k], DECL_ATTRIBUTES (grad)))
        DECL_ATTRIBUTES (grad) = tree_cons (TREE_PURPOSE (a), TREE_VALUE (a),
                                            DECL_ATTRIBUTES (grad));
}

/* emit_gradient of DECL, KERNEL's gradient; with keep-products, its
   products into KERNEL's local arrays taken from what the kernel's
   helpers kept (forward.cc), under KERNEL's assembler name.  */
static bool
emit_gradient_keeping (tree decl, tree kernel, const te_program *bwd,
                       const te_lowered *lw)
{
  if (tg_keep_products)
    {
      emit_keep = EMIT_KEEP_TAKE;
      emit_keep_kernel = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (kernel));
    }
  bool ok = emit_gradient (decl, bwd, lw);
  emit_keep = EMIT_KEEP_NONE;
  return ok;
}

/* Lift FUN, run the pipeline, emit the gradient of KERNEL: FUN's own
   declaration, or the kernel whose serial twin FUN is (omp.cc).  */
static unsigned
differentiate (function *fun, tree kernel)
{
  tree decl = abi_grad_decl (kernel);
  if (!decl)
    {
      remark_refused (kernel, "its signature cannot be differentiated "
                                 "(the error above says why)");
      return 0;
    }
  /* The user wrote <name>_grad: it is used as it is, and checked.  */
  bool user_grad = DECL_INITIAL (decl) && DECL_INITIAL (decl) != error_mark_node;
  if (user_grad)
    remark_hand_written (kernel, decl);
  te_ctx *ctx = te_ctx_new ();
  te_pipeline pl;
  te_diag diag;
  bool ok;
  te_program *lifted;
  te_program *fwd
      = lift_and_run (fun, kernel, ctx, user_grad, &pl, &diag, &ok, &lifted);
  te_program *bwd = ok ? pl.bwd : NULL;
  bool keep_ctx = false;
  if (ok && user_grad)
    {
      custom *c = find_custom (kernel);
      c->fwd = fwd;
      keep_ctx = true; /* until the user's gradient is lifted */
      check_custom (c);
    }
  if (diag.kind != TE_DIAG_NONE)
    report (&diag, DECL_SOURCE_LOCATION (kernel));
  if (!fwd)
    remark_refused (kernel, "its body cannot be differentiated (the "
                               "errors above say why)");
  else if (!ok)
    {
      char *why = diag.kind == TE_DIAG_INTERNAL
                      ? xasprintf ("internal error: %s", diag.msg)
                      : xstrdup (diag.msg);
      remark_refused (kernel, why);
      free (why);
    }
  if (bwd && tg_check.enabled)
    check_gradient (kernel, fwd, bwd, &tg_check);
  if (bwd)
    {
      DECL_EXTERNAL (decl) = 0;
      TREE_STATIC (decl) = 1;
      TREE_PUBLIC (decl) = TREE_PUBLIC (kernel);
      DECL_SOURCE_LOCATION (decl) = DECL_SOURCE_LOCATION (kernel);
      DECL_FUNCTION_SPECIFIC_OPTIMIZATION (decl)
          = forward_gradient_optimization (kernel);
      DECL_FUNCTION_SPECIFIC_TARGET (decl)
          = DECL_FUNCTION_SPECIFIC_TARGET (kernel);
      /* An inline C++ kernel is defined in every file that includes it,
         once in the program: so is its gradient (a COMDAT group).  */
      if (DECL_ONE_ONLY (kernel) && TREE_PUBLIC (decl))
        make_decl_one_only (decl, DECL_ASSEMBLER_NAME (decl));
      copy_check_attributes (decl, kernel);
      /* GCC wrote the early debug information before this pass, with an
         entry for the gradient if the file refers to it (calls it, or
         takes its address, as an operator table does) or abi_early_debug
         made one; inlining or splitting a function without one fails an
         assertion (in dwarf2out_abstract_function).  A gradient without
         one (the kernel was not lowered: an error) gets no debug
         information, like every function GCC itself makes this late.  */
      if (!cgraph_node::get (decl) && !abi_has_early_debug (decl))
        DECL_IGNORED_P (decl) = 1;
      emitted.add (decl);
      add_target_clones (decl); /* before emit.cc outlines bodies */
      /* What both back ends print, decided once (lib/back/lower.c).  */
      te_lowered *lw = te_lower (bwd);
      if (lw && dump_file)
        te_lowered_dump (dump_file, lw);
      if (!lw)
        error_at (DECL_SOURCE_LOCATION (kernel),
                  "tensorgrad: internal error: out of memory lowering %qs",
                  bwd->name);
      else if (!emit_gradient_keeping (decl, kernel, bwd, lw))
        remark_refused (kernel, "internal error: it could not be "
                                   "emitted (the error above says why)");
      else
        {
          remark_synthesized (kernel, decl, fwd, bwd, lw);
          emit_descriptor (kernel, decl, fwd);
          if (open_output (&tg_dump_c, &tg_dump_c_tmp, tg_dump_c_name))
            write_c (kernel, fwd, bwd, lw);
          if (open_output (&tg_header, &tg_header_tmp, tg_header_name))
            header_add (kernel, decl, bwd);
        }
      te_lowered_free (lw);
    }
  /* The kernel's own products (forward.cc), once its gradient is made
     from the body as written.  */
  unsigned todo = 0;
  if (bwd && tg_vector_forward && fun->decl == kernel && !seen_error ())
    todo |= forward_minmax (fun);
  if (bwd && lifted && !seen_error ())
    todo |= forward_blas (fun, kernel, lifted, tg_tiled_forward,
                         tg_vector_forward && target_x86_64_lp64 (),
                         tg_keep_products, tg_parallel, tg_winograd);
  if (lifted)
    te_ctx_free (lifted->ctx);
  if (dump_file)
    te_walk_stats_dump (dump_file, ctx, NULL);
  if (!keep_ctx)
    te_ctx_free (ctx);
  return todo;
}

/* Refuse, once, the options that only an x86_64 (LP64) target has:
   vector-math (glibc has libmvec on x86_64, neither for -m32 nor for
   -mx32, and GCC 12 makes no simd clones that glibc defines in full for
   other targets) and target-clones (its versions are x86-64's).  Not in
   plugin_init: -m32 is applied to the target flags (TARGET_LP64) after
   the plugins are initialized.  */
static void
x86_64_options (void)
{
  static bool checked;
  if (checked)
    return;
  checked = true;
  if (target_x86_64_lp64 ())
    return;
  if (emit_vector_math)
    error_at (UNKNOWN_LOCATION,
              "tensorgrad: option %<vector-math%> needs glibc's libmvec, "
              "which only x86_64 (LP64) targets have");
  if (tg_target_clones)
    error_at (UNKNOWN_LOCATION,
              "tensorgrad: option %<target-clones%> makes versions for "
              "AVX-512F and AVX2, which only x86_64 (LP64) targets have");
  emit_vector_math = tg_target_clones = false;
}

/* In OPTGROUP_OTHER, which -fopt-info reports unless it names groups
   (loop, vec, ...): remarks.cc.  */
static const pass_data tg_pass_data = {
  GIMPLE_PASS, "tensorgrad", OPTGROUP_OTHER, TV_NONE,
  PROP_cfg | PROP_ssa, 0, 0, 0, 0
};

class tg_pass : public gimple_opt_pass
{
public:
  tg_pass (gcc::context *ctxt) : gimple_opt_pass (tg_pass_data, ctxt) {}
  bool gate (function *fun) final override
  {
    if (omp_twin_kernel (fun->decl))
      return true;
    /* A function GCC outlined from a kernel (an OpenMP region's body)
       inherits its attributes but is no kernel; a kernel with OpenMP
       directives is lifted through its twin, or was refused.  */
    if (DECL_ARTIFICIAL (fun->decl))
      {
        region_of_clones (fun->decl);
        return false;
      }
    /* Its products of the twin's, as calls in place of its regions
       (forward.cc).  */
    if (omp_kernel_skipped (fun->decl))
      return omp_region_calls (fun->decl) != NULL_TREE;
    return abi_is_kernel (fun->decl) || abi_is_helper (fun->decl)
           || (tg_check.enabled && abi_kernel_of (fun->decl)
               && !emitted.contains (fun->decl));
  }
  unsigned int execute (function *fun) final override
  {
    x86_64_options ();
    groups_begin (); /* each error with its notes (groups.cc) */
    tree kernel = omp_twin_kernel (fun->decl);
    unsigned todo = 0;
    if (kernel)
      {
        todo = differentiate (fun, kernel);
        omp_twin_done (fun->decl);
      }
    else if (omp_kernel_skipped (fun->decl))
      todo = forward_regions (fun);
    else if (abi_is_kernel (fun->decl))
      todo = differentiate (fun, fun->decl);
    else if (abi_is_helper (fun->decl))
      lift_helper (fun);
    else
      lift_custom (fun, abi_kernel_of (fun->decl));
    groups_end ();
    return todo;
  }
};

/* Before SSA: remember the source order of operands that the "ssa" pass
   may swap (lift.cc, lift_operand_order).  */
static const pass_data tg_order_pass_data = {
  GIMPLE_PASS, "tensorgrad-order", OPTGROUP_NONE, TV_NONE,
  PROP_gimple_any, 0, 0, 0, 0
};

class tg_order_pass : public gimple_opt_pass
{
public:
  tg_order_pass (gcc::context *ctxt)
      : gimple_opt_pass (tg_order_pass_data, ctxt)
  {
  }
  bool gate (function *fun) final override
  {
    return abi_is_kernel (fun->decl) || abi_is_helper (fun->decl)
           || omp_twin_kernel (fun->decl);
  }
  unsigned int execute (function *fun) final override
  {
    lift_record_operand_order (fun);
    if (!omp_twin_kernel (fun->decl))
      abi_early_debug (fun->decl);
    return 0;
  }
};

/* ---- plugin_init -------------------------------------------------------- */

static bool
parse_options (struct plugin_name_args *info, bool *dump)
{
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (check_option (key, value, &tg_check))
        continue;
      size_t k;
      for (k = 0; k < ARRAY_SIZE (tg_options); k++)
        if (!strcmp (key, tg_options[k].name))
          break;
      if (k == ARRAY_SIZE (tg_options))
        {
          /* "blas, ..., check-sizes=, ..., dump-c=FILE, ...".  */
          auto_vec<char> list;
          for (k = 0; k < ARRAY_SIZE (tg_options); k++)
            {
              char *one = xasprintf ("%s%s%s%s", k ? ", " : "",
                                     tg_options[k].name,
                                     tg_options[k].value ? "=" : "",
                                     tg_options[k].value
                                         ? tg_options[k].value
                                         : "");
              for (char *c = one; *c; c++)
                list.safe_push (*c);
              free (one);
            }
          list.safe_push ('\0');
          error ("tensorgrad: unknown option %qs; valid options are: %s", key,
                 list.address ());
          ok = false;
          continue;
        }
      if (value && !tg_options[k].value)
        {
          error ("tensorgrad: option %qs takes no value", key);
          ok = false;
        }
      if (tg_options[k].value && !value)
        {
          error ("tensorgrad: option %qs needs a value: %<%s=%s%>", key,
                 key, tg_options[k].value);
          ok = false;
          continue;
        }
      if (!strcmp (key, "dump"))
        *dump = true;
      else if (!strcmp (key, "dump-c"))
        tg_dump_c_name = value;
      else if (!strcmp (key, "header"))
        tg_header_name = value;
      else if (!strcmp (key, "no-opt"))
        tg_no_opt = true;
      else if (!strcmp (key, "no-tiled"))
        tg_no_tiled = true;
      else if (!strcmp (key, "parallel"))
        {
          tg_parallel = true;
          if (!flag_openmp)
            {
              error ("tensorgrad: option %<parallel%> needs %<-fopenmp%>: "
                     "the gradients' loops run on its threads");
              ok = false;
            }
        }
      else if (!strcmp (key, "parallel-min"))
        {
          char *end;
          errno = 0;
          long n = strtol (value, &end, 10);
          if (end == value || *end || n < 0 || errno)
            {
              error ("tensorgrad: option %<parallel-min%> takes a count of "
                     "statement runs, 0 or more, not %qs", value);
              ok = false;
            }
          else
            emit_parallel_min = n;
        }
      else if (!strcmp (key, "blas"))
        tg_blas = true;
      else if (!strcmp (key, "blas-forward"))
        tg_blas = tg_blas_forward = true;
      else if (!strcmp (key, "tiled-forward"))
        tg_tiled_forward = true;
      else if (!strcmp (key, "vector-forward"))
        tg_vector_forward = true;
      else if (!strcmp (key, "keep-products"))
        tg_keep_products = true;
      else if (!strcmp (key, "winograd"))
        tg_winograd = true;
      else if (!strcmp (key, "target-clones"))
        /* The target is checked when the options are final
           (x86_64_options).  */
        tg_target_clones = true;
      else if (!strcmp (key, "vector-math"))
        /* The target is checked when the options are final
           (x86_64_options).  */
        emit_vector_math = true;
      else if (!strcmp (key, "help"))
        fputs (tg_info.help, stdout);
    }
  /* tiled-forward and blas-forward ask different things of the same
     nests (blas and no-tiled concern the gradient's products: either
     goes with tiled-forward).  */
  if (tg_tiled_forward && tg_blas_forward)
    {
      error ("tensorgrad: options %<tiled-forward%> and %<blas-forward%> "
             "conflict: the kernel's products run either as the tiled "
             "product or as CBLAS calls");
      ok = false;
    }
  /* Only the helpers of blas-forward and tiled-forward keep products.  */
  if (tg_keep_products && !tg_blas_forward && !tg_tiled_forward)
    {
      error ("tensorgrad: option %<keep-products%> needs %<blas-forward%> "
             "or %<tiled-forward%>: only the kernel's products those run "
             "as calls are kept");
      ok = false;
    }
  return ok;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("tensorgrad: this plugin was built for GCC %s and cannot run in "
             "GCC %s; rebuild it with this compiler",
             gcc_version.basever, version->basever);
      return 1;
    }
  bool dump = false;
  if (!parse_options (info, &dump))
    return 0;
  register_callback (info->base_name, PLUGIN_INFO, NULL, &tg_info);
  register_callback (info->base_name, PLUGIN_ATTRIBUTES, register_attributes,
                     NULL);
  register_callback (info->base_name, PLUGIN_PRE_GENERICIZE, pre_genericize,
                     NULL);
  register_callback (info->base_name, PLUGIN_FINISH_PARSE_FUNCTION,
                     finish_parse_function, NULL);
  register_callback (info->base_name, PLUGIN_FINISH_DECL, finish_decl, NULL);
  register_callback (info->base_name, PLUGIN_FINISH, finish, NULL);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) abi_gc_roots);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) emit_gc_roots);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) omp_gc_roots);
  register_callback (info->base_name, PLUGIN_EARLY_GIMPLE_PASSES_END,
                     early_gimple_passes_end, NULL);
  struct register_pass_info pass;
  pass.pass = new tg_pass (g);
  pass.reference_pass_name = "ssa";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  struct register_pass_info order;
  order.pass = new tg_order_pass (g);
  order.reference_pass_name = "lower";
  order.ref_pass_instance_number = 1;
  order.pos_op = PASS_POS_INSERT_BEFORE;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
                     &order);
  if (dump)
    g->get_dumps ()->dump_switch_p ("tree-tensorgrad");
  return 0;
}

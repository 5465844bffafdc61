/* emit.h -- from a backward TE program to the body of <name>_grad.  */

#ifndef TG_EMIT_H
#define TG_EMIT_H

#include "gcc-common.h"

/* Give FNDECL, the gradient's declaration, a body computing backward
   program P as LW, P lowered (te_lower), and gimplify it; emit_hand_over
   adds it to the call graph.  */
bool emit_gradient (tree fndecl, const te_program *p, const te_lowered *lw);

/* Add the gradients emit_gradient made to the call graph, in the order
   they were made.  Called when a walk of the call graph by a list of
   GIMPLE passes ends (PLUGIN_EARLY_GIMPLE_PASSES_END), before the call
   graph processes its new functions.  */
void emit_hand_over (void);

/* -fplugin-arg-tensorgrad-vector-math: the gradients call the math
   functions that glibc's libmvec has through declarations GCC's
   vectorizer may call in vector form (vector_math_decl).  */
extern bool emit_vector_math;

/* -fplugin-arg-tensorgrad-parallel-min=N: a nest on OpenMP threads runs
   on one where its work (te_parallel.work) is below N; 0: always on the
   team OpenMP gives.  */
#define EMIT_PARALLEL_MIN_DEFAULT (1L << 21)
extern long emit_parallel_min;

/* -fplugin-arg-tensorgrad-keep-products: a product into a local array
   of the kernel, unbatched, kept by the thread that runs the kernel's
   helper (forward.cc: EMIT_KEEP_PUT), taken by its gradient
   (EMIT_KEEP_TAKE) through libtensorgrad's tg_keep_product, under the
   key "EMIT_KEEP_KERNEL/array".  */
enum emit_keep_mode
{
  EMIT_KEEP_NONE,
  EMIT_KEEP_PUT,
  EMIT_KEEP_TAKE
};
extern emit_keep_mode emit_keep;
extern const char *emit_keep_kernel;

/* The declaration vector-math gives the gradients' calls of BUILTIN (a
   math function glibc's libmvec has in vector forms: expf, tanh...), or
   NULL_TREE when it has none; forward.cc's vector-forward makes a
   kernel call it too.  */
tree emit_vector_math_of (tree builtin);
/* Is FN such a declaration?  */
bool emit_is_vector_math (tree fn);

/* Print to F the declarations of those functions that let a C file
   (dump-c's) call them as the gradients do.  */
void emit_vector_math_decls (FILE *f);

/* GC roots of the gradients waiting for emit_hand_over.  */
extern const struct ggc_root_tab emit_gc_roots[];

/* Integer expression N, whose parameter nodes stand for PARAM_VALUES,
   as a tree; NULL if it holds what only a gradient's body can hold.  */
tree emit_param_expr (const te_node *n, tree *param_values, int nparams);

#endif /* TG_EMIT_H */

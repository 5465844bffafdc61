/* pipeline.h -- the passes from a lifted kernel to its gradient, in order.

   The plugin lifts a kernel to a TE program, hands it to te_pipeline_run,
   and emits the backward program it returns; everything between is the
   table te_passes (pipeline.c).  */

#ifndef TG_PIPELINE_H
#define TG_PIPELINE_H

#include "ir/te.h"

typedef enum te_pass_kind
{
  TE_PASS_FORWARD,  /* rewrites the forward program */
  TE_PASS_SNAPSHOT, /* copies the forward program for the kernel's callers */
  TE_PASS_REVERSE,  /* makes the backward program from the forward one */
  TE_PASS_BACKWARD  /* rewrites the backward program */
} te_pass_kind;

typedef struct te_pass
{
  const char *name;    /* as the dump and internal errors name it */
  te_pass_kind kind;
  bool optimization;   /* skipped with -fplugin-arg-tensorgrad-no-opt */
  /* FORWARD and BACKWARD passes: rewrite P, or fill DIAG and fail.  */
  bool (*run) (te_program *p, te_diag *diag);
  const char *what;    /* one line for a maintainer */
  bool blas;           /* runs with -fplugin-arg-tensorgrad-blas, and
                          as an optimization without it */
} te_pass;

/* The passes in the order they run; te_npasses of them.  */
extern const te_pass te_passes[];
extern const int te_npasses;

typedef struct te_pipeline
{
  /* What the caller sets.  */
  bool opt;            /* run the optimizations (not no-opt) */
  bool forward_only;   /* stop before the reverse pass: the user wrote the
                          gradient */
  bool verify;         /* run te_program_verify after every pass */
  bool blas;           /* run the passes marked blas */
  bool tiled;          /* without blas, run them too (with opt): the
                          products run tiled (not no-tiled) */
  FILE *dump;          /* the dump file, or NULL */
  /* What the run leaves.  */
  te_program *fwd;     /* the forward program as the passes left it */
  te_program *callee;  /* the snapshot for callers, in a context of its own
                          (the caller frees it), or NULL */
  te_program *bwd;     /* the gradient, or NULL */
} te_pipeline;

/* Run the passes on LIFTED, which becomes PL->fwd.  False, with DIAG
   filled, when a pass refuses the kernel or a check fails (an internal
   error naming the pass).  */
bool te_pipeline_run (te_pipeline *pl, te_program *lifted, te_diag *diag);

#endif /* TG_PIPELINE_H */

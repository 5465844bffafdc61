/* passes.h -- the passes the pipeline (pipeline.c) runs, one file each.

   Each rewrites a TE program in place and returns false, with DIAG
   filled, when it refuses the kernel; te_passes in pipeline.c says in
   which order they run and on which program.  */

#ifndef TG_PASSES_H
#define TG_PASSES_H

#include "ir/te.h"

/* ---- reductions (reduce.c) --------------------------------------------- */

/* The identity of reduction KIND in floating TYPE (0, 1, -inf, +inf).  */
te_node *te_red_identity (te_ctx *ctx, te_red_kind kind, te_type type);
/* Is V, the value of accumulator ACC after one step, ACC op T for a
   reduction op (also guarded: c ? ACC op T : ACC, and compare-selects
   such as T > ACC ? T : ACC)?  Sets *KIND and *BODY (T).  */
bool te_match_update (te_ctx *ctx, te_node *v, te_node *acc,
                      te_red_kind *kind, te_node **body);
/* Rewrite elements updated in place across loops their index does not
   use (y[i] += x[i*K + k]) as reductions.  */
bool te_program_reductions (te_program *p, te_diag *diag);
/* Compute a reduction nested in another one whose counter it uses into a
   local array, in a stage of its own.  */
bool te_program_hoist (te_program *p, te_diag *diag);

/* inline.c: append to DST the stages of SRC, a differentiable kernel DST
   calls at LOC, with SRC's scalar parameter I replaced by ARGS[I] (a node
   of DST) and its pointer parameter I by tensor ARG_TENSORS[I] of DST from
   element ARG_OFFSETS[I] on.  A call inside loops: OUTER (NOUTER loops of
   DST, outermost first) runs around each of SRC's stages, which then
   belong to OUTER_STAGE's nest (its nest and loop_ids); NULL for a call
   at the top level.  Returns the local array that holds SRC's return
   value, or NULL for a void kernel.  */
te_tensor *te_program_inline (te_program *dst, const te_program *src,
                              te_node **args, te_tensor **arg_tensors,
                              te_node **arg_offsets, te_loc loc,
                              const te_stage *outer_stage, te_diag *diag);

/* inline.c: the value a call of SRC, a kernel that returns an
   expression of its scalar parameters (a helper such as a sigmoid),
   returns with ARGS, as an expression of DST; NULL for another kind of
   kernel.  */
te_node *te_program_inline_value (te_program *dst, const te_program *src,
                                  te_node **args);
/* Is SRC such a kernel: scalar parameters, one statement that sets its
   return value from them?  */
bool te_program_is_value (const te_program *src);

/* inline.c: a copy of SRC, node for node, in a context of its own (which
   te_ctx_free (copy->ctx) frees): the same parameters, tensors (with their
   roles, without shadows), counters (with their source loops) and
   stages.  */
te_program *te_program_copy (const te_program *src);

/* winograd.c: with P->winograd, each stage that is a 3x3 convolution
   (NCHW, stride 1, zero padding 1, a bias per filter) becomes a call of
   libtensorgrad's tg_conv3x3_f32 (f64), whose gradient the reverse
   sweep calls.  */
bool te_program_winograd (te_program *p, te_diag *diag);

/* Stage S of P as a call of tg_conv3x3_f32 (f64) when it is such a
   convolution, else NULL with *WHY (plugin/forward.cc calls it in place
   of the kernel's nest).  */
te_call *te_conv3x3_call (te_program *p, const te_stage *s, const char **why);

/* arms.c: two nests writing the same elements under conditions that
   cannot both hold (the arms of an if/else) become one nest of selects.  */
bool te_program_join_arms (te_program *p, te_diag *diag);

/* bounds.c: a loop whose every statement is guarded by a bound on its
   counter (if (u > t) continue;) runs to that bound.  */
bool te_program_bounds (te_program *p, te_diag *diag);

/* rolling.c: give a local array indexed modulo a constant (a rolling
   buffer) one slot per step, so the gradient has every step.  */
bool te_program_unroll_rolling (te_program *p, te_diag *diag);

/* peel.c: give the first iteration of a loop whose statement is
   select (v == 0, seed, step) a stage of its own.  */
bool te_program_peel (te_program *p, te_diag *diag);

/* carry.c: give an array that a time loop updates in place in every
   step (an RNN's state) one row per step, a tape (noted in P's notes).  */
bool te_program_carry (te_program *p, te_diag *diag);
/* expand.c: give a local array that every iteration of an outer loop
   writes and then reads one copy per iteration (noted in P's notes).  */
bool te_program_expand (te_program *p, te_diag *diag);

/* version.c: give the values of an array that a later loop nest
   overwrites an array of their own (noted in P's notes).  */
bool te_program_version (te_program *p, te_diag *diag);

/* siblings.c: merge consecutive inner loops of one outer loop that a
   recurrence runs through into one stage (noted in P's notes).  */
bool te_program_merge_siblings (te_program *p, te_diag *diag);

/* fuse.c: substitute local arrays written by elementwise stages into the
   stages that read them (noted in P's notes).  */
bool te_program_fuse (te_program *p, te_diag *diag);

/* points.c: an adjoint temporary that one statement scatters to one
   element of each row (at an index array's entry) is read as a select of
   that row's value instead; the gradient requires each entry within its
   row.  */
bool te_program_points (te_program *p, te_diag *diag);

/* rescale.c: an adjoint temporary whose contributions all divide by the
   element of one stored array at their own element holds that array
   times its adjoint; its readers, which multiply by it, no longer do.  */
bool te_program_rescale (te_program *p, te_diag *diag);

/* fold.c: an adjoint temporary that one statement reads, each element
   once, where every contribution wrote it, is replaced there by the sum
   of the contributions.  */
bool te_program_fold (te_program *p, te_diag *diag);

/* onehot.c: a term j == e ? a : 0 of an addition statement, j the
   counter of one of its loops, is added at j = e by a statement of its
   own outside that loop.  */
bool te_program_onehot (te_program *p, te_diag *diag);
/* center.c: a sum of deviations from their own mean is zero.  */
bool te_program_center (te_program *p, te_diag *diag);
/* share.c: sums of the same terms times factors of the element's own
   counters, into different adjoints, are one sum.  */
bool te_program_share (te_program *p, te_diag *diag);
/* merge.c: an adjoint's elementwise terms are added in the later nest
   that adds to the same elements.  */
bool te_program_merge (te_program *p, te_diag *diag);

/* lanes.c: innermost loops of plain arithmetic run in lanes of 8 (an
   inner loop GCC unrolls and vectorizes at -O2); a floating-point sum
   into one element along such a loop keeps one partial sum per lane.  */
bool te_program_lanes (te_program *p, te_diag *diag);

/* zero-guard.c: an addition statement whose terms are all zero where a test
   on counters fails runs only where it holds (no element out of bounds
   is touched with zero).  */
bool te_program_guard (te_program *p, te_diag *diag);

/* clip.c: a loop whose statements all run only between bounds on its
   counter (V + Q < 0, -V + Q < 0 in their guards: a padding's bounds
   test) runs between them (te_loop.start, te_loop.extent), and the
   statements test them no more.  */
bool te_program_clip (te_program *p, te_diag *diag);

/* parallel.c: where the forward ran a loop on OpenMP threads (or the
   program asks for all), a stage whose outermost loop's iterations write
   apart, or add to arrays that can be summed per thread, runs that loop
   on threads (te_stage.par).  */
bool te_program_parallel (te_program *p, te_diag *diag);

/* accumulate.c: a sum reduction whose term strides along the sum's loop
   and steps by one along the statement's innermost loop is added into
   its element in a loop order with that loop innermost.  */
bool te_program_accumulate (te_program *p, te_diag *diag);

/* accumulate.c: the same for the one statement of a stage whose sum
   strides along its loop and steps by one along the stage's innermost
   loop: its initial value, the additions with that loop innermost, the
   function of the sum, as stages of their own.  */
bool te_program_accumulate_stages (te_program *p, te_diag *diag);

/* Does loop L run long enough for lanes (its extent is no constant
   below 16)?  */
bool te_lanes_long_loop (const te_loop *l);

/* materialize.c: compute subexpressions that use only some of their
   stage's counters, and cost more than a load, once into temporaries.  */
bool te_program_materialize (te_program *p, te_diag *diag);

/* patches.c: a convolution's gradient statements of backward program P
   as matrix products over their patches (im2col, col2im), which blas.c
   then reads.  */
bool te_program_patches (te_program *p, te_diag *diag);
/* blas.c: each matrix product of backward program P (ir/gemm.h) in a
   stage of its own, marked for a CBLAS call.  */
bool te_program_blas (te_program *p, te_diag *diag);

/* schedule.c: give each statement of backward program P its own loop
   nest, with the loop most accesses walk with unit stride innermost.  */
bool te_program_schedule (te_program *p, te_diag *diag);

/* dedupe.c: a stage of P that computes a local array again, the same
   way, goes; its readers read the first.  */
bool te_program_dedupe (te_program *p, te_diag *diag);
/* rows.c: run consecutive stages of backward program P that share their
   outer loops, and exchange data only within one iteration of them, as
   one stage over those loops (the gradient works row by row).  */
bool te_program_rows (te_program *p, te_diag *diag);
/* rows.c: may stages FIRST..LAST of P run iteration by iteration of
   their first NP loops, as far as their accesses of T tell (each
   stage's statements kept as they run)?  */
bool te_rows_tensor_ok (te_program *p, int first, int last, int np,
                        const te_tensor *t);
/* samples.c: consecutive stages of backward program P with a matrix
   product among them run iteration by iteration of their first loop
   (te_stage.group), and the temporaries they pass each other hold one
   iteration.  */
bool te_program_samples (te_program *p, te_diag *diag);
/* gather.c: additions a stage makes to one element in one iteration are
   one addition.  */
bool te_program_gather (te_program *p, te_diag *diag);
/* shrink.c: give a temporary of backward program P that lives for one
   iteration of a fused stage one element, and one that a recurrence
   reads one step after writing it two steps.  */
bool te_program_shrink (te_program *p, te_diag *diag);

/* ---- roles and the ABI ------------------------------------------------- */

/* blocks.c: the stages of one step of a recurrence that roles.c marked
   (te_stage.block_end) become one stage over the loops they share, each
   statement with loops of its own, run in the source's order.  */
bool te_program_blocks (te_program *p, te_diag *diag);

/* roles.c: decide every tensor's role from the stages; fill each parameter's shadow
   number per DESIGN.md section 2.  Fails (DIAG) on what the current AD
   cannot represent.  */
bool te_program_roles (te_program *p, te_diag *diag);

/* One more than the largest element of T that program P accesses, as an
   expression of P's integer parameters (with every loop running at least
   once; a max over all accesses), or NULL when it cannot be told (a
   gather, an index that is not a polynomial growing with the counters,
   an access behind a condition that may reach further than every access
   that always runs: x[i + 1] behind i + 1 < n).  An optional T (one the
   kernel tests against NULL) is taken to be there: its test holds.  */
te_node *te_tensor_extent (te_program *p, const te_tensor *t);

/* Do statement WA of stage A and statement WB of stage B (both writes)
   write provably disjoint elements: all of one's above the other's, or
   apart within each row in one loop over the rows (a causal row's u <= t
   and its tail from t + 1)?  */
bool te_writes_apart (te_program *p, const te_stage *a, const te_stmt *wa,
                      const te_stage *b, const te_stmt *wb);

/* Are the elements that the read at index R in statement ST of stage S
   can see (over S's loops and the reductions around it) all outside
   those statement W of stage WS writes?  */
bool te_read_apart (te_program *p, const te_stage *s, const te_stmt *st,
                    const te_node *r, const te_stage *ws, const te_stmt *w);

#endif /* TG_PASSES_H */

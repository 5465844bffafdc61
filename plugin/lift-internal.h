/* lift-internal.h -- what the parts of the lifter share.

   lift.cc       the driver: statements in program order, stages, stores,
                 calls of other kernels, the kernel's signature;
   lift-index.cc integers and addresses: counters, SCEV, tensors, indices;
   lift-value.cc floating values: arithmetic, math calls, loads,
                 reductions, and the path conditions of selects and guards;
   lift-exit.cc  loops that leave early, reported at the jump;
   lift-check.cc the checks sanitizers and hardening options insert,
                 which the lifter reads past.

   Everything here is in namespace tg_lift, so that no name can clash
   with one of GCC's.  */

#ifndef TG_LIFT_INTERNAL_H
#define TG_LIFT_INTERNAL_H

#include "lift.h"
#include "abi.h"
#include "omp.h"

namespace tg_lift
{

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
  bool closed;            /* nothing more joins it (a memset's stage) */
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
  location_t stmt_loc;   /* the same, while LOC moves to a loop lifted
                            for it */
  unsigned uid;          /* of the statement being lifted */
  bool failed;
  /* where errors were reported (already_reported) */
  location_t reported[32];
  int nreported;
  bool nonnull; /* pointer == NULL is false (lift_function) */
  /* tensors by the decl they come from */
  hash_map<tree, te_tensor *> *tensors;
  /* values returned by inlined calls, by their SSA name */
  hash_map<tree, te_node *> *call_results;
  /* values after their loop of scalars kept on a tape, by header PHI */
  hash_map<tree, te_node *> *tapes;
};


te_node *fail (lifter *l, const char *msg);
bool already_reported (lifter *l, location_t loc);
bool reported_at (const lifter *l, location_t loc);
bool expect_call_p (const gimple *g);
/* Element INDEX of constant table T as the constant of type TYPE it is,
   or NULL.  */
te_node *static_constant (lifter *l, const te_tensor *t,
                          const te_node *index, te_type type);
bool float_te_type (tree type, te_type *out);
bool int_te_type (tree type, te_type *out);
const char *decl_name (tree decl);
te_tensor *param_tensor (lifter *l, tree parm);
te_tensor *local_tensor (lifter *l, tree key, tree type, tree size);
int param_index (lifter *l, tree parm);
int loop_var (lifter *l, class loop *loop);
bool in_context (lifter *l, class loop *loop);
edge nest_entry (lifter *l);
te_node *convert_int (lifter *l, tree type, te_node *n);
te_node *lift_int_ssa (lifter *l, tree name);
te_op compare_op (enum tree_code code);
te_node *lift_compare (lifter *l, enum tree_code code, tree a, tree b);
te_node *lift_int (lifter *l, tree t);
bool lift_pointer (lifter *l, tree t, te_tensor **base, te_node **off);
int affine_degree (const te_node *n);
te_node *bytes_to_elements (te_ctx *ctx, te_node *off, int64_t size);
bool lift_access (lifter *l, tree ref, te_tensor **t, te_node **index);
te_op math_op (const char *name, bool *single);
int operand_identity (tree t);
void walk_stmts_record (gimple_seq seq);
bool operands_swapped (gcall *call);
const char *call_spelling (location_t loc, tree fn);
te_node *refuse_call (lifter *l, tree fn, const char *name);
te_node *lift_call (lifter *l, gcall *call);
/* The value of CALL, a call of a helper kernel of this file (one that
   returns an expression of its scalar parameters), with its arguments
   lifted in the current stage; NULL for any other call.  */
te_node *lift_helper_call (lifter *l, gcall *call);

/* A note at FN, a helper (abi.h) whose call is refused, saying why it
   was not substituted.  */
void helper_refused (tree fn);
/* The value loaded by REF at program order UID inside source loop
   LOOP_ID.  */
te_node *lift_load (lifter *l, tree ref, unsigned uid, int loop_id);
te_node *lift_float_assign (lifter *l, gassign *def);
te_node *lift_float (lifter *l, tree t);
void purge_memo (lifter *l, class loop *loop);
te_node *lift_reduction (lifter *l, gphi *phi, te_type type);
/* The header PHI of a loop that ran before, an integer it counts
   (c++, c += m[i], maybe under conditions) whose value after it is used:
   an integer sum over its counter, which has no adjoint.  */
te_node *lift_count (lifter *l, gphi *phi);
te_node *precomputed (lifter *l, tree name, te_node *r, te_type type,
                      int nouter);
te_node *edge_condition (lifter *l, edge e);
te_node *block_guard (lifter *l, basic_block bb, basic_block top);
te_node *lift_phi (lifter *l, gphi *phi);
te_node *lift_join (lifter *l, gphi *phi);
location_t loop_location (class loop *loop);
/* Counter VAR of L's program counts LOOP: remember the source loop, and
   whether the forward runs it on OpenMP threads (omp.cc).  */
void set_var_loop (lifter *l, int var, class loop *loop);
/* Report that LOOP has more than one exit, at the break, goto or return
   that leaves it early (lift-exit.cc).  */
te_node *fail_early_exit (lifter *l, class loop *loop);
te_node *counted_extent (lifter *l, class loop *loop, edge exit);
te_node *loop_extent (lifter *l, class loop *loop, basic_block bb);
bool enter_stage (lifter *l, basic_block bb, location_t loc);
te_node *stmt_guard (lifter *l, basic_block bb);
void add_store (lifter *l, te_tensor *t, te_node *index, te_node *value, te_node *guard);
void lift_store (lifter *l, gassign *st);
void lift_return (lifter *l, greturn *ret);
void lift_kernel_call (lifter *l, gcall *call, tree callee);
void check_other (lifter *l, gimple *g);
bool lift_signature (lifter *l);

/* lift-check.cc.  Is G a call that only checks and reports (a
   sanitizer's handler, __builtin_trap, .UBSAN_BOUNDS, .ASAN_CHECK)?  */
bool check_call_p (const gimple *g);
/* Does BB hold check calls and the conversions of their arguments, and
   nothing else?  */
bool report_block_p (basic_block bb);
/* Strike the exits of FUN's loops into report blocks without a successor
   (a noreturn handler's) from the loops' recorded exits.  */
void hide_check_exits (function *fun);
/* Does the exit test of EXIT, LOOP's exit, come before anything else of
   an iteration: is it in LOOP's header, or reached from it through blocks
   that are its only way on, report blocks aside, and that compute
   nothing but integers, pointers and truth values?  */
bool exit_test_first (class loop *loop, edge exit);
/* The operation of G, a call of .UBSAN_CHECK_ADD, _SUB or _MUL, which
   returns the value of the plain one: PLUS_EXPR, MINUS_EXPR, MULT_EXPR;
   ERROR_MARK for any other statement.  */
enum tree_code checked_arith_code (const gimple *g);

} // namespace tg_lift

#endif /* TG_LIFT_INTERNAL_H */

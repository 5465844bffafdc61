/* lift-check.cc -- the checks that sanitizers and hardening options put
   into a kernel, which are no part of its mathematics: the lifter reads
   the kernel as if they were not there, and the forward keeps them (see
   lift.cc for the design of the lifter).

   Before (GIMPLE after "ssa", -fsanitize=undefined -fno-sanitize-recover):
       <bb 3>: _5 = m == 0; if (_5 != 0) goto <bb 4>; else goto <bb 5>;
       <bb 4>: __builtin___ubsan_handle_divrem_overflow_abort (&data, i, m);
       <bb 5>: _9 = i % m; ... *_21 = _22; i_35 = i + 1;
       <bb 6>: i = PHI <0, i_35>; if (i < n) goto <bb 3>; else ...
   After, as without the check:
       stage 0: for i < n:  y[i] = x[i*m + i % m] / (x[i] + 3);

   What the options put into the GIMPLE the lifter reads (after "ssa"):
   - the C front end's checks of -fsanitize=vla-bound, shift,
     integer-divide-by-zero, float-divide-by-zero, float-cast-overflow
     and signed-integer-overflow of / and %: `if (COND) handler (...);'
     with a __builtin___ubsan_handle_* call.  With recovery (the default)
     the handler returns and its block falls through to the code after
     the check; under -fno-sanitize-recover it is a noreturn _abort
     variant, under -fsanitize-undefined-trap-on-error __builtin_trap ():
     then the block has no successor, lies outside the loops around it,
     and the branch to it is one more exit of each of them.  A check in
     a loop's condition (i < (n >> 2) << 2) splits the loop's header in
     two.
   - -fsanitize=bounds: .UBSAN_BOUNDS calls, no branch.
   - _FORTIFY_SOURCE: memcpy and memset stay calls of the library
     functions until the inliner replaces them by their __*_chk forms,
     which lift.cc lifts as the plain ones (lift_memory_call).
   - pass_ubsan's checks (null, alignment, object-size, the
     signed-integer-overflow of + - * as .UBSAN_CHECK_ADD/SUB/MUL,
     pointer-overflow, ...) and AddressSanitizer's (ASAN_CHECK,
     ASAN_MARK) come from passes that run after the lifter's, on the
     kernel and on its gradient alike; -ftrapv, -fstack-protector and
     -fstack-clash-protection act when RTL is made.  The lifter meets
     none of them, but treats them as it would have to if it ran later.

   1. A check call (check_call_p) only reports: a sanitizer's builtin
      (__ubsan_handle_*, __asan_report_*, ...) or __builtin_trap or
      __builtin_unreachable, called for no value, or one of the internal
      functions that check an access (.UBSAN_BOUNDS, .UBSAN_NULL,
      .ASAN_CHECK, ...).  A statement walk skips it (lift.cc's
      check_other).
   2. A report block (report_block_p) holds check calls and the
      conversions of their arguments, nothing else.
   3. Post-dominators are computed as if each report block without a
      successor fell through to where the program goes on when its
      check passes (lift_post_dominators), as it does with recovery: the
      code after a check runs whenever the code before it does, and a
      guard need not lift the check's condition.
   4. A loop's exits into report blocks are struck from its recorded
      exits (hide_check_exits), so that single_exit and GCC's count of
      iterations (number_of_latch_executions) see the one exit of the
      loop as written.
   5. A loop's exit test comes first when it is in the loop's header or
      reached from it through blocks that are its only way on, checks
      aside, and compute only integers, with the body after it
      (exit_test_first).
   6. .UBSAN_CHECK_ADD/SUB/MUL (a value, checked for overflow) lifts as
      the plain operation (checked_arith_code).

   Limits: a report block whose way on cannot be told (its predecessors
   go on to more than one block besides it) gets no fake edge; the code
   after it is then guarded by the check's condition, lifted like any
   other, or refused.  A counter stepped by .UBSAN_CHECK_ADD is no
   evolution to SCEV (only a lifter that ran after pass_ubsan would meet
   one).  The gradient gets no checks from here: the passes that run on
   it give it theirs (README, "Sanitizers and hardening").  */

#include "lift-internal.h"

namespace tg_lift
{

/* Internal functions that check an access and return nothing.  */
static bool
check_ifn_p (internal_fn fn)
{
  switch (fn)
    {
    case IFN_UBSAN_NULL:
    case IFN_UBSAN_BOUNDS:
    case IFN_UBSAN_VPTR:
    case IFN_UBSAN_PTR:
    case IFN_UBSAN_OBJECT_SIZE:
    case IFN_ASAN_CHECK:
    case IFN_ASAN_MARK:
    case IFN_HWASAN_CHECK:
    case IFN_HWASAN_MARK:
      return true;
    default:
      return false;
    }
}

bool
check_call_p (const gimple *g)
{
  if (!is_gimple_call (g))
    return false;
  const gcall *c = as_a<const gcall *> (g);
  if (gimple_call_internal_p (c))
    return check_ifn_p (gimple_call_internal_fn (c));
  tree lhs = gimple_call_lhs (c);
  if (lhs && (TREE_CODE (lhs) != SSA_NAME || !has_zero_uses (lhs)))
    return false;
  tree fn = gimple_call_fndecl (c);
  if (!fn || !fndecl_built_in_p (fn, BUILT_IN_NORMAL))
    return false;
  enum built_in_function code = DECL_FUNCTION_CODE (fn);
  return (code > BEGIN_SANITIZER_BUILTINS && code < END_SANITIZER_BUILTINS)
         || code == BUILT_IN_TRAP || code == BUILT_IN_UNREACHABLE;
}

/* Is G an assignment whose value only statements of its own block
   use?  */
static bool
local_assign_p (gimple *g)
{
  if (!is_gimple_assign (g) || gimple_vdef (g))
    return false;
  tree lhs = gimple_assign_lhs (g);
  if (TREE_CODE (lhs) != SSA_NAME)
    return false;
  imm_use_iterator it;
  gimple *use;
  FOR_EACH_IMM_USE_STMT (use, it, lhs)
    if (!is_gimple_debug (use) && gimple_bb (use) != gimple_bb (g))
      return false;
  return true;
}

bool
report_block_p (basic_block bb)
{
  if (bb->index < NUM_FIXED_BLOCKS)
    return false;
  bool any = false;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *g = gsi_stmt (gsi);
      if (is_gimple_debug (g) || gimple_code (g) == GIMPLE_LABEL
          || gimple_code (g) == GIMPLE_NOP)
        continue;
      if (check_call_p (g))
        any = true;
      else if (!local_assign_p (g))
        return false;
    }
  return any;
}

/* Where the program goes on when the check of report block BB passes:
   the one block that a predecessor of BB branches to besides BB and
   that is itself no predecessor of BB (for `if (a || b) report ();' the
   block after the second test).  NULL when there is not exactly one.  */
static basic_block
check_continuation (basic_block bb)
{
  basic_block cont = NULL;
  edge p, s;
  edge_iterator pi, si;
  FOR_EACH_EDGE (p, pi, bb->preds)
    FOR_EACH_EDGE (s, si, p->src->succs)
      {
        if (s->dest == bb || s->dest == cont)
          continue;
        if (find_edge (s->dest, bb))
          continue; /* another test of the same check */
        if (cont)
          return NULL;
        cont = s->dest;
      }
  return cont;
}

} // namespace tg_lift

using namespace tg_lift;

void
lift_post_dominators (void)
{
  auto_vec<edge> fake;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (EDGE_COUNT (bb->succs) == 0 && report_block_p (bb))
      {
        basic_block cont = check_continuation (bb);
        if (cont)
          fake.safe_push (make_edge (bb, cont, EDGE_FAKE));
      }
  calculate_dominance_info (CDI_POST_DOMINATORS);
  for (unsigned i = 0; i < fake.length (); i++)
    remove_edge (fake[i]);
}

namespace tg_lift
{

void
hide_check_exits (function *fun)
{
  for (auto loop : loops_list (fun, 0))
    {
      auto_vec<edge> exits = get_loop_exit_edges (loop);
      for (unsigned i = 0; i < exits.length (); i++)
        if (EDGE_COUNT (exits[i]->dest->succs) == 0
            && report_block_p (exits[i]->dest))
          rescan_loop_exit (exits[i], false, true);
    }
}

/* Does BB compute nothing but integers, pointers and truth values, with
   no store and no call other than a check's: a part of a loop's exit
   test, not of its body?  */
static bool
test_block_p (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *g = gsi_stmt (gsi);
      switch (gimple_code (g))
        {
        case GIMPLE_DEBUG:
        case GIMPLE_LABEL:
        case GIMPLE_NOP:
        case GIMPLE_COND:
          continue;
        case GIMPLE_CALL:
          if (check_call_p (g))
            continue;
          return false;
        case GIMPLE_ASSIGN:
          if (gimple_vdef (g)
              || (!INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_lhs (g)))
                  && !POINTER_TYPE_P (TREE_TYPE (gimple_assign_lhs (g)))))
            return false;
          continue;
        default:
          return false;
        }
    }
  return true;
}

bool
exit_test_first (class loop *loop, edge exit)
{
  basic_block bb = loop->header;
  for (int steps = 0; bb != exit->src; steps++)
    {
      if (steps > n_basic_blocks_for_fn (cfun))
        return false;
      basic_block next = NULL;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        {
          if (report_block_p (e->dest))
            continue;
          if (next)
            return false;
          next = e->dest;
        }
      if (!next || next == loop->header
          || !flow_bb_inside_loop_p (loop, next) || !test_block_p (next))
        return false;
      bb = next;
    }
  if (exit->src == loop->header)
    return true;
  /* Not the test at the bottom of a do/while whose body computes only
     integers: the body must follow the test.  */
  if (EDGE_COUNT (exit->src->succs) != 2)
    return false;
  basic_block stay
      = EDGE_SUCC (exit->src, EDGE_SUCC (exit->src, 0) == exit)->dest;
  return stay != loop->header
         && (stay != loop->latch || !empty_block_p (loop->latch));
}

enum tree_code
checked_arith_code (const gimple *g)
{
  if (!is_gimple_call (g) || !gimple_call_internal_p (g))
    return ERROR_MARK;
  switch (gimple_call_internal_fn (g))
    {
    case IFN_UBSAN_CHECK_ADD:
      return PLUS_EXPR;
    case IFN_UBSAN_CHECK_SUB:
      return MINUS_EXPR;
    case IFN_UBSAN_CHECK_MUL:
      return MULT_EXPR;
    default:
      return ERROR_MARK;
    }
}

} // namespace tg_lift

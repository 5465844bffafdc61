/* lift-exit.cc -- a loop that can leave early, reported at the jump that
   leaves it (see lift.cc for the design of the lifter).

   Before (the C front end's trees, before genericization):
       for (int i = 0; i < n; i++)          <- the loop
         { if (x[i] < 0) break; y[i] = x[i]; }
   After (the GIMPLE the lifter reads, at -O2):
       <bb 3>: _4 = *_3; if (_4 < 0.0) goto <bb 6>; else goto <bb 4>;
   The break is gone: the gimplifier made the condition jump out of the
   loop itself, keeping only the condition's location.  So:

   1. Before genericization (PLUGIN_PRE_GENERICIZE), record for every
      if whose arm ends in a break, goto or return the location of the
      condition and of that jump.
   2. When a loop has more than one exit, look at the conditions its exit
      edges leave by (the last statement of each edge's source) and find
      the jumps recorded for them; report the first one in the source,
      with a note at the loop.
   3. Without a recorded jump (an exit GCC made, or a condition whose
      location the gimplifier changed), report at the loop.  */

#include "lift-internal.h"

using namespace tg_lift;

/* A jump at the end of an arm of an if: the condition's location, the
   jump's, and the jump's kind (BREAK_STMT, GOTO_EXPR, RETURN_EXPR).  No
   trees are kept, only locations.  */
struct early_jump
{
  location_t cond;
  location_t jump;
  enum tree_code code;
};
static vec<early_jump> early_jumps;

/* The break, goto or return that ends statement T, or NULL.  */
static tree
ending_jump (tree t)
{
  while (t)
    switch (TREE_CODE (t))
      {
      case BIND_EXPR:
        t = BIND_EXPR_BODY (t);
        break;
      case STATEMENT_LIST:
        {
          tree last = NULL_TREE;
          for (tree_stmt_iterator i = tsi_last (t); !tsi_end_p (i);
               tsi_prev (&i))
            if (TREE_CODE (tsi_stmt (i)) != DEBUG_BEGIN_STMT)
              {
                last = tsi_stmt (i);
                break;
              }
          t = last;
          break;
        }
      case BREAK_STMT:
      case GOTO_EXPR:
      case RETURN_EXPR:
        return t;
      default:
        return NULL_TREE;
      }
  return NULL_TREE;
}

/* Record JUMP, ending an arm of an if whose condition is COND.  The
   gimplifier gives the condition it makes, or each of the conditions it
   splits a && or || into, the location of a part of COND: every
   location in COND is recorded.  */
static void
record (tree cond, tree jump)
{
  if (!jump || !EXPR_HAS_LOCATION (jump))
    return;
  for (tree c = cond; c && EXPR_P (c);)
    {
      if (EXPR_HAS_LOCATION (c))
        early_jumps.safe_push ({ EXPR_LOCATION (c), EXPR_LOCATION (jump),
                                 TREE_CODE (jump) });
      enum tree_code code = TREE_CODE (c);
      if (code == TRUTH_ANDIF_EXPR || code == TRUTH_ORIF_EXPR
          || code == TRUTH_AND_EXPR || code == TRUTH_OR_EXPR)
        {
          record (TREE_OPERAND (c, 1), jump);
          c = TREE_OPERAND (c, 0);
        }
      else if (code == TRUTH_NOT_EXPR || CONVERT_EXPR_CODE_P (code)
               || code == NON_LVALUE_EXPR || code == C_MAYBE_CONST_EXPR)
        c = TREE_OPERAND (c, code == C_MAYBE_CONST_EXPR ? 1 : 0);
      else
        break;
    }
}

/* walk_tree callback of step 1.  */
static tree
record_if (tree *tp, int *, void *)
{
  tree t = *tp;
  if (TREE_CODE (t) != COND_EXPR || !VOID_TYPE_P (TREE_TYPE (t)))
    return NULL_TREE;
  tree cond = COND_EXPR_COND (t);
  for (int arm = 1; arm <= 2; arm++)
    {
      tree jump = ending_jump (TREE_OPERAND (t, arm));
      if (jump)
        {
          record (t, jump);
          record (cond, jump);
        }
    }
  return NULL_TREE;
}

void
lift_record_exits (tree fndecl)
{
  if (DECL_SAVED_TREE (fndecl))
    walk_tree_without_duplicates (&DECL_SAVED_TREE (fndecl), record_if,
                                  NULL);
}

/* Do A and B name the same place of the source?  (GIMPLE's locations
   carry a block besides.)  */
static bool
same_place (location_t a, location_t b)
{
  expanded_location x = expand_location (a), y = expand_location (b);
  return x.file && y.file && !strcmp (x.file, y.file) && x.line == y.line
         && x.column == y.column;
}

/* Is A before B in the source?  */
static bool
before (location_t a, location_t b)
{
  expanded_location x = expand_location (a), y = expand_location (b);
  return x.line < y.line || (x.line == y.line && x.column < y.column);
}

/* The recorded jump of step 2 for exit edge E, or NULL.  */
static const early_jump *
jump_of_exit (edge e)
{
  gimple *last = last_stmt (e->src);
  if (!last || gimple_code (last) != GIMPLE_COND
      || !gimple_has_location (last))
    return NULL;
  location_t loc = gimple_location (last);
  for (unsigned i = 0; i < early_jumps.length (); i++)
    if (same_place (early_jumps[i].cond, loc))
      return &early_jumps[i];
  return NULL;
}

namespace tg_lift
{

te_node *
fail_early_exit (lifter *l, class loop *loop)
{
  if (l->failed)
    return NULL;
  location_t loop_loc = loop_location (loop);
  const early_jump *first = NULL;
  auto_vec<edge> exits = get_loop_exit_edges (loop);
  for (unsigned i = 0; i < exits.length (); i++)
    {
      const early_jump *j = jump_of_exit (exits[i]);
      if (j && (!first || before (j->jump, first->jump)))
        first = j;
    }
  if (!first)
    {
      l->loc = loop_loc;
      return fail (l, "loop with more than one exit cannot be "
                      "differentiated");
    }
  const char *what = first->code == BREAK_STMT  ? "break"
                     : first->code == GOTO_EXPR ? "goto"
                                                : "return";
  error_at (first->jump,
            "%qs leaves the loop early: a loop with more than one exit "
            "cannot be differentiated",
            what);
  inform (loop_loc, "in this loop; to differentiate only the iterations "
                    "before the exit, count them before calling the kernel "
                    "and pass the count as the loop's bound");
  l->failed = true;
  return NULL;
}

} // namespace tg_lift

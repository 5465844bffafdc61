/* lift.h -- from the GIMPLE of a kernel to a TE program.  */

#ifndef TG_LIFT_H
#define TG_LIFT_H

#include "gcc-common.h"

/* Lift the body of FUN, a differentiable kernel in SSA form, to a TE
   program in CTX.  Reports every unsupported construct with error_at and
   returns NULL then.  NONNULL: FUN is a gradient the user wrote, whose
   tests of a pointer against NULL (if (d_x) ...) are taken to be true,
   as they are where it is checked.  */
te_program *lift_function (function *fun, te_ctx *ctx, bool nonnull);

/* Before the "ssa" pass, which may swap the operands of calls GCC deems
   commutative (fmax, fmin), record their source order in FUN: the
   adjoint of a tie goes to the first operand as written.  */
void lift_record_operand_order (function *fun);

/* Before the C front end genericizes kernel FNDECL, whose break
   statements then become jumps the gimplifier may merge into the
   conditions that take them, record where each break, goto and return
   at the end of an if's arm is: an error about a loop that leaves early
   points at it.  */
void lift_record_exits (tree fndecl);

/* Compute the post-dominators of the current function for lifting it:
   as if the noreturn handler of each sanitizer check fell through to
   where the program goes on when the check passes (lift-check.cc).  */
void lift_post_dominators (void);

/* Keep P, the lifted program of kernel FNDECL, for its callers in this
   file (lift_function inlines it at each call).  */
void lift_remember (tree fndecl, te_program *p);

#endif /* TG_LIFT_H */

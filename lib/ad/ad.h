/* ad.h -- reverse-mode differentiation of TE programs.  */

#ifndef TG_AD_H
#define TG_AD_H

#include "ir/te.h"

/* deriv.c: if node N has adjoint A, the contribution of N to the adjoint
   of its operand number I.  NULL (and DIAG filled) for an operation that
   has no rule.  */
te_node *deriv_adjoint (te_ctx *ctx, te_node *n, int i, te_node *a,
                        te_diag *diag);

/* cancel.c: the local arrays of FWD whose adjoint is zero by algebra:
   every active result of FWD is invariant under a shift of any one of
   their elements (the maximum a softmax subtracts).  Stores up to MAX of
   them in OUT and returns their number.  */
int ad_cancelled (const te_program *fwd, const te_tensor **out, int max);
/* The same for the max and min reductions of FWD's statements (their
   value at one iteration of their free counters): OUT gets those whose
   adjoint is zero.  */
int ad_cancelled_reductions (const te_program *fwd, const te_node **out,
                             int max);

/* ad.c: the backward program of FWD, whose roles te_program_roles has
   decided.  Its parameters are FWD's followed by the shadows in the order
   of DESIGN.md section 2 and, for a kernel returning a value, d_return.
   It shares FWD's context and tensors; every FWD tensor that has an
   adjoint gets it in ->shadow.  OPT: replace subexpressions equal to a
   value the forward stored by loads of it (noted in the program's notes).
   NULL, with DIAG filled, when the gradient cannot be built correctly.  */
te_program *ad_reverse (te_program *fwd, bool opt, te_diag *diag);

#endif /* TG_AD_H */

/* verify.h -- the invariants of the TE IR, checked (verify.c).  */

#ifndef TG_VERIFY_H
#define TG_VERIFY_H

#include "ir/te.h"

/* Check the invariants the passes rely on (verify.c's header
   lists them) in P; with FWD, P is FWD's backward program and must keep
   the gradient ABI; with ROLES, the roles and shadows are decided.
   WHAT heads the message of a failure (TE_DIAG_INTERNAL in DIAG).  */
bool te_program_verify (const te_program *p, const te_program *fwd,
                        bool roles, const char *what, te_diag *diag);

#endif /* TG_VERIFY_H */

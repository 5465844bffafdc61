/* remarks.h -- what tensorgrad did with a kernel, as GCC's optimization
   remarks (-fopt-info), at the kernel.  */

#ifndef TG_REMARKS_H
#define TG_REMARKS_H

#include "gcc-common.h"

/* optimized: GRAD, the gradient of KERNEL, was synthesized from FWD as
   BWD, lowered as LW; with the figures of lib/back/summary.c, then each
   decision the passes noted, as notes.  */
void remark_synthesized (tree kernel, tree grad, const te_program *fwd,
                         const te_program *bwd, const te_lowered *lw);

/* missed: no gradient of KERNEL was synthesized, because of WHY.  */
void remark_refused (tree kernel, const char *why);

/* note: the user wrote KERNEL's gradient GRAD; none was synthesized.  */
void remark_hand_written (tree kernel, tree grad);

#endif /* TG_REMARKS_H */

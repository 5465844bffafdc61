/* descriptor.h -- <name>_gradcheck for libtensorgrad's run-time checker.  */

#ifndef TG_DESCRIPTOR_H
#define TG_DESCRIPTOR_H

#include "gcc-common.h"

/* Define <kernel>_gradcheck, a tg_kernel describing KERNEL, whose
   gradient is GRAD and forward program FWD (after roles).  False, and
   nothing defined, when it gets none (the dump file says why).  */
bool emit_descriptor (tree kernel, tree grad, te_program *fwd);

#endif /* TG_DESCRIPTOR_H */

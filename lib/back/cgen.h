/* cgen.h -- the backward program as C source (option dump-c).  */

#ifndef TG_CGEN_H
#define TG_CGEN_H

#include "ir/te.h"
#include "back/lower.h"

/* cgen.c: write P, the backward program of kernel FWD, lowered as LW
   (te_lower; NULL: lowered here), to F as a C11 function with the
   gradient ABI (option dump-c).  PARAM_CTYPES (may be
   NULL) holds, for each of FWD's parameters, the C spelling of its type
   ("int", "long unsigned int", "const float *") or NULL; an integer
   parameter needs one.  A pointer is printed flat (T *restrict); a
   spelling that is not a plain pointer ("float (*)[m]") is replaced by
   one.  FIRST: start the file (its comment and #includes).  Nothing is
   written, and DIAG is filled, when P cannot be printed.  */
bool te_program_emit_c (FILE *f, const te_program *p, const te_lowered *lw,
                        const te_program *fwd,
                        const char *const *param_ctypes, bool first,
                        te_diag *diag);

#endif /* TG_CGEN_H */

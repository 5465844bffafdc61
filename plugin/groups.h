/* groups.h -- the plugin's diagnostics grouped as GCC groups its own: an
   error (or a warning) with the notes that follow it, so that
   -fdiagnostics-format=json makes each note a child of its error.  */

#ifndef TG_GROUPS_H
#define TG_GROUPS_H

#include "gcc-common.h"

/* Group the diagnostics emitted from now until groups_end: each one
   that is no note begins a group, which the notes after it join; a note
   after notes alone stands alone.  Calls nest.  */
void groups_begin (void);
void groups_end (void);

#endif /* TG_GROUPS_H */

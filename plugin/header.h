/* header.h -- the prototypes -fplugin-arg-tensorgrad-header=FILE writes,
   for callers in other files, C or C++.  */

#ifndef TG_HEADER_H
#define TG_HEADER_H

#include "gcc-common.h"

/* Add the prototype of GRAD, the gradient of KERNEL with backward
   program BWD (whose parameter names it takes), if other files can call
   it.  */
void header_add (tree kernel, tree grad, const te_program *bwd);

/* Write to F the header whose file is NAME (its guard comes from the
   name) with every prototype added, and forget them.  */
void header_write (FILE *f, const char *name);

#endif /* TG_HEADER_H */

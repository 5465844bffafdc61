/* runtime.c -- libtensorgrad, the runtime library users link with.

   For now it only reports its version; the gradient checker joins it
   later.  */

#ifdef HAVE_CONFIG_H
#include "tg-config.h"
#endif

#include "tensorgrad.h"

/* Return the package version, as configure recorded it.  */
const char *
tg_version (void)
{
  return PACKAGE_VERSION;
}

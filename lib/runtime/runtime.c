/* runtime.c -- libtensorgrad, the runtime library users link with.

   It reports its version here; the runtime gradient checker,
   tg_gradcheck, is in gradcheck.c.  */

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

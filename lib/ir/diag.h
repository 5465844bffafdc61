/* diag.h -- diagnostics passed from lib/ back to the plugin.

   lib/ never prints, aborts or exits on a user's input.  A function that
   can fail returns false (or NULL) and fills a te_diag that the caller
   passed; the plugin turns it into error_at/inform at LOC.  Internal
   inconsistencies are TE_DIAG_INTERNAL: they are our bugs, and the plugin
   says so.  */

#ifndef TG_DIAG_H
#define TG_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

/* An opaque source location: the plugin stores GCC's location_t here.  */
typedef unsigned long te_loc;

typedef enum te_diag_kind
{
  TE_DIAG_NONE,
  TE_DIAG_USER,     /* the user's kernel is outside what we support */
  TE_DIAG_INTERNAL  /* an inconsistency inside tensorgrad */
} te_diag_kind;

typedef struct te_diag
{
  te_diag_kind kind;
  te_loc loc;
  char msg[512];
  char note[512]; /* optional: what to write instead; empty if none */
  char where[96];  /* an internal error: the pass it was found in or after
                      ("after pass 'fuse'"); empty if not known */
} te_diag;

/* Fill DIAG (if it is still empty) with KIND at LOC and a printf-style
   message.  Returns false, so callers can write return te_error (...).  */
bool te_diag_set (te_diag *diag, te_diag_kind kind, te_loc loc,
                  const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

/* Set the note of DIAG, printf-style.  */
void te_diag_note (te_diag *diag, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

#ifdef TG_CHECKING
#include <stdio.h>
#include <stdlib.h>
#define te_assert(c)                                                        \
  ((c) ? (void) 0                                                           \
       : (fprintf (stderr, "tensorgrad: %s:%d: assertion '%s' failed\n",    \
                   __FILE__, __LINE__, #c),                                 \
          abort ()))
#else
#define te_assert(c) ((void) 0)
#endif

#endif /* TG_DIAG_H */

/* { dg-do run } */
/* te_diag_set: a message to the user names arrays as the kernel does.
   The passes give an array's later versions made-up names (version.c's
   'p.v1'); a user's message drops the suffix, in the message and its
   note, and leaves every other dot alone (numbers, 'x.y' that is no
   version).  An internal error keeps the names the passes use.  */

#include "unit-test.h"
#include <string.h>

static void
expect (const char *got, const char *want)
{
  if (strcmp (got, want) != 0)
    printf ("got \"%s\", want \"%s\"\n", got, want);
  CHECK (strcmp (got, want) == 0);
}

int
main (void)
{
  te_loc loc = 0;
  te_diag d = { 0 };
  te_diag_set (&d, TE_DIAG_USER, loc,
               "'%s' is read here where '%s' was written (%s, 1.v2, .v3)",
               "probs.v1", "h.v12", "a.b");
  te_diag_note (&d, "'%s' keeps its values", "probs.v1");
  expect (d.msg, "'probs' is read here where 'h' was written (a.b, 1.v2, .v3)");
  expect (d.note, "'probs' keeps its values");

  te_diag i = { 0 };
  te_diag_set (&i, TE_DIAG_INTERNAL, loc, "stale tensor '%s'", "probs.v1");
  expect (i.msg, "stale tensor 'probs.v1'");
  return tg_exit ();
}

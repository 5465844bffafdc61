/* remarks.cc -- what tensorgrad did with a kernel, as GCC's optimization
   remarks (dumpfile.h: dump_printf_loc), at the kernel:

     k.c:3:6: optimized: synthesized gradient 'f_grad': 2 loop nests,
         1 fused, 1 reused, 4096 bytes of temporaries
     k.c:3:6: note: tensorgrad: fuse: t into its 1 reader(s)
     k.c:9:6: missed: gradient 'g_grad' not synthesized: 'y' is written
         by more than one loop nest

   so that -fopt-info (optimized), -fopt-info-missed, -fopt-info-note,
   -fopt-info-all and their =FILE forms report them as they report GCC's
   own passes (the pass is in OPTGROUP_OTHER, which -fopt-info reports
   unless it names groups such as loop or vec; a plugin's pass,
   registered after the options were parsed, gets them from the dump
   manager).  The wording is fixed: tests match
   it.  The figures come from lib/back/summary.c, the notes are the
   decisions the passes noted (the dump's).

   1. The pass's own dump file (option dump), which lists the notes
      already, is set aside while the remarks are written, so that it
      does not get them twice.
   2. Nothing more is done unless a remark is wanted then
      (dump_enabled_p): the figures are not computed for the dump file
      alone, whose walk counts they would change.  */

#include "remarks.h"

extern "C" {
#include "back/summary.h"
}

/* Step 1: set the pass's dump file aside, and back.  */
static FILE *
hide_dump_file (void)
{
  FILE *saved = dump_file;
  if (saved)
    set_dump_file (NULL);
  return saved;
}

static void
restore_dump_file (FILE *saved)
{
  if (saved)
    set_dump_file (saved);
}

/* The name of DECL, for the remarks.  */
static const char *
name (tree decl)
{
  return IDENTIFIER_POINTER (DECL_NAME (decl));
}

/* Notes for the decisions P noted.  */
static void
notes (const dump_user_location_t &loc, const te_program *p)
{
  for (int i = 0; i < p->nnotes; i++)
    dump_printf_loc (MSG_NOTE, loc, "tensorgrad: %s\n", p->notes[i]);
}

void
remark_synthesized (tree kernel, tree grad, const te_program *fwd,
                    const te_program *bwd, const te_lowered *lw)
{
  FILE *saved = hide_dump_file ();
  if (!dump_enabled_p ())
    {
      restore_dump_file (saved);
      return;
    }
  te_summary s;
  te_summarize (fwd, bwd, lw, &s);
  dump_user_location_t loc = dump_user_location_t::from_function_decl (kernel);
  dump_printf_loc (MSG_OPTIMIZED_LOCATIONS, loc,
                   "synthesized gradient '%s': %d loop nest%s, %d fused, "
                   "%d reused, %s bytes of temporaries\n",
                   name (grad), s.nests, s.nests == 1 ? "" : "s", s.fused,
                   s.reused, s.temp_bytes);
  notes (loc, fwd);
  notes (loc, bwd);
  restore_dump_file (saved);
}

void
remark_refused (tree kernel, const char *why)
{
  FILE *saved = hide_dump_file ();
  if (!dump_enabled_p ())
    {
      restore_dump_file (saved);
      return;
    }
  dump_printf_loc (MSG_MISSED_OPTIMIZATION,
                   dump_user_location_t::from_function_decl (kernel),
                   "gradient '%s_grad' not synthesized: %s\n", name (kernel),
                   why);
  restore_dump_file (saved);
}

void
remark_hand_written (tree kernel, tree grad)
{
  FILE *saved = hide_dump_file ();
  if (!dump_enabled_p ())
    {
      restore_dump_file (saved);
      return;
    }
  dump_printf_loc (MSG_NOTE, dump_user_location_t::from_function_decl (kernel),
                   "tensorgrad: gradient '%s' written by hand, not "
                   "synthesized\n",
                   name (grad));
  restore_dump_file (saved);
}

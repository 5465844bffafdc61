/* groups.cc -- the plugin's diagnostics in groups, one per error.

   Before (-fdiagnostics-format=json):
       [ {"kind": "error", "message": "'break' leaves the loop early ...",
          "children": []},
         {"kind": "note", "message": "in this loop; ...", "children": []} ]
   After:
       [ {"kind": "error", "message": "'break' leaves the loop early ...",
          "children": [ {"kind": "note", "message": "in this loop; ..."} ]} ]

   GCC's error_at and inform each open a diagnostic group of their own
   (auto_diagnostic_group) unless one is open already; the JSON output
   makes the first diagnostic of a group a top-level entry and the rest
   its children.  The plugin reports an error and then its notes from
   dozens of places, in lift*.cc and lib/'s diagnostics alike.

   1. groups_begin, around each of the plugin's callbacks and its pass,
      opens one auto_diagnostic_group and puts a starter of its own in
      front of the diagnostic context's (diagnostic_starter).
   2. That starter, at a diagnostic that is no note after others of the
      open group (or at a note that follows only notes), ends the group
      and begins another (the context's end_group_cb and begin_group_cb,
      which the JSON output sets and the text output leaves NULL): the
      diagnostic then begins a group that the notes after it join.
   3. groups_end closes the group and gives the context its starter back.

   Limits: a note emitted after an error is taken for one of its notes,
   as GCC's own groups take it; no callback of the plugin emits a note of
   its own after an unrelated error.  */

#include "groups.h"

static int depth;
static auto_diagnostic_group *group;
static diagnostic_starter_fn saved_starter;
/* Whether the group open now began with a diagnostic that is no note.  */
static bool group_has_error;

/* Step 2.  */
static void
group_starter (diagnostic_context *dc, diagnostic_info *d)
{
  bool note = d->kind == DK_NOTE;
  if (dc->diagnostic_group_emission_count > 1 && (!note || !group_has_error))
    {
      if (dc->end_group_cb)
        dc->end_group_cb (dc);
      if (dc->begin_group_cb)
        dc->begin_group_cb (dc);
      group_has_error = false;
    }
  if (!note)
    group_has_error = true;
  saved_starter (dc, d);
}

void
groups_begin (void)
{
  if (depth++)
    return;
  group_has_error = false;
  saved_starter = diagnostic_starter (global_dc);
  diagnostic_starter (global_dc) = group_starter;
  group = new auto_diagnostic_group;
}

void
groups_end (void)
{
  if (--depth)
    return;
  delete group;
  group = NULL;
  diagnostic_starter (global_dc) = saved_starter;
}

/* pipeline.c -- the pass table, and the driver that runs it.

   Lifted:   stage 0: for t < T, i < H:  h[(t % 2)*H + i] = tanh (...)
   Emitted:  the backward program: one loop nest per adjoint, run by
             <name>_grad.

   1. The forward passes canonicalize the lifted program into stages the
      reverse sweep can differentiate (one slot per step of a rolling
      buffer, a peeled first iteration, reductions, versions, merged
      sibling loops), fuse elementwise temporaries, then decide the roles
      of the tensors and the gradient's signature.
   2. The snapshot copies the forward program for the kernel's callers
      (lib/passes/inline.c inlines it where another kernel calls this one); later
      passes change the forward program, never the copy.
   3. The reverse pass (lib/ad/ad.c) makes the backward program.
   4. The backward passes optimize it: materialized subexpressions, one
      loop nest per statement in a good loop order, shrunk temporaries.
   After each pass, with PL->verify, te_program_verify checks the program
   the pass left; with a dump file, the program is printed, headed by the
   pass's name, when the pass changed it, with the decisions it noted, and
   at the end the gradient once more, headed "backward program".

   Before the first pass, a kernel that reads a pointer it tests against
   NULL where the test may not hold is refused (te_optional_unguarded).
   With no-opt the passes marked as optimizations do not run, and the
   reverse pass reads no forward result back (ad_reverse's OPT).  */

#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "passes/pipeline.h"

#include "ad/ad.h"
#include "passes/passes.h"
#include "ir/verify.h"

#include <stdlib.h>
#include <string.h>

const te_pass te_passes[] = {
  { "winograd", TE_PASS_FORWARD, false, te_program_winograd,
    "a 3x3 convolution becomes a call of libtensorgrad's tg_conv3x3 "
    "(Winograd's F(2x2, 3x3); -fplugin-arg-tensorgrad-winograd)" },
  { "arms", TE_PASS_FORWARD, false, te_program_join_arms,
    "two nests writing the same elements under conditions that exclude "
    "each other become one" },
  { "bounds", TE_PASS_FORWARD, false, te_program_bounds,
    "a loop whose statements all run below a bound on its counter ends "
    "there" },
  { "rolling", TE_PASS_FORWARD, false, te_program_unroll_rolling,
    "a rolling buffer h[t % 2] gets one slot per step" },
  { "peel", TE_PASS_FORWARD, false, te_program_peel,
    "the first iteration of a seeded recurrence gets a stage of its own" },
  { "reductions", TE_PASS_FORWARD, false, te_program_reductions,
    "elements updated in place across a loop become reductions" },
  { "carry", TE_PASS_FORWARD, false, te_program_carry,
    "an array a time loop updates in place gets one row per step" },
  { "hoist", TE_PASS_FORWARD, false, te_program_hoist,
    "a reduction nested in another is computed into a local array" },
  { "dedupe", TE_PASS_FORWARD, false, te_program_dedupe,
    "a local array computed again the same way is read from the first" },
  { "expand", TE_PASS_FORWARD, false, te_program_expand,
    "a local array rewritten in every iteration of an outer loop gets one "
    "copy per iteration" },
  { "version", TE_PASS_FORWARD, false, te_program_version,
    "an array a later nest overwrites gets one array per version" },
  { "siblings", TE_PASS_FORWARD, false, te_program_merge_siblings,
    "sibling inner loops of one recurrence become one stage" },
  { "fuse", TE_PASS_FORWARD, true, te_program_fuse,
    "elementwise temporaries are substituted into their readers" },
  { "roles", TE_PASS_FORWARD, false, te_program_roles,
    "the roles of the tensors and the shadows of the parameters" },
  { "blocks", TE_PASS_FORWARD, false, te_program_blocks,
    "the inner loops of one step of a recurrence run as one stage, in "
    "order" },
  { "callers", TE_PASS_SNAPSHOT, false, NULL,
    "the forward program is copied for the kernel's callers" },
  { "ad", TE_PASS_REVERSE, false, NULL,
    "the reverse sweep: the backward program" },
  { "center", TE_PASS_BACKWARD, true, te_program_center,
    "a sum of deviations from their own mean (batch norm's variance "
    "through its mean) adds nothing: its statement is dropped" },
  { "points", TE_PASS_BACKWARD, true, te_program_points,
    "an adjoint scattered to one element of each row (a gathered loss's) "
    "is a select where it is read" },
  { "bounds-backward", TE_PASS_BACKWARD, true, te_program_bounds,
    "an adjoint loop whose statements all run below a bound on its "
    "counter ends there (a causal row's u <= t)" },
  { "rescale", TE_PASS_BACKWARD, true, te_program_rescale,
    "an adjoint whose every contribution is divided by one stored value "
    "is kept times that value, which its readers multiply by" },
  { "fold", TE_PASS_BACKWARD, true, te_program_fold,
    "an adjoint temporary read once, at the element each contribution "
    "wrote, is the sum of its contributions there" },
  { "onehot", TE_PASS_BACKWARD, true, te_program_onehot,
    "a term at one element of a loop's counter (j == t ? a : 0) is added "
    "outside that loop" },
  { "share", TE_PASS_BACKWARD, true, te_program_share,
    "sums of the same terms times factors of their element's counters "
    "(batch norm's d_gamma and variance adjoint) are summed once" },
  { "merge", TE_PASS_BACKWARD, true, te_program_merge,
    "an adjoint's elementwise terms are added in the later nest that adds "
    "to the same elements: one pass over it" },
  { "patches", TE_PASS_BACKWARD, false, te_program_patches,
    "a convolution's gradient as matrix products over its patches: the "
    "input's patches packed (im2col) for the weights' gradient, the "
    "input's gradient added back from them (col2im), when blas runs (not "
    "tiled when the gradient runs on OpenMP threads)", true },
  { "blas", TE_PASS_BACKWARD, false, te_program_blas,
    "each matrix product in a stage of its own, which the back ends run "
    "as a CBLAS call (-fplugin-arg-tensorgrad-blas) or, without the option, "
    "as a cache-tiled nest (not with no-opt)", true },
  { "accumulate-stages", TE_PASS_BACKWARD, true,
    te_program_accumulate_stages,
    "a sum down the columns of a stage's loop is added into its elements "
    "row by row, that loop innermost" },
  { "materialize", TE_PASS_BACKWARD, true, te_program_materialize,
    "subexpressions of fewer counters are computed once into temporaries" },
  { "schedule", TE_PASS_BACKWARD, true, te_program_schedule,
    "each adjoint statement gets its own loop nest, unit stride inside" },
  { "rows", TE_PASS_BACKWARD, true, te_program_rows,
    "consecutive nests that share outer loops and exchange data only "
    "within one iteration of them run as one: row by row" },
  { "gather", TE_PASS_BACKWARD, true, te_program_gather,
    "the additions one iteration makes to one element become one (GCC "
    "12.2's vectorizer miscounts a chain of them at -O3)" },
  { "shrink", TE_PASS_BACKWARD, true, te_program_shrink,
    "temporaries that live for one iteration shrink to it" },
  { "accumulate", TE_PASS_BACKWARD, true, te_program_accumulate,
    "a sum that strides along its own loop is added into its element with "
    "a unit-stride loop innermost" },
  { "lanes", TE_PASS_BACKWARD, true, te_program_lanes,
    "innermost loops of plain arithmetic run in lanes of 8, which GCC "
    "vectorizes at -O2; a sum along one keeps 8 partial sums" },
  { "guard", TE_PASS_BACKWARD, false, te_program_guard,
    "an addition that is zero where a test on counters fails runs only "
    "where it holds" },
  { "parallel", TE_PASS_BACKWARD, true, te_program_parallel,
    "the outermost loop of a nest whose iterations write apart, or add to "
    "arrays summed per thread, runs on OpenMP threads where the forward "
    "ran a loop so (or the option parallel asks)" },
  { "samples", TE_PASS_BACKWARD, true, te_program_samples,
    "stages around a matrix product that pass each other temporaries "
    "run one iteration of their first loop (a sample) at a time, the "
    "temporaries one iteration's size" },
  { "clip", TE_PASS_BACKWARD, true, te_program_clip,
    "a loop whose statements all run between bounds on its counter (a "
    "padding's bounds test) runs between them, untested" },
};

const int te_npasses = sizeof te_passes / sizeof te_passes[0];

/* P as the dump prints it, without its notes, in memory that the caller
   frees; NULL if there is no memory.  */
static char *
program_text (const te_program *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (!f)
    return NULL;
  /* A comparison, not output: the walk counts (the dump's statistics)
     leave it out; dump_after prints the program once more when it
     changed.  */
  long before = te_walk_visits (p->ctx, TE_WALK_PRINT);
  te_program_dump_body (f, p);
  te_walk_count (p->ctx, TE_WALK_PRINT,
                 before - te_walk_visits (p->ctx, TE_WALK_PRINT));
  fclose (f);
  return buf;
}

/* Dump P after pass PASS (NULL: as lifted) if it changed from *TEXT,
   which it then replaces; with the notes from number NOTES on.  */
static void
dump_after (te_pipeline *pl, const te_pass *pass, const te_program *p,
            char **text, int notes)
{
  if (!pl->dump)
    return;
  char *now = program_text (p);
  bool changed = !now || !*text || strcmp (now, *text) != 0;
  if (changed || notes < p->nnotes)
    {
      if (!pass)
        fprintf (pl->dump, "\n;; tensorgrad: lifted program\n");
      else if (pass->kind == TE_PASS_REVERSE)
        fprintf (pl->dump, "\n;; tensorgrad: after pass '%s': backward "
                           "program\n", pass->name);
      else
        fprintf (pl->dump, "\n;; tensorgrad: after pass '%s'%s\n",
                 pass->name, changed ? "" : " (program unchanged)");
      if (changed && now)
        te_program_dump_body (pl->dump, p);
      else if (changed)
        fputs ("(no memory to print the program)\n", pl->dump);
      te_program_dump_notes (pl->dump, p, notes);
    }
  free (*text);
  *text = now;
}

/* Check P after PASS (NULL: as lifted), when PL->verify: a forward
   program, or the backward program of PL->fwd.  */
static bool
verify (te_pipeline *pl, const te_pass *pass, const te_program *p,
        bool roles, te_diag *diag)
{
  bool backward = p == pl->bwd;
  if (!pl->verify)
    return true;
  char what[128];
  if (pass)
    snprintf (what, sizeof what, "after pass '%s'", pass->name);
  else
    snprintf (what, sizeof what, "as lifted");
  return te_program_verify (p, backward ? pl->fwd : NULL, roles, what, diag);
}

/* Refuse LIFTED if it reads a pointer it tests against NULL where the
   test may not hold (what the verifier then checks of every pass).  */
static bool
optional_guarded (const te_program *lifted, te_diag *diag)
{
  te_loc loc = 0;
  const te_tensor *t = te_optional_unguarded (lifted, &loc);
  if (!t)
    return true;
  te_diag_set (diag, TE_DIAG_USER, loc, "'%s' is tested against NULL but "
               "read where the test may not hold", t->name);
  te_diag_note (diag, "read '%s' only behind its test ('%s ? %s[i] : 0', "
                "'if (%s) ...'), or do not test it", t->name, t->name,
                t->name, t->name);
  return false;
}

bool
te_pipeline_run (te_pipeline *pl, te_program *lifted, te_diag *diag)
{
  pl->fwd = lifted;
  pl->callee = NULL;
  pl->bwd = NULL;
  char *fwd_text = NULL, *bwd_text = NULL;
  bool roles = false;
  bool ok = optional_guarded (lifted, diag)
            && verify (pl, NULL, lifted, false, diag);
  dump_after (pl, NULL, lifted, &fwd_text, 0);
  for (int i = 0; ok && i < te_npasses; i++)
    {
      const te_pass *pass = &te_passes[i];
      /* A blas pass runs with the option blas, and as an optimization
         without it (the products run tiled, lib/back/tiled.h) unless
         no-tiled.  */
      if (pass->blas ? !pl->blas && !(pl->opt && pl->tiled)
                     : pass->optimization && !pl->opt)
        continue;
      if (pass->kind == TE_PASS_REVERSE && pl->forward_only)
        break;
      te_program *p = pass->kind == TE_PASS_BACKWARD ? pl->bwd : pl->fwd;
      int notes = p ? p->nnotes : 0;
      switch (pass->kind)
        {
        case TE_PASS_FORWARD:
        case TE_PASS_BACKWARD:
          ok = pass->run (p, diag);
          break;
        case TE_PASS_SNAPSHOT:
          pl->callee = te_program_copy (pl->fwd);
          ok = verify (pl, pass, pl->callee, roles, diag);
          continue;
        case TE_PASS_REVERSE:
          pl->bwd = ad_reverse (pl->fwd, pl->opt, diag);
          ok = pl->bwd != NULL;
          if (ok)
            pl->bwd->tiled = !pl->blas;
          p = pl->bwd;
          notes = 0;
          break;
        }
      if (!ok)
        {
          /* A pass that fails without saying why is our bug.  */
          te_diag_set (diag, TE_DIAG_INTERNAL, 0, "it failed and said "
                       "nothing");
          if (diag->kind == TE_DIAG_INTERNAL && !diag->where[0])
            snprintf (diag->where, sizeof diag->where, "in pass '%s'",
                      pass->name);
          break;
        }
      /* A program past the size limit stops here, with an error, rather
         than making the next passes and GCC run for minutes.  */
      if (!te_ctx_within_budget (p->ctx, pl->fwd->name, diag))
        {
          ok = false;
          break;
        }
      if (pass->run == te_program_roles)
        roles = true;
      ok = verify (pl, pass, p, roles, diag);
      dump_after (pl, pass, p, p == pl->fwd ? &fwd_text : &bwd_text, notes);
    }
  if (ok && pl->bwd && pl->dump)
    {
      fprintf (pl->dump, "\n;; tensorgrad: backward program\n");
      te_program_dump_body (pl->dump, pl->bwd);
    }
  free (fwd_text);
  free (bwd_text);
  if (!ok && pl->bwd)
    pl->bwd = NULL; /* lives in the forward's context */
  return ok;
}

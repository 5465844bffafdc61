/* lower.h -- the backward program lowered once for every back end.

   plugin/emit.cc (GENERIC) and lib/back/cgen*.c (dump-c) print the same
   code from a backward program; what they print is decided here, once,
   after the pipeline's last pass, and they translate it without deciding
   again.  The lowering decides:
   - the nest shape of each stage (te_lw_shape): each statement a loop
     nest of its own, one nest running every statement, or one nest that
     computes the statements' shared values once when every shadow they
     touch is there (else the one nest of the statements); in one nest,
     the consecutive statements whose loops of their own are the same
     and may run interleaved, which share those loops (te_lw_run) and in
     the same way their values;
   - for each statement, the NULL-able shadows whose NULL skips it (its
     destination, and for a += one its value vanishes with: the
     te_zero_if_null rule) and those it reads as 0 when NULL;
   - scopes and the locals computed at the start of each: a shared
     subexpression (used more than once and evaluated whenever the scope
     is), or a reduction the scope evaluates (an accumulator, its terms a
     scope of their own); locals are numbered in the function (s0, s1, ...
     and acc0, acc1, ...), so a back end names them uniquely;
   - the selects each scope evaluates, the scopes of their arms, and
     whether an arm computes something first (then only the chosen arm may
     run: statements, not an expression).

   Before (a backward stage, not fused):
       stage 1: for i < n:  d_x[i] += d_y[i] * (sum (j < m) w[j]) * (sum (j < m) w[j])
   After (te_lowered_dump):
       lower: stage 1: each statement its own nest
       lower: stage 1 statement 0: skipped when d_x is NULL
       lower: stage 1 statement 0: skipped when d_y is NULL
       lower: acc0: reduction, node 17, in scope value
   which both back ends print as
       if (d_x && d_y)
         for (long i = 0; i < n; i++)
           {
             double acc0 = 0.0;
             for (long j = 0; j < m; j++)
               acc0 += w[j];
             d_x[i] += d_y[i] * acc0 * acc0;
           }

   The scopes of a statement: its guard's (computed before the test), its
   value's and index's (behind it).  A back end emitting an expression in
   a scope reads a node's local when an enclosing scope binds it (the
   innermost), finds a select in the innermost scope that lists it, and
   emits anything else operand by operand.  Expressions outside any scope
   (loop extents, sizes of locals) have nothing bound: a select there is
   emitted with both arms as they are, a reduction inline.

   The lowering keeps pointers into P, which must outlive it and not
   change.  Nodes made after it (a back end's constant) are never bound.  */

#ifndef TG_LOWER_H
#define TG_LOWER_H

#include "ir/gemm.h"
#include "ir/te.h"

typedef struct te_lw_scope te_lw_scope;

/* A local computed at the start of its scope, in binding order (operands
   first).  */
typedef struct te_lw_bind
{
  const te_node *node;
  int id;              /* s<ID>, or acc<ID> for a reduction; unique in the
                          function among its kind */
  bool reduction;      /* NODE is a REDUCE: the local is its accumulator,
                          initialized with args[0] in this scope */
  te_lw_scope *terms;  /* a reduction: the scope of one term, args[1] */
} te_lw_bind;

/* A select that a scope evaluates.  */
typedef struct te_lw_select
{
  const te_node *node;
  te_lw_scope *arms[2]; /* of args[1] and args[2] */
  bool stmts;          /* an arm binds something, or holds such a select:
                          emit as statements that run only the chosen
                          arm */
} te_lw_select;

struct te_lw_scope
{
  int nbinds;
  te_lw_bind *binds;
  int nselects;
  te_lw_select *selects;
};

/* A statement as one nest emits it.  */
typedef struct te_lw_stmt
{
  const te_stmt *st;
  int nskip;
  const te_tensor **skip; /* skipped when any of these is NULL */
  int nzero;
  const te_tensor **zero; /* read as 0 when NULL */
  te_lw_scope *guard;     /* NULL without a guard */
  te_lw_scope *body;      /* the value and the index */
} te_lw_stmt;

/* Consecutive statements of a TE_LW_ONE stage that run as one nest of
   their own loops (the loops of the first; lower.c step 5, te_lower_run):
   when none of ALL is NULL (or ALL is empty), that nest computes SCOPE
   (the values they share) and then FAST in order; otherwise, when none
   of HOIST is NULL, it runs the stage's STMTS[FIRST .. FIRST + N) in
   order, each inside its NULL tests, which omit HOIST (the tests they
   all have).  */
typedef struct te_lw_run
{
  int first, n;            /* N >= 2 */
  int nall;
  const te_tensor **all;
  te_lw_scope *scope;
  te_lw_stmt *fast;        /* N of them, no NULL tests */
  int nhoist;
  const te_tensor **hoist; /* tested once, around the nest */
} te_lw_run;

typedef enum te_lw_shape
{
  TE_LW_CALL,  /* a call stage: SCOPE holds its arguments */
  TE_LW_EACH,  /* each statement in STMTS its own nest of the stage's
                  loops, inside its NULL tests */
  TE_LW_ONE,   /* one nest of the stage's loops (reversed if the stage is)
                  running STMTS in order, each inside its NULL tests,
                  but those of each of RUNS together in a nest of their
                  own loops */
  TE_LW_SHARED /* when none of ALL is NULL (or ALL is empty): one nest
                  computing SCOPE (the values the statements share) then
                  FAST in order; otherwise the TE_LW_ONE nest of STMTS */
} te_lw_shape;

typedef struct te_lw_stage
{
  const te_stage *stage;
  te_lw_shape shape;
  int nstmts;
  te_lw_stmt *stmts;  /* TE_LW_SHARED with ALL empty: none */
  te_lw_stmt *fast;   /* TE_LW_SHARED: NSTMTS of them, no NULL tests */
  int nall;
  const te_tensor **all;
  te_lw_scope *scope; /* TE_LW_CALL, TE_LW_SHARED */
  int chain[2];       /* TE_LW_ONE, TE_LW_SHARED: two statements that add
                         to one element in every iteration of the
                         innermost loop, or -1: GCC 12's vectorizer
                         miscompiles such a chain of additions when its
                         loads run backwards (x[2*i + 1], then x[2*i]), so
                         a back end compiled by GCC keeps the nest from
                         being vectorized */
  te_gemm *gemm;      /* TE_LW_EACH of a blas stage (te_stage.blas) whose
                         statement is still a matrix product and reads
                         no shadow as 0: a back end calls the CBLAS for
                         it, inside the statement's NULL tests, when
                         the sizes suit the BLAS, and runs the loop nest
                         otherwise; else NULL */
  const char *blas_why; /* a blas stage left loops: why */
  bool set;           /* GEMM assigns (its beta 0): the first stage that
                         touches its destination, a local array it
                         fills (te_gemm_fills); a back end allocates the
                         array without zeroing where the call runs (the
                         sizes suit, no NULL test skips it), zeroed
                         otherwise (te_lower_raw) */
  const struct te_lw_stage *unless; /* a stage that zeroes a slice the
                         product of UNLESS then fills (lower.c step 6d):
                         it runs only where that call does not */
  int nruns;
  te_lw_run *runs;    /* TE_LW_ONE: in order, none overlapping; a
                         statement of a run with ALL empty has nothing
                         lowered but its ST */
} te_lw_stage;

typedef struct te_lowered
{
  const te_program *p;
  int nstages;
  te_lw_stage *stages; /* one per stage of P, in order */
  int nshared, naccs;  /* locals s0.. and acc0.. */
  int nids;            /* node ids below this existed when lowered */
} te_lowered;

/* Lower the backward program P (after the pipeline's last pass).  NULL
   only when out of memory.  Free it with te_lowered_free.  */
te_lowered *te_lower (const te_program *p);
void te_lowered_free (te_lowered *l);
/* Print L's decisions, "lower: ..." lines, for the plugin's dump.  */
void te_lowered_dump (FILE *f, const te_lowered *l);

/* Is statement ST skipped when the NULL-able tensor T is NULL: T is its
   destination or the optional input whose shadow that is, or ST adds a
   value that is zero when T reads as zero?  */
bool te_lower_skips (const te_stmt *st, const te_tensor *t);

/* How many statements of stage S from its statement FIRST on run as one
   nest of their own loops (lower.c step 5): 1 when FIRST runs alone.
   The interpreter runs them so too.  */
int te_lower_run (const te_stage *s, int first);

/* Stage G as the loop of its group runs it: into *S a copy of its stage
   without its first loop, into *GM a copy of its product without that
   batch loop, and into *OUT G referring to them.  */
void te_lower_in_group (const te_lw_stage *g, te_lw_stage *out, te_stage *s,
                        te_gemm *gm);

/* The stage of L whose product fills local array T first
   (te_lw_stage.set), or NULL.  */
const te_lw_stage *te_lower_raw (const te_lowered *l, const te_tensor *t);

/* The select of scope S for node N, or NULL.  */
const te_lw_select *te_lw_find_select (const te_lw_scope *s,
                                       const te_node *n);

#endif /* TG_LOWER_H */

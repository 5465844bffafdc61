/* cgen-state.h -- private to the C writer: its state while it prints
   one program (struct cgen) and cgen-state.c's names, memos and scopes,
   which cgen.c and cgen-expr.c both use.  cgen-state.c calls neither.  */

#ifndef TG_CGEN_STATE_H
#define TG_CGEN_STATE_H

#include "ir/te.h"
#include "back/cgen-text.h"
#include "back/lower.h"

/* The C type of a rendered expression: a te_type, or one of these.  */
#define CT_ADAPT (-1) /* an int constant, converted to its partner's type */
#define CT_OTHER (-2) /* a C type the TE has no name for */

typedef struct cx
{
  char *s;
  int prec;
  int ctype;
} cx;

/* A node computed into NAME, valid down to C block DEPTH.  */
typedef struct memo
{
  const te_node *n;
  char *name;
  int depth;
  int prev;   /* the entry for N this one hides, plus one; 0: none */
} memo;

/* A lowered scope entered at C block DEPTH.  */
typedef struct lw_entry
{
  const te_lw_scope *s;
  int depth;
} lw_entry;

/* A sum kept in lanes (te_loop.lanes): the array of partial sums NAME
   of C type CTYPE, for statement ST (added to its element after the
   loop, when none of its NSKIP tensors SKIP is NULL, or lane by lane to
   PARENT, the partial sums of the loop around, te_stmt.lanes_span) or
   reduction RED (added to its accumulator ACC).  */
typedef struct cg_lane_entry
{
  const te_stmt *st;
  const te_node *red;
  const te_tensor *const *skip;
  int nskip;
  const char *acc;
  const char *name;
  const char *ctype;
  const char *parent;
} cg_lane_entry;

/* The loop in lanes directly around what is being printed (LEVEL 1),
   or a loop LEVEL - 1 loops outside it in the same nest, across which
   partial sums may be kept (te_stmt.lanes_span); OUTER is the next
   such record outside.  */
typedef struct cg_lanes
{
  int width;
  const char *lane;  /* the counter of the lanes, 0 .. WIDTH-1 */
  int level;
  struct cg_lanes *outer;
  int nsums;
  cg_lane_entry sums[16];
} cg_lanes;

/* The emitter's state while it prints one program.  */
typedef struct cgen
{
  const te_program *p, *fwd;
  const te_lowered *lw;
  const char *const *ctypes;
  te_diag *diag;
  te_loc loc;           /* of the statement being printed */
  bool failed;
  char **pname;         /* by parameter number */
  bool *used;           /* parameters the body mentions */
  const te_tensor **locals;
  char **lname;         /* by local */
  int nlocals;
  const te_tensor **statics; /* static variables the program reads */
  char **sname;         /* by static: its identifier ... */
  char **sbase;         /* ... and the pointer to its elements */
  int nstatics;
  char **vname;         /* by counter, in the current nest */
  bool *bound;          /* counters of the enclosing loops */
  char **taken;         /* identifiers of the function ... */
  int ntaken, cap_taken;
  char **vtaken;        /* ... and the counters of the current nest */
  int nvtaken, cap_vtaken;
  const te_tensor *const *cond; /* nullable tensors read as 0 when NULL */
  int ncond;
  memo *memos;
  int nmemos, cap_memos;
  te_memo memo_index;   /* node -> its latest entry of MEMOS, plus one */
  lw_entry *scopes;     /* the lowered scopes entered, innermost last */
  int nscopes, cap_scopes;
  int inline_arms;      /* select arms being printed inside an expression:
                           nothing may be computed before it there */
  int depth;            /* C blocks entered */
  cg_lanes *lanes;      /* the loop in lanes directly around, or NULL */
  cg_lanes *spans;      /* the loops around it that sums may span,
                           innermost first (level 2, 3, ...), or NULL */
  const te_tensor *const *lane_skip; /* the NULL tests between it and the */
  int lane_nskip;                    /* statement being printed */
} cgen;

cx cx_make (int prec, int ctype, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* Fill the diagnostic (once): WHAT NAME cannot be printed.  A 0.  */
cx cg_fail (cgen *g, const char *what, const char *name);
/* A copy of S (strdup is not C11).  */
char *cg_copy (const char *s);
/* NAME made an identifier; FALLBACK if it has no letters to keep.  */
char *cg_sanitize (const char *name, const char *fallback);
/* BASE, or BASE2, BASE3, ... (BASE_2 after a digit): the first name that
   is free, owned by the caller.  */
char *cg_fresh_name (cgen *g, const char *base);
/* A fresh name, taken for the rest of the function, owned by G.  */
const char *cg_take_name (cgen *g, const char *base);
/* The name of counter V in the current nest.  */
const char *cg_var_name (cgen *g, int v);
/* A new nest: forget the counters' names and everything computed.  */
void cg_nest_begin (cgen *g);
/* Enter and leave a C block; leaving it forgets what was computed and
   the lowered scopes entered in it.  */
void cg_scope_enter (cgen *g);
void cg_scope_leave (cgen *g);
void cg_memo_add (cgen *g, const te_node *n, const char *name);
const char *cg_memo_find (const cgen *g, const te_node *n);
/* Lowered scope S (may be NULL) is entered in the current C block.  */
void cg_lw_push (cgen *g, const te_lw_scope *s);
/* The lowering's select N in the innermost scope listing it, or NULL.  */
const te_lw_select *cg_lw_select (const cgen *g, const te_node *n);
/* The C type of parameter K as a te_type, CT_OTHER if the TE has none.  */
int cg_param_ctype (const cgen *g, int k);
/* The pointer that holds the elements of T, or NULL.  */
const char *cg_tensor_base (cgen *g, const te_tensor *t);
/* Free what G owns.  */
void cg_state_free (cgen *g);

#endif /* TG_CGEN_STATE_H */

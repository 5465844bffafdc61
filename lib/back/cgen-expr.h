/* cgen-expr.h -- private to the C writer: its state (struct cgen, in
   cgen.c) and the C expressions of cgen-expr.c, which cgen.c and
   cgen-expr.c share.  */

#ifndef TG_CGEN_EXPR_H
#define TG_CGEN_EXPR_H

#include "ir/te.h"
#include "back/cgen-text.h"

/* The C type of a rendered expression: a te_type, or one of these.  */
#define CT_ADAPT (-1) /* an int constant, converted to its partner's type */
#define CT_OTHER (-2) /* a C type the TE has no name for */

typedef struct cx
{
  char *s;
  int prec;
  int ctype;
} cx;

/* A reduction already computed into NAME, valid down to scope DEPTH.  */
typedef struct memo
{
  const te_node *n;
  char *name;
  int depth;
  int prev;   /* the entry for N this one hides, plus one; 0: none */
} memo;

/* The emitter's state while it prints one program.  */
typedef struct cgen
{
  const te_program *p, *fwd;
  const char *const *ctypes;
  te_diag *diag;
  te_loc loc;           /* of the statement being printed */
  bool failed;
  char **pname;         /* by parameter number */
  bool *used;           /* parameters the body mentions */
  const te_tensor **locals;
  char **lname;         /* by local */
  int nlocals;
  char **vname;         /* by counter, in the current nest */
  bool *bound;          /* counters of the enclosing loops */
  char **taken;         /* identifiers of the current nest */
  int ntaken, cap_taken;
  const te_tensor *cond[32]; /* nullable tensors read as 0 when NULL */
  int ncond;
  memo *memos;
  int nmemos, cap_memos;
  te_memo memo_index;   /* node -> its latest entry of MEMOS, plus one */
  int inline_arms;      /* select arms being printed inside an expression:
                           nothing may be computed before it there */
  int depth;
} cgen;

/* Prints into OUT what a loop nest of cg_emit_loops runs, with ARG.  */
typedef void (*body_fn) (cgen *g, block *out, const void *arg);

/* cgen.c: the emitter's state.  */
cx cg_fail (cgen *g, const char *what, const char *name);
const char *cg_take_name (cgen *g, const char *base);
const char *cg_var_name (cgen *g, int v);
void cg_scope_enter (cgen *g);
void cg_scope_leave (cgen *g);
void cg_memo_add (cgen *g, const te_node *n, const char *name);
const char *cg_memo_find (const cgen *g, const te_node *n);
int cg_param_ctype (const cgen *g, int k);
const char *cg_tensor_base (cgen *g, const te_tensor *t);

/* cgen-expr.c: C expressions.  */
cx cx_make (int prec, int ctype, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
void cx_paren (cx *e, int min);
const char *cg_c_type (te_type t, bool cast);
bool cg_widens (int from, int to);
void cx_conform (cx *e, te_type want, bool implicit);
cx cg_render (cgen *g, block *out, const te_node *n);
/* Print into OUT, as locals, the subexpressions of the NROOTS ROOTS that
   they evaluate unconditionally and use more than once, operands first,
   and remember them in the current scope: each distinct node is printed
   once.  DRY: print nothing, only tell whether there are any.  */
bool cg_bind_shared (cgen *g, block *out, const te_node *const *roots,
                     int nroots, bool dry);
void cg_emit_loops (cgen *g, block *out, int nloops, const te_loop *loops,
                    bool reversed, body_fn fn, const void *arg);

#endif /* TG_CGEN_EXPR_H */

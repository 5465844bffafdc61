/* cgen-expr.h -- private to the C writer: TE expressions as C
   expressions, and the statements that compute what they need first
   (the locals of a lowered scope, reductions, select arms, loops).
   cgen.c prints statements with these; cgen-expr.c never calls cgen.c.  */

#ifndef TG_CGEN_EXPR_H
#define TG_CGEN_EXPR_H

#include "back/cgen-state.h"

/* Prints into OUT what a loop nest of cg_emit_loops runs, with ARG.  */
typedef void (*body_fn) (cgen *g, block *out, const void *arg);

/* Parenthesize E unless its precedence is at least MIN.  */
void cx_paren (cx *e, int min);
/* The C spelling of T in declarations, or in casts when CAST.  */
const char *cg_c_type (te_type t, bool cast);
/* Does C convert a value of C type FROM to TO without changing it?  */
bool cg_widens (int from, int to);
/* E converted to type WANT: as it is when it has that type (or, if
   IMPLICIT, when C's conversions keep its value), else cast.  */
void cx_conform (cx *e, te_type want, bool implicit);
/* N as a C expression; statements it needs first go to OUT.  */
cx cg_render (cgen *g, block *out, const te_node *n);
/* Enter lowered scope S (may be NULL) in the current C block: print its
   locals into OUT, operands first, each read by the uses below until
   the block is left.  */
void cg_bind_scope (cgen *g, block *out, const te_lw_scope *s);
/* NLOOPS LOOPS, outermost first (from the last value down when
   REVERSED), around what FN prints with ARG, into OUT.  */
void cg_emit_loops (cgen *g, block *out, int nloops, const te_loop *loops,
                    bool reversed, body_fn fn, const void *arg);

/* The partial sums statement ST (or reduction RED, accumulator ACC)
   keeps in the loop in lanes directly around, of TYPE, or NULL.  */
const char *cg_lane_sum (cgen *g, const te_stmt *st, const te_node *red,
                         const char *acc, te_type type);

/* "A && B && ..." for the N tensors TS into HEAD.  */
void cg_nonnull_list (cgen *g, sbuf *head, const te_tensor *const *ts, int n);
/* BODY into OUT, inside "if (TS...)" when N.  */
void cg_if_nonnull (cgen *g, block *out, const te_tensor *const *ts, int n,
                    block *body);

#endif /* TG_CGEN_EXPR_H */

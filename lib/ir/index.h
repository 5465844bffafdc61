/* index.h -- the analysis of integer expressions: indices and extents.

   Indices and extents are integer polynomials in loop counters, integer
   parameters and loads from index arrays.  te_canon_int (canon.c) puts
   one in a canonical form, so that equal polynomials are one node; the
   queries of index.c read that form: the range an index covers over a
   loop nest, whether it grows with every counter, whether two accesses
   touch the same element.  */

#ifndef TG_INDEX_H
#define TG_INDEX_H

#include "ir/te.h"

/* canon.c: integer expression N in a canonical form, so that equal
   polynomials in the counters, parameters and other atoms are one node
   however they were written.  */
te_node *te_canon_int (te_ctx *ctx, te_node *n);
/* D = C * Q + REST, C a monomial (T, 8, T * T): Q the quotient of the
   terms of D that C divides (coefficient and atoms), canonical, 0 when
   none; the other terms in *REST (may be NULL), canonical.  Q is 1 when
   D is C (also a sum: a tape's row of m + 1).  NULL when C is no
   monomial or D cannot be expanded.  */
te_node *te_canon_divide (te_ctx *ctx, te_node *d, te_node *c,
                          te_node **rest);

/* The coefficient of counter V in N, linear in it: N at V = 1 less N at
   V = 0, canonical (an index's step along a loop).  */
te_node *te_coefficient (te_ctx *ctx, te_node *n, int v);

/* The step of INDEX along counter VAR, affine or not: 0 (VAR does not
   move it), 1 (the next element), or -1 for anything else (a larger or
   varying step, a gather).  */
int te_index_step (te_ctx *ctx, te_node *index, int var);

/* Does canonical polynomial N (te_canon_int) have a negative coefficient:
   a subtraction, a negation or a negative constant?  */
bool te_poly_negative (const te_node *n);
/* Is integer N zero or more, its parameters being sizes (canonicalized
   here; te_poly_negative finds no negative coefficient)?  */
bool te_non_negative (te_ctx *ctx, te_node *n);
/* The loops that index R, read in VALUE inside stage S, ranges over: S's
   loops from the SKIP-th on, and the reductions of VALUE that bind R's
   other counters.  Their number into LOOPS (room for 2 * TE_MAX_LOOPS),
   or -1 when a counter of R is bound nowhere.  */
int te_read_loops (int nvars, const te_stage *s, int skip,
                   const te_node *value, const te_node *r, te_loop *loops);
/* Does INDEX over NLOOPS LOOPS write a dense range in the order of the
   iterations (INDEX less its lowest value is their row-major number)?
   Sets *LO and *HI (may be NULL) to the range.  */
bool te_dense (te_ctx *ctx, te_node *index, int nloops, const te_loop *loops,
               te_node **lo, te_node **hi);
/* Does INDEX, written by stage S, write in the order of S's iterations
   (INDEX less its first element is their row-major number)?  */
bool te_writes_in_order (te_ctx *ctx, const te_stage *s, te_node *index);
/* INDEX with every counter of NLOOPS LOOPS at its last value (MAX) or at
   0, innermost first: INDEX's extremes over the loops when
   te_index_monotone holds and every loop runs.  Canonical.  */
te_node *te_index_extreme (te_ctx *ctx, te_node *index, int nloops,
                           const te_loop *loops, bool max);
/* The smallest and largest element INDEX reaches over NLOOPS LOOPS
   (every loop running at least once) into *LO and *HI, canonical: when
   INDEX grows with every counter (te_index_monotone), or, counter by
   counter from the innermost, grows or shrinks with each (y[n-1-i], a
   loop counting down).  False when that cannot be told.  */
bool te_index_range (te_ctx *ctx, te_node *index, int nloops,
                     const te_loop *loops, te_node **lo, te_node **hi);
/* C without the comparisons with a boolean constant the lifter wraps
   conditions in (false != (a || b)), *NEG flipped for each that
   negates; a || (!a && b) as a || b.  */
te_node *te_bool_of (te_ctx *ctx, te_node *c, bool *neg);
/* The comparisons of the conjunction C (negated with NEG: a negated
   disjunction) as L < R, at most MAX of them, into LS and RS; their
   number.  OTHER (may be NULL) counts the conjuncts that are no
   comparison.  */
int te_conjunct_less (te_ctx *ctx, te_node *c, bool neg, te_node **ls,
                      te_node **rs, int max, int *other);
/* te_index_range of the read T[R] in ROOT (a statement's value, run
   where GUARD holds, NULL: always) over NLOOPS LOOPS, where the
   conditions on each of its paths hold: a comparison of a counter plus a
   constant with an expression of the sizes narrows that counter (u[j - 1]
   behind j > 0 starts at u[0]).  Conditions used otherwise, or a read
   whose paths cannot be walked, give te_index_range's range.  */
bool te_read_range (te_ctx *ctx, const te_node *root, const te_node *guard,
                    const te_tensor *t, const te_node *r, int nloops,
                    const te_loop *loops, te_node **lo, te_node **hi);
/* How integer E changes with counter VAR: 1 if it grows or stays, -1 if
   it shrinks or stays, 0 if neither can be told (a parameter's sign, a
   product of counters of both signs).  */
int te_index_direction (te_ctx *ctx, te_node *e, int var);
/* The loops inside the first SKIP of stage S that an access of statement
   ST ranges over: for its write (WRITE) S's other loops and ST's own; for
   the read INDEX in its value those, as te_read_loops gives them, with
   the reductions binding INDEX's other counters.  Their number into
   LOOPS (room for 2 * TE_MAX_LOOPS), or -1.  */
int te_access_loops (int nvars, const te_stage *s, int skip,
                     const te_stmt *st, const te_node *index, bool write,
                     te_loop *loops);
/* One past the largest element INDEX reaches over NLOOPS LOOPS
   (te_index_range's *HI + 1); NULL when it cannot be told.  */
te_node *te_index_bound (te_ctx *ctx, te_node *index, int nloops,
                         const te_loop *loops);
/* Does INDEX grow or stay with every counter of LOOPS: no negative
   coefficient in its dependence on them?  */
bool te_index_monotone (te_ctx *ctx, const te_node *index, int nloops,
                        const te_loop *loops);
/* Is canonical N zero or more, where every loop of stages A and B runs
   at least once (else one of them writes nothing, and cannot clash)?  */
bool te_non_negative_where_run (te_ctx *ctx, te_node *n, const te_stage *a,
                                const te_stage *b);
/* Is every load of T in VALUE inside the true arm of a select that tests
   counter V below E (v < E, v <= E - 1, E > v, E - 1 >= v)?  A causal
   row's p[u] = u <= t ? p[u] / z : 0 reads p only where u < t + 1.  */
bool te_loads_below (te_ctx *ctx, const te_node *value, const te_tensor *t,
                     te_node *v, te_node *e);
/* The bound E that L < R puts on the counter V of loop K of the NLOOPS
   LOOPS, V < E, when L is V plus a constant and R a polynomial free of
   the counters of loop K and those inside it; NULL otherwise.  */
te_node *te_less_bound (te_ctx *ctx, te_node *l, te_node *r, int k,
                        int nloops, const te_loop *loops);
/* Narrow the extents of LOOPS to the bounds that condition C (negated
   with NEG) puts on their counters where C holds, V + K < R with R free
   of V and the loops inside it, when R - K is no more than the extent
   (u <= t inside u < T: u < t + 1).  The number of loops narrowed.  */
int te_narrow_loops (te_ctx *ctx, te_node *c, bool neg, int nloops,
                     te_loop *loops);
/* Does loop K of the NLOOPS loops A run no further than loop K of B, at
   every iteration of the loops outside it (A's counters named as B's):
   B's extent less A's never negative there (u < t + 1 inside u < T)?  */
bool te_loop_within (te_ctx *ctx, int nloops, const te_loop *a,
                     const te_loop *b, int k);
/* Is N a polynomial in counters and parameters only (64-bit), quotients
   of non-negative polynomials in the parameters counting as parameters?  */
bool te_pure_poly (const te_node *n);
/* Is N such a polynomial where an integer expression of the parameters
   alone (a tiled loop's count, M >= 0 ? M / 8 : 0) stands for one more
   parameter: an atom the loops do not change?  */
bool te_param_poly (const te_node *n);
/* The largest value integer N takes over the NLOOPS LOOPS, an expression
   of the parameters; NULL when it cannot be told.  N is a polynomial in
   counters, parameters and clamps (an index picked by a condition, as in
   edge padding x[i > 0 ? i - 1 : 0], or by min and max), growing with
   each clamp; a clamp's largest value is that of the arm it picks, each
   arm bounded also by the condition under which it is picked.  */
/* Comparison C (negated with NEG), as L < R: *L and *R canonical 64-bit
   integers (a <= b is a < b + 1); false when C is no <, <=, > or >=.  */
bool te_as_less (te_ctx *ctx, const te_node *c, bool neg, te_node **l,
                 te_node **r);
te_node *te_index_upper (te_ctx *ctx, te_node *n, int nloops,
                         const te_loop *loops);
/* The iteration of NLOOPS LOOPS (outermost first) as one integer *LIN,
   row-major, and their number of iterations *SIZE: the index and size of
   a temporary with one element per iteration.  False when an extent uses
   a counter (a triangular domain has no such layout).  */
bool te_linearize (te_ctx *ctx, int nloops, const te_loop *loops,
                   te_node **lin, te_node **size);
/* Do the NA accesses INDEX[A] (canonical; each ranging over its own
   NIN[A] loops IN[A]) touch, at two different iterations of the NLOOPS
   LOOPS, different elements?  True when every access steps alike along
   each loop and the steps, in some order, each clear everything the
   loops placed before span (rows of a matrix, heads and positions of
   attention's scores in any order of the loops), where every loop of
   stage WHERE runs.  Then *LO is the lowest element an iteration's
   accesses reach less the iteration's own offset, and *SPAN how many
   elements from there they reach: the row length.  */
bool te_rows_apart (te_ctx *ctx, int nloops, const te_loop *loops, int na,
                    te_node *const *index, const int *nin,
                    const te_loop *const *in, const te_stage *where,
                    te_node **lo, te_node **span);
/* te_linearize over the box around a triangular domain: an extent that
   uses the counters of loops outside it (u < t + 1) is replaced by its
   largest value (T), so each iteration has its own element and the
   temporary has the box's size.  False when that value cannot be told.  */
bool te_linearize_box (te_ctx *ctx, int nloops, const te_loop *loops,
                       te_node **lin, te_node **size);
/* VALUE, written at INDEX by an iteration of the NW loops W, as read at
   READ_INDEX by an iteration of the NR loops R: VALUE with W's counters
   renamed to R's, when both nests have the same extents and the read is
   of the element that same iteration wrote; NULL otherwise.  */
te_node *te_same_element (te_ctx *ctx, int nw, const te_loop *w,
                          te_node *index, te_node *value, int nr,
                          const te_loop *r, te_node *read_index);
/* Integer expression N with its conversions to 32 bits (which wrap) made
   exact, as the index of an access within its array's bounds has them:
   what wraps there would be far outside.  */
te_node *te_exact_index (te_ctx *ctx, te_node *n);
/* N with the counters of the NLOOPS loops FROM renamed to those of
   loops TO, all at once (swapped names cannot collide).  */
te_node *te_rename_counters (te_ctx *ctx, te_node *n, int nloops,
                             const te_loop *from, const te_loop *to);
/* canon.c: N with the index of every load in canonical form (after te_replace
   put an expression for a counter).  */
te_node *te_canon_loads (te_ctx *ctx, te_node *n);
#endif /* TG_INDEX_H */

/* { dg-do run } */
/* te.c: hash-consing and the simplifying constructors.

   Structurally equal nodes are one node; commutative operands are put in
   one order (a+b is b+a, a-b is not b-a); integer and floating constants
   fold; the identities of te.h hold (x*1, x+0, 0*x, -(-x), x/1, selects
   on a constant, on equal arms, on a negated condition, nested on the
   same condition); te_replace rebuilds through the same constructors;
   te_reads and te_uses_var see through the DAG.  */

#include <sys/wait.h>
#include <unistd.h>

#include "unit-test.h"

#define SAME(a, b) CHECK ((a) == (b))
#define DIFF(a, b) CHECK ((a) != (b))

static te_ctx *ctx;
static te_node *x, *y, *i0, *i1, *c, *d;
static te_tensor *tx, *ty;

static te_node *
f64 (double v)
{
  return te_float (ctx, TE_F64, v);
}

static void
check_hashcons (void)
{
  printf ("structural equality is pointer equality\n");
  SAME (te_int (ctx, 7), te_int (ctx, 7));
  DIFF (te_int (ctx, 7), te_int (ctx, 8));
  SAME (f64 (0.5), f64 (0.5));
  DIFF (f64 (0.0), f64 (-0.0)); /* the sign of zero is part of the value */
  DIFF (f64 (1.0), te_float (ctx, TE_F32, 1.0)); /* and the type */
  SAME (te_float (ctx, TE_F32, 0.1), te_float (ctx, TE_F32, (float) 0.1));
  DIFF (te_int (ctx, 1), te_bool (ctx, true));
  SAME (te_param_ref (ctx, TE_F64, 0), x);
  SAME (te_var (ctx, 0), i0);
  te_node *e1 = te_unary (ctx, TE_TANH, te_add (ctx, x, y));
  te_node *e2 = te_unary (ctx, TE_TANH, te_add (ctx, x, y));
  SAME (e1, e2);
  SAME (te_load (ctx, tx, i0), te_load (ctx, tx, te_var (ctx, 0)));
  DIFF (te_load (ctx, tx, i0), te_load (ctx, ty, i0));
  te_loop l = { 1, te_int (ctx, 4) };
  te_node *r1 = te_reduce_node (ctx, TE_RED_SUM, 1, &l, f64 (0),
                                te_load (ctx, tx, i1));
  te_loop l2 = { 1, te_int (ctx, 4) }; /* an equal copy of the loop */
  te_node *r2 = te_reduce_node (ctx, TE_RED_SUM, 1, &l2, f64 (0),
                                te_load (ctx, tx, i1));
  SAME (r1, r2);
  DIFF (r1, te_reduce_node (ctx, TE_RED_MAX, 1, &l, f64 (0),
                            te_load (ctx, tx, i1)));
  CHECK (r1->u.red.loops != &l); /* the context owns a copy */
}

static void
check_commutative (void)
{
  printf ("commutative operands canonicalized\n");
  SAME (te_add (ctx, x, y), te_add (ctx, y, x));
  SAME (te_mul (ctx, x, y), te_mul (ctx, y, x));
  SAME (te_binary (ctx, TE_EQ, x, y), te_binary (ctx, TE_EQ, y, x));
  SAME (te_binary (ctx, TE_NE, x, y), te_binary (ctx, TE_NE, y, x));
  SAME (te_binary (ctx, TE_AND, c, d), te_binary (ctx, TE_AND, d, c));
  SAME (te_binary (ctx, TE_OR, c, d), te_binary (ctx, TE_OR, d, c));
  DIFF (te_sub (ctx, x, y), te_sub (ctx, y, x));
  DIFF (te_div (ctx, x, y), te_div (ctx, y, x));
  DIFF (te_binary (ctx, TE_LT, x, y), te_binary (ctx, TE_LT, y, x));
  /* Never reassociated: (x + y) + z is not x + (y + z).  */
  te_node *z = te_param_ref (ctx, TE_F64, 2);
  DIFF (te_add (ctx, te_add (ctx, x, y), z), te_add (ctx, x, te_add (ctx, y, z)));
}

static void
check_folding (void)
{
  printf ("constant folding\n");
  SAME (te_add (ctx, te_int (ctx, 2), te_int (ctx, 3)), te_int (ctx, 5));
  SAME (te_mul (ctx, te_int (ctx, -4), te_int (ctx, 3)), te_int (ctx, -12));
  SAME (te_div (ctx, te_int (ctx, 7), te_int (ctx, -2)), te_int (ctx, -3));
  SAME (te_binary (ctx, TE_MOD, te_int (ctx, -7), te_int (ctx, 2)),
        te_int (ctx, -1));
  te_node *dz = te_div (ctx, te_int (ctx, 7), te_int (ctx, 0));
  CHECK (dz->op == TE_DIV); /* not folded: the program would trap */
  SAME (te_binary (ctx, TE_MIN, te_int (ctx, 3), te_int (ctx, -1)),
        te_int (ctx, -1));
  SAME (te_binary (ctx, TE_LT, te_int (ctx, 3), te_int (ctx, 4)),
        te_bool (ctx, true));
  SAME (te_unary (ctx, TE_NEG, te_int (ctx, 5)), te_int (ctx, -5));
  SAME (te_add (ctx, f64 (1.5), f64 (2.25)), f64 (3.75));
  SAME (te_mul (ctx, f64 (0.1), f64 (3)), f64 (0.1 * 3));
  SAME (te_div (ctx, f64 (1), f64 (3)), f64 (1.0 / 3));
  CHECK (te_div (ctx, f64 (1), f64 (0))->op == TE_DIV);
  SAME (te_mul (ctx, te_float (ctx, TE_F32, 0.1), te_float (ctx, TE_F32, 3)),
        te_float (ctx, TE_F32, (float) 0.1f * 3.0f));
  SAME (te_unary (ctx, TE_SQRT, f64 (2.25)), f64 (1.5));
  CHECK (te_unary (ctx, TE_SQRT, f64 (-1))->op == TE_SQRT);
  SAME (te_unary (ctx, TE_FABS, f64 (-3)), f64 (3));
  SAME (te_unary (ctx, TE_NEG, f64 (2)), f64 (-2));
  CHECK (te_unary (ctx, TE_EXP, f64 (1))->op == TE_EXP); /* left to libm */
  SAME (te_cast (ctx, TE_F64, te_int (ctx, 3)), f64 (3));
  SAME (te_cast (ctx, TE_F32, f64 (0.1)), te_float (ctx, TE_F32, 0.1f));
  SAME (te_cast (ctx, TE_BOOL, te_int (ctx, 9)), te_bool (ctx, true));
  SAME (te_cast (ctx, TE_F64, x), x); /* to its own type */
  SAME (te_unary (ctx, TE_NOT, te_bool (ctx, true)), te_bool (ctx, false));
}

/* fabs (fabs (x)) is fabs (x), and |-x| is |x|.  */
static void
check_fabs_fabs (void)
{
  te_node *a = te_unary (ctx, TE_FABS, x);
  CHECK (te_unary (ctx, TE_FABS, a) == a);
  CHECK (te_unary (ctx, TE_FABS, te_neg (ctx, x)) == a);
}

static void
check_identities (void)
{
  printf ("identities\n");
  SAME (te_mul (ctx, x, f64 (1)), x);
  SAME (te_mul (ctx, f64 (1), x), x);
  SAME (te_add (ctx, x, f64 (0)), x);
  SAME (te_add (ctx, f64 (0), x), x);
  SAME (te_sub (ctx, x, f64 (0)), x);
  SAME (te_sub (ctx, f64 (0), x), te_neg (ctx, x));
  SAME (te_mul (ctx, f64 (0), x), f64 (0)); /* even for x infinite or NaN */
  SAME (te_mul (ctx, x, f64 (0)), f64 (0));
  SAME (te_mul (ctx, x, f64 (-1)), te_neg (ctx, x));
  SAME (te_neg (ctx, te_neg (ctx, x)), x);
  SAME (te_div (ctx, x, f64 (1)), x);
  SAME (te_div (ctx, te_neg (ctx, x), y), te_neg (ctx, te_div (ctx, x, y)));
  SAME (te_add (ctx, x, te_neg (ctx, y)), te_sub (ctx, x, y));
  SAME (te_sub (ctx, x, te_neg (ctx, y)), te_add (ctx, x, y));
  SAME (te_mul (ctx, te_neg (ctx, x), te_neg (ctx, y)), te_mul (ctx, x, y));
  SAME (te_mul (ctx, te_neg (ctx, x), y), te_neg (ctx, te_mul (ctx, x, y)));
  /* x - x is 0 for integers only: NaN - NaN and inf - inf are NaN.  */
  SAME (te_sub (ctx, i0, i0), te_int (ctx, 0));
  CHECK (te_sub (ctx, x, x)->op == TE_SUB);
  SAME (te_binary (ctx, TE_MOD, i0, te_int (ctx, 1)), te_int (ctx, 0));
  SAME (te_unary (ctx, TE_FABS, te_neg (ctx, x)), te_unary (ctx, TE_FABS, x));
  check_fabs_fabs ();
  SAME (te_not (ctx, te_not (ctx, c)), c);
  /* !(x < y) is not x >= y when a NaN is involved: kept.  */
  CHECK (te_not (ctx, c)->op == TE_NOT);
  SAME (te_binary (ctx, TE_AND, c, te_bool (ctx, true)), c);
  SAME (te_binary (ctx, TE_AND, c, te_bool (ctx, false)), te_bool (ctx, false));
  SAME (te_binary (ctx, TE_OR, c, te_bool (ctx, true)), te_bool (ctx, true));
  SAME (te_binary (ctx, TE_OR, te_bool (ctx, false), c), c);
  SAME (te_binary (ctx, TE_AND, c, c), c);
  SAME (te_binary (ctx, TE_OR, c, c), c);
}

static void
check_select (void)
{
  printf ("select simplifications\n");
  SAME (te_select (ctx, te_bool (ctx, true), x, y), x);
  SAME (te_select (ctx, te_bool (ctx, false), x, y), y);
  SAME (te_select (ctx, c, x, x), x);
  SAME (te_select (ctx, te_not (ctx, c), x, y), te_select (ctx, c, y, x));
  SAME (te_select (ctx, c, te_select (ctx, c, x, y), f64 (2)),
        te_select (ctx, c, x, f64 (2)));
  SAME (te_select (ctx, c, f64 (2), te_select (ctx, c, x, y)),
        te_select (ctx, c, f64 (2), y));
  SAME (te_select (ctx, c, f64 (0), f64 (0)), f64 (0));
  /* Two zeros: the first, up to the sign of zero as te.h allows.  */
  SAME (te_select (ctx, c, f64 (-0.0), f64 (0)), f64 (-0.0));
  te_node *s = te_select (ctx, c, x, y);
  CHECK (s->op == TE_SELECT && s->args[0] == c && s->type == TE_F64);
  /* Another condition is not folded.  */
  CHECK (te_select (ctx, d, te_select (ctx, c, x, y), y)->args[1]->op
         == TE_SELECT);
}

static void
check_replace_and_queries (void)
{
  printf ("te_replace, te_reads, te_uses_var\n");
  te_node *lx = te_load (ctx, tx, te_add (ctx, te_mul (ctx, i0, te_int (ctx, 4)), i1));
  te_node *e = te_add (ctx, te_mul (ctx, lx, y), te_unary (ctx, TE_EXP, lx));
  te_node *z = te_param_ref (ctx, TE_F64, 2);
  te_node *r = te_replace (ctx, e, lx, z);
  SAME (r, te_add (ctx, te_mul (ctx, z, y), te_unary (ctx, TE_EXP, z)));
  SAME (te_replace (ctx, e, x, z), e); /* nothing to replace: unchanged */
  /* Rebuilt through the simplifying constructors: y := 1 gives lx.  */
  SAME (te_replace (ctx, te_mul (ctx, lx, y), y, f64 (1)), lx);
  /* y := 0: 0 * lx is 0, and 0 + exp (lx) is exp (lx).  */
  SAME (te_replace (ctx, e, y, f64 (0)), te_unary (ctx, TE_EXP, lx));
  /* Inside an index: i1 := 0 in lx.  */
  SAME (te_replace (ctx, lx, i1, te_int (ctx, 0)),
        te_load (ctx, tx, te_mul (ctx, i0, te_int (ctx, 4))));
  /* Replacing a shared subexpression replaces every use.  */
  te_node *sh = te_mul (ctx, x, y);
  te_node *e2 = te_add (ctx, sh, te_unary (ctx, TE_SIN, sh));
  SAME (te_replace (ctx, e2, sh, z), te_add (ctx, z, te_unary (ctx, TE_SIN, z)));

  CHECK (te_reads (e, tx));
  CHECK (!te_reads (e, ty));
  CHECK (te_reads (e, NULL));
  CHECK (!te_reads (te_add (ctx, x, y), NULL));
  CHECK (!te_reads (f64 (1), NULL));
  te_node *nested = te_load (ctx, ty, te_cast (ctx, TE_I64,
                                               te_load (ctx, tx, i0)));
  CHECK (te_reads (nested, tx)); /* through an index */
  CHECK (te_uses_var (lx, 0));
  CHECK (te_uses_var (lx, 1));
  CHECK (!te_uses_var (lx, 2));
  CHECK (te_uses_var (e, 1));
  CHECK (!te_uses_var (x, 0));
  /* A reduction mentions its counter in its body.  */
  te_loop l = { 1, te_int (ctx, 4) };
  te_node *red = te_reduce_node (ctx, TE_RED_SUM, 1, &l, f64 (0), lx);
  CHECK (te_uses_var (red, 1) && te_reads (red, tx));
}

int
main (void)
{
  ctx = te_ctx_new ();
  te_program *p = te_program_new (ctx, "k");
  te_program_add_param (p, "x", TE_PK_FLOAT, TE_F64, 0);
  te_program_add_param (p, "y", TE_PK_FLOAT, TE_F64, 0);
  te_program_add_param (p, "z", TE_PK_FLOAT, TE_F64, 0);
  int pa = te_program_add_param (p, "a", TE_PK_PTR_FLOAT, TE_F64, 0);
  int pb = te_program_add_param (p, "b", TE_PK_PTR_FLOAT, TE_F64, 0);
  tx = te_program_add_tensor (p, "a", TE_F64, TE_TK_PARAM, pa, 0);
  ty = te_program_add_tensor (p, "b", TE_F64, TE_TK_PARAM, pb, 0);
  x = te_param_ref (ctx, TE_F64, 0);
  y = te_param_ref (ctx, TE_F64, 1);
  i0 = te_var (ctx, 0);
  i1 = te_var (ctx, 1);
  c = te_binary (ctx, TE_LT, x, y);
  d = te_binary (ctx, TE_GT, x, f64 (2));
  check_hashcons ();
  check_commutative ();
  check_folding ();
  check_identities ();
  check_select ();
  check_replace_and_queries ();
  te_ctx_free (ctx);
  return tg_exit ();
}

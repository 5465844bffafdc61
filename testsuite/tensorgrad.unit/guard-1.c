/* { dg-do run } */
/* guard.c: te_guard_or simplifies the path conditions of structured code.

   The join after if (c) / else under g is (g && c) || (g && !c) == g;
   absorption drops a term that contains another; the joins of
   short-circuit conditions (a && b, a || b, else-if chains) collapse; a
   form too large for the DNF (more than 32 terms or 16 literals in a
   term) falls back to the plain OR.  Every result is also checked to be
   logically equivalent to the plain OR, by the MPFR interpreter over
   every assignment of the atoms.

   te_guards_exclusive tells conditions that cannot both hold: c and !c
   under any other conditions, the arms of an else-if chain, comparisons
   of integers spelled the other way round (n < K and K <= n, 0 != x and
   !(x != 0)); not a floating comparison and its reverse (NaN), nor two
   conditions that may both hold.  Each exclusive pair is checked to be
   false together by the interpreter.  */

#include "unit-test.h"

#define NATOMS 6

static te_ctx *ctx;
static te_tensor *bits;
static te_node *atom[16];
static bool quiet;

static te_node *
and2 (te_node *a, te_node *b)
{
  return te_binary (ctx, TE_AND, a, b);
}

static te_node *
or2 (te_node *a, te_node *b)
{
  return te_binary (ctx, TE_OR, a, b);
}

static te_node *
not1 (te_node *a)
{
  return te_not (ctx, a);
}

/* Are G and H equal for every assignment of the first NATOMS atoms?  */
static bool
equivalent (te_node *g, te_node *h)
{
  te_program *p = te_program_new (ctx, "equiv");
  int pb = te_program_add_param (p, "bits", TE_PK_PTR_INT, TE_I32, 0);
  int po = te_program_add_param (p, "out", TE_PK_PTR_FLOAT, TE_F64, 0);
  te_tensor *out = te_program_add_tensor (p, "out", TE_F64, TE_TK_PARAM, po, 0);
  te_node *one = te_float (ctx, TE_F64, 1), *zero = te_float (ctx, TE_F64, 0);
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_stmt (p, s, out, te_int (ctx, 0), TE_SET,
                     te_select (ctx, g, one, zero), NULL, 0);
  te_stage_add_stmt (p, s, out, te_int (ctx, 1), TE_SET,
                     te_select (ctx, h, one, zero), NULL, 0);
  te_program_share_tensor (p, bits); /* parameter PB: the atoms' */
  (void) pb;
  bool same = true;
  mp_env *env = mp_env_new (p, 64);
  mpfr_t *v = mp_env_tensor (env, bits, NATOMS);
  mpfr_t *o = mp_env_param_tensor (env, po, 2);
  for (unsigned m = 0; same && m < 1u << NATOMS; m++)
    {
      for (int k = 0; k < NATOMS; k++)
        mpfr_set_ui (v[k], (m >> k) & 1, MPFR_RNDN);
      if (!mp_check_run (env, p))
        same = false;
      else if (!mpfr_equal_p (o[0], o[1]))
        {
          if (!quiet)
            fprintf (stderr, "  differ at assignment %#x\n", m);
          same = false;
        }
    }
  mp_env_free (env);
  return same;
}

/* Check te_guard_or (A, B) is WANT (pointer) and equivalent to A || B.  */
#define CHECK_OR(a, b, want)                                                  \
  do                                                                          \
    {                                                                         \
      te_node *r_ = te_guard_or (ctx, (a), (b));                              \
      CHECK (r_ == (want));                                                   \
      CHECK (equivalent (r_, or2 ((a), (b))));                                \
    }                                                                         \
  while (0)

static void
check_if_else (void)
{
  te_node *a = atom[0], *b = atom[1], *c = atom[2];
  printf ("if/else joins collapse\n");
  CHECK_OR (and2 (a, c), and2 (a, not1 (c)), a);
  CHECK_OR (c, not1 (c), te_bool (ctx, true));
  te_node *g = and2 (a, b); /* a compound guard */
  CHECK_OR (and2 (g, c), and2 (g, not1 (c)), g);
  CHECK_OR (and2 (not1 (c), g), and2 (c, g), g); /* either order */
  CHECK_OR (a, a, a);
  CHECK_OR (a, te_bool (ctx, false), a);
  CHECK_OR (te_bool (ctx, false), a, a);
  CHECK_OR (a, te_bool (ctx, true), te_bool (ctx, true));
}

static void
check_absorption (void)
{
  te_node *a = atom[0], *b = atom[1], *c = atom[2];
  printf ("absorption\n");
  CHECK_OR (a, and2 (a, b), a);
  CHECK_OR (and2 (a, b), a, a);
  CHECK_OR (and2 (a, b), and2 (and2 (a, b), c), and2 (a, b));
  /* Nothing to absorb: a || (b && c) stays as it is.  */
  te_node *r = te_guard_or (ctx, a, and2 (b, c));
  CHECK (equivalent (r, or2 (a, and2 (b, c))));
}

static void
check_short_circuit (void)
{
  te_node *a = atom[0], *b = atom[1], *c = atom[2], *d = atom[3];
  te_node *t = te_bool (ctx, true);
  printf ("short-circuit shapes\n");
  /* if (a && b) X; else Y;  join: (a && b) || (a && !b) || !a.  */
  te_node *j = te_guard_or (ctx, and2 (a, b), and2 (a, not1 (b)));
  CHECK (j == a);
  CHECK_OR (j, not1 (a), t);
  /* The same, the other grouping.  */
  CHECK_OR (and2 (a, b), te_guard_or (ctx, and2 (a, not1 (b)), not1 (a)), t);
  /* if (a || b) X; else Y;  join: a || (!a && b) || (!a && !b).  */
  j = te_guard_or (ctx, a, and2 (not1 (a), b));
  CHECK (equivalent (j, or2 (a, b)));
  CHECK_OR (j, and2 (not1 (a), not1 (b)), t);
  /* if (a) X; else if (b) Y; else Z;  under guard d.  */
  te_node *x = and2 (d, a), *y = and2 (d, and2 (not1 (a), b));
  te_node *z = and2 (d, and2 (not1 (a), not1 (b)));
  CHECK_OR (te_guard_or (ctx, x, y), z, d);
  CHECK_OR (x, te_guard_or (ctx, y, z), d);
  /* (a && b && c) || (a && b && !c) || (a && !b): a.  */
  CHECK_OR (te_guard_or (ctx, and2 (and2 (a, b), c),
                         and2 (and2 (a, b), not1 (c))),
            and2 (a, not1 (b)), a);
}

/* The literals of conjunction N into L; their number.  */
static int
conjuncts (te_node *n, te_node **l, int k)
{
  if (n->op == TE_AND)
    return conjuncts (n->args[1], l, conjuncts (n->args[0], l, k));
  if (k < 64)
    l[k] = n;
  return k + 1;
}

/* Are A and B ANDs of the same literals (in any grouping)?  */
static bool
same_conjunction (te_node *a, te_node *b)
{
  te_node *la[64], *lb[64];
  int na = conjuncts (a, la, 0), nb = conjuncts (b, lb, 0);
  if (na != nb || na > 64)
    return false;
  for (int i = 0; i < na; i++)
    {
      bool found = false;
      for (int j = 0; j < nb; j++)
        found |= la[i] == lb[j];
      if (!found)
        return false;
    }
  return true;
}

static void
check_fallback (void)
{
  printf ("too large: the plain OR\n");
  /* (a0 || ... || a5) && (a6 || ... || a11) has 36 terms > 32.  */
  te_node *l = atom[0], *r = atom[6];
  for (int k = 1; k < 6; k++)
    {
      l = or2 (l, atom[k]);
      r = or2 (r, atom[6 + k]);
    }
  te_node *big = and2 (l, r);
  te_node *g = te_guard_or (ctx, big, atom[12]);
  CHECK (g == or2 (big, atom[12]));
  /* A term of 16 literals fits, 17 do not.  */
  te_node *t15 = atom[0];
  for (int k = 1; k < 15; k++)
    t15 = and2 (t15, atom[k]);
  te_node *lit = te_binary (ctx, TE_GT, te_param_ref (ctx, TE_F64, 0),
                            te_float (ctx, TE_F64, 0));
  te_node *m = te_guard_or (ctx, and2 (t15, lit), and2 (t15, not1 (lit)));
  CHECK (same_conjunction (m, t15));
  te_node *t16 = and2 (t15, atom[15]);
  te_node *big2 = and2 (t16, not1 (lit));
  CHECK (te_guard_or (ctx, and2 (t16, lit), big2)
         == or2 (and2 (t16, lit), big2));
}

/* te_guards_exclusive (A, B) is WANT; when true, A && B is never true.  */
#define CHECK_EXCLUSIVE(a, b, want)                                           \
  do                                                                          \
    {                                                                         \
      bool r_ = te_guards_exclusive (ctx, (a), (b));                          \
      CHECK (r_ == (want));                                                   \
      if (r_)                                                                 \
        CHECK (equivalent (and2 ((a), (b)), te_bool (ctx, false)));          \
    }                                                                         \
  while (0)

static void
check_exclusive (void)
{
  te_node *a = atom[0], *b = atom[1], *c = atom[2];
  printf ("exclusive guards\n");
  CHECK_EXCLUSIVE (c, not1 (c), true);
  CHECK_EXCLUSIVE (and2 (a, c), and2 (not1 (c), b), true);
  CHECK_EXCLUSIVE (or2 (a, b), and2 (not1 (a), not1 (b)), true);
  /* if (a) X; else if (b) Y; else Z: the arms pairwise.  */
  te_node *y = and2 (not1 (a), b), *z = and2 (not1 (a), not1 (b));
  CHECK_EXCLUSIVE (a, y, true);
  CHECK_EXCLUSIVE (y, z, true);
  CHECK_EXCLUSIVE (a, b, false);
  CHECK_EXCLUSIVE (or2 (a, b), not1 (a), false);
  CHECK_EXCLUSIVE (a, te_bool (ctx, true), false);
  CHECK_EXCLUSIVE (a, te_bool (ctx, false), true);
  /* Integers compared either way round (the interpreter runs them over
     0 and 1).  */
  te_node *n = te_load (ctx, bits, te_int (ctx, 4));
  te_node *k = te_load (ctx, bits, te_int (ctx, 5));
  te_node *zero = te_cast (ctx, TE_I32, te_int (ctx, 0));
  CHECK_EXCLUSIVE (te_binary (ctx, TE_LT, n, k), te_binary (ctx, TE_LE, k, n),
                   true);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_GT, n, k), te_binary (ctx, TE_LE, n, k),
                   true);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_GE, n, k), te_binary (ctx, TE_LT, n, k),
                   true);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_NE, zero, n),
                   not1 (te_binary (ctx, TE_NE, n, zero)), true);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_EQ, n, zero),
                   te_binary (ctx, TE_NE, zero, n), true);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_LE, n, k), te_binary (ctx, TE_LE, k, n),
                   false);
  /* Floating x < y and y <= x both fail at a NaN, so they are not each
     other's negation; neither are they exclusive.  */
  te_node *fx = te_cast (ctx, TE_F64, n), *fy = te_cast (ctx, TE_F64, k);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_LT, fx, fy),
                   te_binary (ctx, TE_LE, fy, fx), false);
  CHECK_EXCLUSIVE (te_binary (ctx, TE_LT, fx, fy),
                   not1 (te_binary (ctx, TE_LT, fx, fy)), true);
}

int
main (void)
{
  ctx = te_ctx_new ();
  te_program *p = te_program_new (ctx, "atoms");
  int pb = te_program_add_param (p, "bits", TE_PK_PTR_INT, TE_I32, 0);
  bits = te_program_add_tensor (p, "bits", TE_I32, TE_TK_PARAM, pb, 0);
  for (int k = 0; k < 16; k++)
    atom[k] = te_binary (ctx, TE_NE, te_load (ctx, bits, te_int (ctx, k)),
                         te_cast (ctx, TE_I32, te_int (ctx, 0)));
  /* The equivalence check itself tells a from b and a from !a.  */
  quiet = true;
  CHECK (!equivalent (atom[0], atom[1]));
  CHECK (!equivalent (atom[0], not1 (atom[0])));
  CHECK (!equivalent (or2 (atom[0], atom[5]), atom[0]));
  quiet = false;
  check_if_else ();
  check_absorption ();
  check_short_circuit ();
  check_fallback ();
  check_exclusive ();
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

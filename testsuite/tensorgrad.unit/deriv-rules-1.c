/* { dg-do run } */
/* deriv_adjoint: every local derivative rule against central differences.

   For every operation of TE_OPS whose result is floating, y = op (x) or
   y = op (x, z) with x and z floating parameters; the adjoints of x and z
   for seed s (1 and -0.75) come from deriv_adjoint, and the MPFR
   interpreter evaluates them at points inside the domain at 256 bits.
   They must match the central difference (y(x+h) - y(x-h)) / 2h, also
   evaluated in MPFR, h = 2^-60, within 1e-30 relative: the difference's
   own error is about h^2 = 1e-36.

   Rules that contain a constant rounded to double (ln 2 for exp2 and
   log2, ln 10 for log10, 2/sqrt(pi) for erf and erfc) are exact only up
   to that rounding; the difference is scaled by the rounded constant over
   the exact one, so the check is still 1e-30.

   Then the conventions at non-smooth points (DESIGN.md section 2),
   exactly: d|x|/dx = 0 at +-0; min, max, fmin, fmax send the adjoint to
   the first operand on ties, fmin and fmax to the non-NaN operand;
   floor, ceil, round, trunc have derivative 0; d(x^z)/dz = 0 for x <= 0;
   a select sends the adjoint to the chosen arm.  A floating operation
   without a rule fails the test (only %, which is for integers, has
   none).  */

#include "unit-test.h"

#define PREC 256
#define H_EXP (-60)
#define TOL 1e-30

static te_ctx *ctx;

/* Up to 5 points (x, z) inside the domain of OP.  */
static int
points (te_op op, double pts[][2])
{
  static const double generic[][2]
      = { { 0.3, 0.7 }, { -1.2, 1.9 }, { 2.6, -0.6 }, { -0.45, -2.3 } };
  static const double positive[][2]
      = { { 0.3, 0.7 }, { 1.2, -1.9 }, { 2.6, 2.25 }, { 7.25, -0.6 } };
  static const double unit[][2]
      = { { 0.3, 0.7 }, { -0.45, 1.9 }, { 0.8, -0.6 }, { -0.95, 2.3 } };
  static const double log1p_pts[][2]
      = { { 0.3, 0.7 }, { -0.45, 1.9 }, { 2.6, -0.6 }, { -0.9, 2.3 } };
  const double(*src)[2] = generic;
  switch (op)
    {
    case TE_LOG:
    case TE_LOG2:
    case TE_LOG10:
    case TE_SQRT:
    case TE_POW: /* x > 0: smooth in both operands */
      src = positive;
      break;
    case TE_ASIN:
    case TE_ACOS:
      src = unit;
      break;
    case TE_LOG1P:
      src = log1p_pts;
      break;
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
    case TE_LOAD:
    case TE_NEG:
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_DIV:
    case TE_MOD:
    case TE_MIN:
    case TE_MAX:
    case TE_CAST:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    case TE_SELECT:
    case TE_EXP:
    case TE_EXP2:
    case TE_EXPM1:
    case TE_CBRT:
    case TE_SIN:
    case TE_COS:
    case TE_TAN:
    case TE_ATAN:
    case TE_SINH:
    case TE_COSH:
    case TE_TANH:
    case TE_ERF:
    case TE_ERFC:
    case TE_FABS:
    case TE_FLOOR:
    case TE_CEIL:
    case TE_TRUNC:
    case TE_ROUND:
    case TE_ATAN2:
    case TE_HYPOT:
    case TE_FMAX:
    case TE_FMIN:
    case TE_REDUCE:
    case TE_NUM_OPS:
      break;
    }
  for (int i = 0; i < 4; i++)
    {
      pts[i][0] = src[i][0];
      pts[i][1] = src[i][1];
    }
  return 4;
}

/* The exact value of the constant rounded to double that OP's rule
   contains, as the factor (rounded / exact) or its inverse by which the
   rule's derivative differs from the true one; 1 if none.  */
static void
constant_factor (te_op op, mpfr_t f)
{
  mpfr_t c;
  mpfr_init2 (c, PREC);
  mpfr_set_ui (f, 1, MPFR_RNDN);
  bool inverse = false;
  switch (op)
    {
    case TE_EXP2: /* 2^x ln2 */
    case TE_LOG2: /* 1 / (x ln2) */
      mpfr_const_log2 (c, MPFR_RNDN);
      inverse = op == TE_LOG2;
      break;
    case TE_LOG10:
      mpfr_log_ui (c, 10, MPFR_RNDN);
      inverse = true;
      break;
    case TE_ERF:
    case TE_ERFC: /* 2/sqrt(pi) exp(-x^2) */
      mpfr_const_pi (c, MPFR_RNDN);
      mpfr_rec_sqrt (c, c, MPFR_RNDN);
      mpfr_mul_ui (c, c, 2, MPFR_RNDN);
      break;
    default: /* every other operation: no constant */
      mpfr_clear (c);
      return;
    }
  mpfr_set_d (f, mpfr_get_d (c, MPFR_RNDN), MPFR_RNDN);
  if (inverse)
    mpfr_div (f, c, f, MPFR_RNDN);
  else
    mpfr_div (f, f, c, MPFR_RNDN);
  mpfr_clear (c);
}

/* A program out[0] = Y, out[1] = DX, out[2] = DZ (0 if NULL) of
   parameters x (type TX), z, out.  */
static te_program *
make_program (const char *name, te_type tx, te_node *(*build) (te_node *,
                                                               te_node *,
                                                               void *),
              void *data, te_node **y, te_node **dx, te_node **dz,
              double seed, te_diag *diag)
{
  te_program *p = te_program_new (ctx, name);
  int px = te_program_add_param (p, "x", TE_PK_FLOAT, tx, 0);
  int pz = te_program_add_param (p, "z", TE_PK_FLOAT, TE_F64, 0);
  int po = te_program_add_param (p, "out", TE_PK_PTR_FLOAT, TE_F64, 0);
  te_tensor *out = te_program_add_tensor (p, "out", TE_F64, TE_TK_PARAM, po, 0);
  te_node *x = te_param_ref (ctx, tx, px), *z = te_param_ref (ctx, TE_F64, pz);
  *y = build (x, z, data);
  te_node *s = te_float (ctx, (*y)->type, seed);
  *dx = *dz = NULL;
  if (te_type_is_float ((*y)->type))
    {
      for (int i = 0; i < te_op_arity ((*y)->op) && i < 3; i++)
        {
          te_node *c = NULL;
          if ((*y)->args[i] == x)
            c = *dx = deriv_adjoint (ctx, *y, i, s, diag);
          else if ((*y)->args[i] == z)
            c = *dz = deriv_adjoint (ctx, *y, i, s, diag);
          if (!c && (*y)->args[i] != NULL && te_type_is_float ((*y)->args[i]->type))
            return NULL;
        }
    }
  te_stage *st = te_program_add_stage (p, 0);
  te_stage_add_stmt (p, st, out, te_int (ctx, 0), TE_SET, *y, NULL, 0);
  te_stage_add_stmt (p, st, out, te_int (ctx, 1), TE_SET,
                     *dx ? *dx : te_float (ctx, TE_F64, 0), NULL, 0);
  te_stage_add_stmt (p, st, out, te_int (ctx, 2), TE_SET,
                     *dz ? *dz : te_float (ctx, TE_F64, 0), NULL, 0);
  return p;
}

/* Run P at x = X + SX h, z = Z + SZ h; out[K] into R.  */
static bool
run_at (te_program *p, mpfr_srcptr x, int sx, mpfr_srcptr z, int sz, int k,
        mpfr_ptr r)
{
  mp_env *env = mp_env_new (p, PREC);
  mpfr_ptr vx = mp_env_float (env, 0), vz = mp_env_float (env, 1);
  mpfr_set_si_2exp (vx, sx, H_EXP, MPFR_RNDN);
  mpfr_add (vx, vx, x, MPFR_RNDN);
  mpfr_set_si_2exp (vz, sz, H_EXP, MPFR_RNDN);
  mpfr_add (vz, vz, z, MPFR_RNDN);
  mpfr_t *out = mp_env_param_tensor (env, 2, 3);
  bool ok = mp_check_run (env, p);
  if (ok)
    mpfr_set (r, out[k], MPFR_RNDN);
  mp_env_free (env);
  return ok;
}

static te_node *
build_op (te_node *x, te_node *z, void *data)
{
  te_op op = *(te_op *) data;
  if (op == TE_CAST)
    return te_cast (ctx, x->type == TE_F64 ? TE_F32 : TE_F64, x);
  if (te_op_arity (op) == 1)
    return te_unary (ctx, op, x);
  return te_binary (ctx, op, x, z);
}

/* Check the adjoints of OP (x of type TX) against differences.  */
static void
check_smooth (te_op op, te_type tx)
{
  double pts[8][2];
  int np = points (op, pts);
  mpfr_t x, z, a, yp, ym, fd, factor;
  mpfr_inits2 (PREC, x, z, a, yp, ym, fd, factor, (mpfr_ptr) 0);
  constant_factor (op, factor);
  for (int si = 0; si < 2; si++)
    {
      double seed = si ? -0.75 : 1;
      te_node *y, *dx, *dz;
      te_diag diag = { 0 };
      te_program *p = make_program (te_op_name (op), tx, build_op, &op, &y,
                                    &dx, &dz, seed, &diag);
      if (!p)
        {
          CHECK (p != NULL);
          fprintf (stderr, "  %s: %s\n", te_op_name (op), diag.msg);
          break;
        }
      for (int i = 0; i < np; i++)
        for (int v = 0; v < (te_op_arity (op) == 2 ? 2 : 1); v++)
          {
            mpfr_set_d (x, pts[i][0], MPFR_RNDN);
            mpfr_set_d (z, pts[i][1], MPFR_RNDN);
            if (!run_at (p, x, 0, z, 0, 1 + v, a)
                || !run_at (p, x, v ? 0 : 1, z, v, 0, yp)
                || !run_at (p, x, v ? 0 : -1, z, -v, 0, ym))
              continue;
            mpfr_sub (fd, yp, ym, MPFR_RNDN);
            mpfr_mul_2si (fd, fd, -H_EXP - 1, MPFR_RNDN);
            mpfr_mul_d (fd, fd, seed, MPFR_RNDN);
            mpfr_mul (fd, fd, factor, MPFR_RNDN);
            mp_check_near (a, fd, TOL, "%s: d/d%s at (%g, %g), seed %g",
                           te_op_name (op), v ? "z" : "x", pts[i][0],
                           pts[i][1], seed);
          }
    }
  mpfr_clears (x, z, a, yp, ym, fd, factor, (mpfr_ptr) 0);
}

/* Every operation of TE_OPS with a floating result.  */
static void
check_all_ops (void)
{
  static const te_op ops[] = {
#define OP(name, str, arity) TE_##name,
    TE_OPS (OP)
#undef OP
  };
  int nrules = 0;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      te_op op = ops[i];
      int arity = te_op_arity (op);
      /* Leaves have no operand; select and reduce are checked apart.  */
      if (arity == 0 || op == TE_LOAD || op == TE_SELECT || op == TE_REDUCE)
        continue;
      te_node *x = te_param_ref (ctx, TE_F64, 0);
      te_node *y = build_op (x, te_param_ref (ctx, TE_F64, 1), &op);
      if (!te_type_is_float (y->type))
        {
          printf ("  %-6s not floating: no derivative needed\n",
                  te_op_name (op));
          continue;
        }
      te_diag diag = { 0 };
      te_node *d = deriv_adjoint (ctx, y, 0, te_float (ctx, TE_F64, 1), &diag);
      if (!d)
        {
          printf ("  %-6s no rule: %s\n", te_op_name (op), diag.msg);
          CHECK (op == TE_MOD); /* integers only */
          continue;
        }
      nrules++;
      printf ("  %-6s checked against differences\n", te_op_name (op));
      check_smooth (op, TE_F64);
      if (op == TE_CAST)
        check_smooth (op, TE_F32);
    }
  printf ("deriv-rules-1: %d rules checked\n", nrules);
}

/* ---- non-smooth points ------------------------------------------------- */

/* Check out[1] (d/dx) and out[2] (d/dz) of OP at (X, Z), exactly.  */
static void
check_point (te_op op, double x, double z, double want_dx, double want_dz)
{
  te_node *y, *dx, *dz;
  te_diag diag = { 0 };
  te_program *p = make_program (te_op_name (op), TE_F64, build_op, &op, &y,
                                &dx, &dz, 1, &diag);
  mpfr_t vx, vz, r;
  mpfr_inits2 (PREC, vx, vz, r, (mpfr_ptr) 0);
  mpfr_set_d (vx, x, MPFR_RNDN);
  mpfr_set_d (vz, z, MPFR_RNDN);
  if (p && run_at (p, vx, 0, vz, 0, 1, r))
    mp_check_exact (r, want_dx, "%s at (%g, %g): d/dx", te_op_name (op), x,
                    z);
  if (p && te_op_arity (op) == 2 && run_at (p, vx, 0, vz, 0, 2, r))
    mp_check_exact (r, want_dz, "%s at (%g, %g): d/dz", te_op_name (op), x,
                    z);
  CHECK (p != NULL);
  mpfr_clears (vx, vz, r, (mpfr_ptr) 0);
}

static te_node *
build_select (te_node *x, te_node *z, void *data)
{
  (void) data;
  /* x > z ? x : z, as relu-like kernels lift.  */
  return te_select (ctx, te_binary (ctx, TE_GT, x, z), x, z);
}

static void
check_select (double x, double z, double want_dx, double want_dz)
{
  te_node *y, *dx, *dz;
  te_diag diag = { 0 };
  te_program *p = make_program ("select", TE_F64, build_select, NULL, &y, &dx,
                                &dz, 1, &diag);
  mpfr_t vx, vz, r;
  mpfr_inits2 (PREC, vx, vz, r, (mpfr_ptr) 0);
  mpfr_set_d (vx, x, MPFR_RNDN);
  mpfr_set_d (vz, z, MPFR_RNDN);
  CHECK (p != NULL);
  if (p && run_at (p, vx, 0, vz, 0, 1, r))
    mp_check_exact (r, want_dx, "x > z ? x : z at (%g, %g): d/dx", x, z);
  if (p && run_at (p, vx, 0, vz, 0, 2, r))
    mp_check_exact (r, want_dz, "x > z ? x : z at (%g, %g): d/dz", x, z);
  mpfr_clears (vx, vz, r, (mpfr_ptr) 0);
}

static void
check_nonsmooth (void)
{
  printf ("non-smooth points\n");
  check_point (TE_FABS, 0.0, 0, 0, 0);
  check_point (TE_FABS, -0.0, 0, 0, 0);
  check_point (TE_FABS, -2.0, 0, -1, 0);
  te_op ties[] = { TE_MIN, TE_MAX, TE_FMIN, TE_FMAX };
  for (int i = 0; i < 4; i++)
    {
      check_point (ties[i], 1.5, 1.5, 1, 0); /* ties: the first operand */
      check_point (ties[i], -0.0, 0.0, 1, 0);
    }
  check_point (TE_FMAX, 1.5, NAN, 1, 0); /* the non-NaN operand */
  check_point (TE_FMAX, NAN, 1.5, 0, 1);
  check_point (TE_FMIN, 1.5, NAN, 1, 0);
  check_point (TE_FMIN, NAN, 1.5, 0, 1);
  te_op steps[] = { TE_FLOOR, TE_CEIL, TE_ROUND, TE_TRUNC };
  double at[] = { 2.0, 2.5, -2.5, 0.0, -0.7 };
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 5; k++)
      check_point (steps[i], at[k], 0, 0, 0);
  /* pow: d/dz = 0 for x <= 0; d/dx = z x^(z-1) still.  */
  check_point (TE_POW, 0.0, 2, 0, 0);
  check_point (TE_POW, -1.5, 3, 6.75, 0);
  check_point (TE_POW, -2.0, 2, -4, 0);
  check_point (TE_POW, 0.0, 1, 1, 0);
  check_select (2, 1, 1, 0);
  check_select (1, 2, 0, 1);
  check_select (1, 1, 0, 1); /* x > z false on a tie: z chosen */
}

/* min and max with a NaN operand: x <= z ? x : z picks z, so z gets the
   adjoint (its share is tested with the negated comparison).  */
static void
check_nan_min_max (void)
{
  te_op ops[] = { TE_MIN, TE_MAX };
  for (int i = 0; i < 2; i++)
    {
      te_node *y, *dx, *dz;
      te_diag diag = { 0 };
      te_op op = ops[i];
      te_program *p = make_program (te_op_name (op), TE_F64, build_op, &op,
                                    &y, &dx, &dz, 1, &diag);
      mpfr_t vx, vz, r;
      mpfr_inits2 (PREC, vx, vz, r, (mpfr_ptr) 0);
      mpfr_set_nan (vx);
      mpfr_set_d (vz, 1.5, MPFR_RNDN);
      if (p && run_at (p, vx, 0, vz, 0, 0, r))
        mp_check_exact (r, 1.5, "%s (NaN, 1.5)", te_op_name (op));
      if (p && run_at (p, vx, 0, vz, 0, 2, r))
        mp_check_exact (r, 1, "d/dz %s (NaN, 1.5)", te_op_name (op));
      mpfr_clears (vx, vz, r, (mpfr_ptr) 0);
    }
}

int
main (void)
{
  ctx = te_ctx_new ();
  check_all_ops ();
  check_nonsmooth ();
  check_nan_min_max ();
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

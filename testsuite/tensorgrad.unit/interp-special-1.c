/* { dg-do run } */
/* interp.c: special cases.

   Zero-trip and negative extents; a reversed stage; statements run one
   after another over the nest (not fused) or per iteration (fused);
   integer wrapping casts and C's truncating / and %; a select and &&
   evaluating only what they need (no out-of-bounds read); NULL nullable
   tensors (skipped store, skipped += of a vanishing value, zeros
   elsewhere); errors through te_diag: out of bounds, division by zero,
   missing parameter; NaN and infinities; MPFR's exponent range and flags
   as they were before mp_run.  */

#include "unit-test.h"

static te_ctx *ctx;

static te_node *
f64 (double v)
{
  return te_float (ctx, TE_F64, v);
}

/* A program: n (int), x (double *, 8 elements), y (double *), d (double *
   nullable).  */
typedef struct prog
{
  te_program *p;
  te_tensor *x, *y, *d;
  int i, j;
} prog;

static prog
new_prog (const char *name)
{
  prog g;
  g.p = te_program_new (ctx, name);
  te_program_add_param (g.p, "n", TE_PK_INT, TE_I64, 0);
  int px = te_program_add_param (g.p, "x", TE_PK_PTR_FLOAT, TE_F64, 0);
  int py = te_program_add_param (g.p, "y", TE_PK_PTR_FLOAT, TE_F64, 0);
  int pd = te_program_add_param (g.p, "d", TE_PK_PTR_FLOAT, TE_F64, 0);
  g.x = te_program_add_tensor (g.p, "x", TE_F64, TE_TK_PARAM, px, 0);
  g.y = te_program_add_tensor (g.p, "y", TE_F64, TE_TK_PARAM, py, 0);
  g.d = te_program_add_tensor (g.p, "d", TE_F64, TE_TK_PARAM, pd, 0);
  g.d->nullable = true;
  g.i = te_program_new_var (g.p, "i");
  g.j = te_program_new_var (g.p, "j");
  return g;
}

/* An environment for G with n = N, x[k] = k + 1, y = 0, d (8 elements
   = 100) unless NULL_D.  */
static mp_env *
new_env (prog *g, int64_t n, bool null_d)
{
  mp_env *env = mp_env_new (g->p, 0);
  mp_env_set_int (env, 0, n);
  mpfr_t *x = mp_env_tensor (env, g->x, 8);
  for (int k = 0; k < 8; k++)
    mpfr_set_si (x[k], k + 1, MPFR_RNDN);
  mp_env_tensor (env, g->y, 8);
  if (!null_d)
    {
      mpfr_t *d = mp_env_tensor (env, g->d, 8);
      for (int k = 0; k < 8; k++)
        mpfr_set_si (d[k], 100, MPFR_RNDN);
    }
  return env;
}

static mpfr_ptr
elem (mp_env *env, te_tensor *t, int k)
{
  return mp_env_tensor_get (env, t, NULL)[k];
}

static void
check_extents (void)
{
  printf ("zero-trip loops, reversed stages, statement order\n");
  prog g = new_prog ("extents");
  te_node *vi = te_var (ctx, g.i);
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s, g.i, te_param_ref (ctx, TE_I64, 0));
  te_stage_add_stmt (g.p, s, g.y, vi, TE_SET, f64 (7), NULL, 0);
  for (int n = 0; n >= -3; n -= 3)
    {
      mp_env *env = new_env (&g, n, false);
      if (mp_check_run (env, g.p))
        mp_check_exact (elem (env, g.y, 0), 0, "n = %d: nothing written", n);
      mp_env_free (env);
    }

  /* y[0] = y[0] * 10 + x[i]: the order of iterations shows in y[0].  */
  prog h = new_prog ("order");
  te_node *y0 = te_load (ctx, h.y, te_int (ctx, 0));
  vi = te_var (ctx, h.i);
  for (int rev = 0; rev < 2; rev++)
    {
      s = te_program_add_stage (h.p, 0);
      te_stage_add_loop (s, h.i, te_int (ctx, 3));
      s->reversed = rev;
      te_stage_add_stmt (h.p, s, h.y, te_int (ctx, 0), TE_SET,
                         te_add (ctx, te_mul (ctx, y0, f64 (10)),
                                 te_load (ctx, h.x, vi)),
                         NULL, 0);
    }
  mp_env *env = new_env (&h, 3, false);
  if (mp_check_run (env, h.p))
    mp_check_exact (elem (env, h.y, 0), 123321, "forwards then reversed");
  mp_env_free (env);

  /* Two statements: y[i] = x[i]; y[i+1] += 1000.  Not fused: the first
     over every i, then the second; fused: both in each iteration.  */
  for (int fused = 0; fused < 2; fused++)
    {
      prog f = new_prog ("fused");
      vi = te_var (ctx, f.i);
      s = te_program_add_stage (f.p, 0);
      te_stage_add_loop (s, f.i, te_int (ctx, 3));
      s->fused = fused;
      te_stage_add_stmt (f.p, s, f.y, vi, TE_SET, te_load (ctx, f.x, vi),
                         NULL, 0);
      te_stage_add_stmt (f.p, s, f.y, te_add (ctx, vi, te_int (ctx, 1)),
                         TE_ADD_TO, f64 (1000), NULL, 0);
      env = new_env (&f, 3, false);
      if (mp_check_run (env, f.p))
        {
          mp_check_exact (elem (env, f.y, 1), fused ? 2 : 1002,
                          "%s: y[1]", fused ? "fused" : "not fused");
          mp_check_exact (elem (env, f.y, 3), 1000, "y[3]");
        }
      mp_env_free (env);
    }
}

/* Evaluate integer expression E into y[0] (converted) and return it.  */
static double
int_value (te_node *e, bool *ok)
{
  prog g = new_prog ("int");
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_stmt (g.p, s, g.y, te_int (ctx, 0), TE_SET,
                     te_cast (ctx, TE_F64, e), NULL, 0);
  mp_env *env = new_env (&g, 5, false);
  *ok = mp_check_run (env, g.p);
  double v = mpfr_get_d (elem (env, g.y, 0), MPFR_RNDN);
  mp_env_free (env);
  return v;
}

static void
check_integers (void)
{
  printf ("integer casts and division\n");
  bool ok;
  te_node *n = te_param_ref (ctx, TE_I64, 0); /* 5: not folded */
  te_node *big = te_mul (ctx, n, te_int (ctx, 1000000000)); /* 5e9 */
  CHECK (int_value (te_cast (ctx, TE_I32, big), &ok) == (int32_t) 5000000000LL
         && ok);
  CHECK (int_value (te_cast (ctx, TE_U32, te_neg (ctx, n)), &ok)
             == 4294967291.0
         && ok);
  CHECK (int_value (te_div (ctx, te_neg (ctx, n), te_int (ctx, 2)), &ok) == -2
         && ok);
  CHECK (int_value (te_binary (ctx, TE_MOD, te_neg (ctx, n), te_int (ctx, 3)),
                    &ok)
             == -2
         && ok);
  CHECK (int_value (te_cast (ctx, TE_I64, te_cast (ctx, TE_F64, n)), &ok) == 5
         && ok);
  /* (int) -2.75 truncates.  */
  te_node *neg = te_sub (ctx, te_cast (ctx, TE_F64, n), f64 (7.75));
  CHECK (int_value (te_cast (ctx, TE_I32, neg), &ok) == -2 && ok);
}

static void
check_laziness (void)
{
  printf ("select and && evaluate only what they need\n");
  prog g = new_prog ("lazy");
  te_node *vi = te_var (ctx, g.i);
  te_node *next = te_add (ctx, vi, te_int (ctx, 1));
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s, g.i, te_int (ctx, 8));
  /* y[i] = i + 1 < 8 ? x[i + 1] : -1  (x[8] is out of bounds)  */
  te_stage_add_stmt (g.p, s, g.y, vi, TE_SET,
                     te_select (ctx, te_binary (ctx, TE_LT, next, te_int (ctx, 8)),
                                te_load (ctx, g.x, next), f64 (-1)),
                     NULL, 0);
  /* if (i + 1 < 8 && x[i + 1] > 4) y[i] += 0.5  */
  te_node *gd = te_binary (ctx, TE_AND,
                           te_binary (ctx, TE_LT, next, te_int (ctx, 8)),
                           te_binary (ctx, TE_GT, te_load (ctx, g.x, next),
                                      f64 (4)));
  te_stage_add_stmt (g.p, s, g.y, vi, TE_ADD_TO, f64 (0.5), gd, 0);
  mp_env *env = new_env (&g, 8, false);
  if (mp_check_run (env, g.p))
    {
      mp_check_exact (elem (env, g.y, 7), -1, "y[7]");
      mp_check_exact (elem (env, g.y, 2), 4, "y[2]");
      mp_check_exact (elem (env, g.y, 3), 5.5, "y[3]");
    }
  mp_env_free (env);
}

static void
check_null (void)
{
  printf ("NULL nullable tensors\n");
  prog g = new_prog ("null");
  te_node *vi = te_var (ctx, g.i), *di = te_load (ctx, g.d, vi);
  te_node *xi = te_load (ctx, g.x, vi);
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s, g.i, te_int (ctx, 8));
  /* d[i] = x[i]: skipped.  y[i] += d[i] * x[i]: vanishes, skipped.
     y[i] = d[i] + x[i]: d reads as zeros.  */
  te_stage_add_stmt (g.p, s, g.d, vi, TE_SET, xi, NULL, 0);
  te_stage_add_stmt (g.p, s, g.y, vi, TE_ADD_TO, te_mul (ctx, di, xi), NULL,
                     0);
  te_stage *s2 = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s2, g.i, te_int (ctx, 8));
  te_stage_add_stmt (g.p, s2, g.y, vi, TE_SET, te_add (ctx, di, xi), NULL, 0);
  for (int null_d = 0; null_d < 2; null_d++)
    {
      mp_env *env = new_env (&g, 8, null_d);
      if (mp_check_run (env, g.p))
        {
          mp_check_exact (elem (env, g.y, 2), null_d ? 3 : 6, "y[2], d %s",
                          null_d ? "NULL" : "given");
          CHECK (null_d == (mp_env_tensor_get (env, g.d, NULL) == NULL));
        }
      mp_env_free (env);
    }
}

/* Run G expecting failure with a message containing WANT.  */
static void
expect_error (prog *g, mp_env *env, te_diag_kind kind, const char *want)
{
  te_diag diag = { 0 };
  CHECK (!mp_run (env, g->p, &diag));
  CHECK (diag.kind == kind);
  if (!CHECK (strstr (diag.msg, want) != NULL))
    fprintf (stderr, "  message: %s\n", diag.msg);
  else
    printf ("  error as expected: %s\n", diag.msg);
}

static void
check_errors (void)
{
  printf ("errors\n");
  prog g = new_prog ("bounds");
  te_node *vi = te_var (ctx, g.i);
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s, g.i, te_param_ref (ctx, TE_I64, 0));
  te_stage_add_stmt (g.p, s, g.y, vi, TE_SET, te_load (ctx, g.x, vi), NULL, 0);
  mp_env *env = new_env (&g, 9, false);
  expect_error (&g, env, TE_DIAG_USER, "index 8 out of the bounds of 'x'");
  mp_env_free (env);

  env = mp_env_new (g.p, 0); /* no n */
  expect_error (&g, env, TE_DIAG_USER, "parameter 'n' has no value");
  mp_env_set_int (env, 0, 2);
  expect_error (&g, env, TE_DIAG_USER, "tensor 'x' has no elements");
  mp_env_free (env);

  prog h = new_prog ("div0");
  s = te_program_add_stage (h.p, 0);
  te_stage_add_stmt (h.p, s, h.y, te_int (ctx, 0), TE_SET,
                     te_cast (ctx, TE_F64,
                              te_div (ctx, te_int (ctx, 1),
                                      te_sub (ctx, te_param_ref (ctx, TE_I64, 0),
                                              te_int (ctx, 5)))),
                     NULL, 0);
  env = new_env (&h, 5, false);
  expect_error (&h, env, TE_DIAG_USER, "divides by zero");
  mp_env_free (env);
}

static void
check_specials (void)
{
  printf ("NaN, infinities, MPFR state\n");
  prog g = new_prog ("special");
  te_node *vi = te_var (ctx, g.i), *xi = te_load (ctx, g.x, vi);
  te_stage *s = te_program_add_stage (g.p, 0);
  te_stage_add_loop (s, g.i, te_int (ctx, 4));
  te_stage_add_stmt (g.p, s, g.y, vi, TE_SET,
                     te_binary (ctx, TE_FMAX, te_unary (ctx, TE_LOG, xi),
                                f64 (-1)),
                     NULL, 0);
  te_stage_add_stmt (g.p, s, g.y, te_add (ctx, vi, te_int (ctx, 4)), TE_SET,
                     te_binary (ctx, TE_MAX, xi, f64 (0)), NULL, 0);
  mp_env *env = new_env (&g, 4, false);
  mpfr_t *x = mp_env_tensor_get (env, g.x, NULL);
  mpfr_set_nan (x[0]);
  mpfr_set_zero (x[1], 1);
  mpfr_set_si (x[2], -1, MPFR_RNDN);
  mpfr_set_inf (x[3], 1);
  mpfr_set_emin (-5000);
  mpfr_set_emax (5000);
  mpfr_clear_flags ();
  mpfr_set_inexflag ();
  if (mp_check_run (env, g.p))
    {
      mp_check_exact (elem (env, g.y, 0), -1, "fmax (log NaN, -1)");
      mp_check_exact (elem (env, g.y, 1), -1, "fmax (log 0, -1)");
      mp_check_exact (elem (env, g.y, 2), -1, "fmax (log -1, -1)");
      mp_check_exact (elem (env, g.y, 3), INFINITY, "fmax (log inf, -1)");
      mp_check_exact (elem (env, g.y, 4), 0, "max (NaN, 0)");
      mp_check_exact (elem (env, g.y, 7), INFINITY, "max (inf, 0)");
    }
  CHECK (mpfr_get_emin () == -5000 && mpfr_get_emax () == 5000);
  CHECK (mpfr_flags_save () == MPFR_FLAGS_INEXACT);
  mpfr_set_emin (1 - (1L << 30)); /* MPFR's defaults again */
  mpfr_set_emax ((1L << 30) - 1);
  mp_env_free (env);
}

int
main (void)
{
  ctx = te_ctx_new ();
  check_extents ();
  check_integers ();
  check_laziness ();
  check_null ();
  check_errors ();
  check_specials ();
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

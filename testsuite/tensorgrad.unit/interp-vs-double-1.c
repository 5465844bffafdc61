/* { dg-do run } */
/* { dg-options "-ffp-contract=off" } */
/* interp.c against C arithmetic.

   Programs built by hand -- an elementwise stage with exp, tanh and pow;
   a two-loop stage with a guarded store and a +=; reductions (sum, max,
   min, product, a triangular sum whose inner extent is the outer
   counter); a float stage whose results underflow to subnormals and
   overflow -- run by the interpreter with rounding to the C types must
   give, bit for bit, what the same computation written in C gives.  At
   256 bits without rounding, the double results must be within 1e-15
   relative of C's.

   glibc's exp, tanh and pow are not correctly rounded everywhere and the
   interpreter's are (MPFR): the C reference calls libm and, where libm's
   result is not the correctly rounded one, says so and uses the
   correctly rounded value, so that the comparison is of the arithmetic
   around the calls.  -ffp-contract=off keeps GCC from fusing a*b+c.  */

#include "unit-test.h"

#define N 5
#define M 7

static te_ctx *ctx;
static int libm_off;

/* F (X [, Y]) of libm, or the correctly rounded value where libm's
   differs (reported).  */
static double
cr (const char *name, double libm, int (*f1) (mpfr_ptr, mpfr_srcptr,
                                               mpfr_rnd_t),
    int (*f2) (mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), double x,
    double y)
{
  mpfr_t t, a, b;
  mpfr_inits2 (53, t, a, b, (mpfr_ptr) 0);
  mpfr_set_d (a, x, MPFR_RNDN);
  mpfr_set_d (b, y, MPFR_RNDN);
  if (f1)
    f1 (t, a, MPFR_RNDN);
  else
    f2 (t, a, b, MPFR_RNDN);
  double r = mpfr_get_d (t, MPFR_RNDN);
  mpfr_clears (t, a, b, (mpfr_ptr) 0);
  if (r != libm)
    {
      libm_off++;
      if (f2)
        printf ("  note: libm %s (%a, %a) = %a, correctly rounded %a\n",
                name, x, y, libm, r);
      else
        printf ("  note: libm %s (%a) = %a, correctly rounded %a\n", name,
                x, libm, r);
    }
  return r;
}

static double
c_exp (double x)
{
  return cr ("exp", exp (x), mpfr_exp, NULL, x, 0);
}

static double
c_tanh (double x)
{
  return cr ("tanh", tanh (x), mpfr_tanh, NULL, x, 0);
}

static double
c_pow (double x, double y)
{
  return cr ("pow", pow (x, y), NULL, mpfr_pow, x, y);
}

static te_node *
f64 (double v)
{
  return te_float (ctx, TE_F64, v);
}

static te_node *
load (te_tensor *t, te_node *i)
{
  return te_load (ctx, t, i);
}

/* Compare the K doubles of tensor T in ENV with WANT: bitwise when EXACT,
   else within 1e-15 relative.  */
static void
compare (mp_env *env, te_tensor *t, const double *want, int k, bool exact)
{
  size_t n;
  mpfr_t *v = mp_env_tensor_get (env, t, &n);
  CHECK (v && n == (size_t) k);
  if (!v)
    return;
  mpfr_t w;
  mpfr_init2 (w, 53);
  for (int i = 0; i < k; i++)
    {
      mpfr_set_d (w, want[i], MPFR_RNDN);
      if (!exact)
        {
          mp_check_near (v[i], w, 1e-15, "%s[%d] at 256 bits", t->name, i);
          continue;
        }
      double got = mpfr_get_d (v[i], MPFR_RNDN);
      tg_checks++;
      if (mpfr_cmp_d (v[i], got) != 0 || memcmp (&got, &want[i], sizeof got))
        {
          tg_report_failure ();
          mpfr_fprintf (stderr, "FAIL: %s[%d] = %Ra, C gives %a\n", t->name,
                        i, v[i], want[i]);
        }
    }
  mpfr_clear (w);
}

/* The environment of P at PREC bits, rounding when ROUND, with integer
   parameters 0 and 1 (when they are) N and M.  */
static mp_env *
env_for (te_program *p, long prec, bool round)
{
  mp_env *env = mp_env_new (p, prec);
  mp_env_set_round_to_type (env, round);
  mp_env_set_int (env, 0, N);
  if (p->nparams > 1 && p->params[1].kind == TE_PK_INT)
    mp_env_set_int (env, 1, M);
  return env;
}

static void
fill (mpfr_t *t, const double *v, int k)
{
  for (int i = 0; i < k; i++)
    mpfr_set_d (t[i], v[i], MPFR_RNDN);
}

/* ---- elementwise: y[i] = exp (x[i] * 0.5) + tanh (x[i]) * pow (x[i], a) / 3 */

static void
check_elementwise (void)
{
  printf ("elementwise exp, tanh, pow\n");
  te_program *p = te_program_new (ctx, "elementwise");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  int px = te_program_add_param (p, "x", TE_PK_PTR_FLOAT, TE_F64, 0);
  int py = te_program_add_param (p, "y", TE_PK_PTR_FLOAT, TE_F64, 0);
  te_tensor *x = te_program_add_tensor (p, "x", TE_F64, TE_TK_PARAM, px, 0);
  te_tensor *y = te_program_add_tensor (p, "y", TE_F64, TE_TK_PARAM, py, 0);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_node *xi = load (x, te_var (ctx, i));
  te_node *a = te_param_ref (ctx, TE_F64, pa);
  te_node *e = te_add (
      ctx, te_unary (ctx, TE_EXP, te_mul (ctx, xi, f64 (0.5))),
      te_div (ctx,
              te_mul (ctx, te_unary (ctx, TE_TANH, xi),
                      te_binary (ctx, TE_POW, xi, a)),
              f64 (3)));
  te_stage_add_stmt (p, s, y, te_var (ctx, i), TE_SET, e, NULL, 0);

  double xv[N], yv[N], av = 1.7;
  tg_fill (xv, N, 1, 0.2, 3);
  for (int k = 0; k < N; k++)
    yv[k] = c_exp (xv[k] * 0.5) + c_tanh (xv[k]) * c_pow (xv[k], av) / 3;
  for (int round = 1; round >= 0; round--)
    {
      mp_env *env = env_for (p, round ? 53 : 256, round);
      mp_env_set_float (env, pa, av);
      fill (mp_env_tensor (env, x, N), xv, N);
      mp_env_tensor (env, y, N);
      if (mp_check_run (env, p))
        compare (env, y, yv, N, round);
      mp_env_free (env);
    }
}

/* ---- two loops, a guard:
   for i < n, j < m:
     if (x[i*m+j] > b[j] && j != 0) z[i*m+j] = x[i*m+j] * b[j] + 1.25;
     w[i*m+j] += x[i*m+j] * x[i*m+j] / b[j];  */

static void
check_guarded (void)
{
  printf ("two loops, guarded store and +=\n");
  te_program *p = te_program_new (ctx, "guarded");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0);
  int px = te_program_add_param (p, "x", TE_PK_PTR_FLOAT, TE_F64, 0);
  int pb = te_program_add_param (p, "b", TE_PK_PTR_FLOAT, TE_F64, 0);
  int pz = te_program_add_param (p, "z", TE_PK_PTR_FLOAT, TE_F64, 0);
  int pw = te_program_add_param (p, "w", TE_PK_PTR_FLOAT, TE_F64, 0);
  te_tensor *x = te_program_add_tensor (p, "x", TE_F64, TE_TK_PARAM, px, 0);
  te_tensor *b = te_program_add_tensor (p, "b", TE_F64, TE_TK_PARAM, pb, 0);
  te_tensor *z = te_program_add_tensor (p, "z", TE_F64, TE_TK_PARAM, pz, 0);
  te_tensor *w = te_program_add_tensor (p, "w", TE_F64, TE_TK_PARAM, pw, 0);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  te_stage *s = te_program_add_stage (p, 0);
  te_node *m = te_param_ref (ctx, TE_I64, pm);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_stage_add_loop (s, j, m);
  te_node *vi = te_var (ctx, i), *vj = te_var (ctx, j);
  te_node *ij = te_add (ctx, te_mul (ctx, vi, m), vj);
  te_node *xij = load (x, ij), *bj = load (b, vj);
  te_node *g = te_binary (ctx, TE_AND, te_binary (ctx, TE_GT, xij, bj),
                          te_binary (ctx, TE_NE, vj, te_int (ctx, 0)));
  te_stage_add_stmt (p, s, z, ij, TE_SET,
                     te_add (ctx, te_mul (ctx, xij, bj), f64 (1.25)), g, 0);
  te_stage_add_stmt (p, s, w, ij, TE_ADD_TO,
                     te_div (ctx, te_mul (ctx, xij, xij), bj), NULL, 0);

  double xv[N * M], bv[M], zv[N * M], wv[N * M], z0[N * M], w0[N * M];
  tg_fill (xv, N * M, 2, 0.1, 2);
  tg_fill (bv, M, 3, 0.5, 1.5);
  tg_fill (z0, N * M, 4, -1, 1);
  tg_fill (w0, N * M, 5, -1, 1);
  memcpy (zv, z0, sizeof zv);
  memcpy (wv, w0, sizeof wv);
  int taken = 0;
  for (int ii = 0; ii < N; ii++)
    for (int jj = 0; jj < M; jj++)
      {
        if (xv[ii * M + jj] > bv[jj] && jj != 0)
          {
            zv[ii * M + jj] = xv[ii * M + jj] * bv[jj] + 1.25;
            taken++;
          }
        wv[ii * M + jj] += xv[ii * M + jj] * xv[ii * M + jj] / bv[jj];
      }
  printf ("  guard true in %d of %d iterations\n", taken, N * M);
  CHECK (taken > 0 && taken < N * M);
  for (int round = 1; round >= 0; round--)
    {
      mp_env *env = env_for (p, round ? 53 : 256, round);
      fill (mp_env_tensor (env, x, N * M), xv, N * M);
      fill (mp_env_tensor (env, b, M), bv, M);
      fill (mp_env_tensor (env, z, N * M), z0, N * M);
      fill (mp_env_tensor (env, w, N * M), w0, N * M);
      if (mp_check_run (env, p))
        {
          compare (env, z, zv, N * M, round);
          compare (env, w, wv, N * M, round);
        }
      mp_env_free (env);
    }
}

/* ---- reductions, for i < n:
     s[i] = sum (j < m; 0; x[i*m+j] * x[i*m+j])
     mx[i] = max (j < m; x[i*m]; x[i*m+j]),  mn[i] likewise with min
     pr[i] = prod (j < m; 1; 1 + x[i*m+j] / 8)
     t[i] = sum (j < m, k < j + 1; 1; x[i*m+j] * x[i*m+k])  */

static void
check_reduce (void)
{
  printf ("reductions: sum, max, min, product, triangular sum\n");
  te_program *p = te_program_new (ctx, "reduce");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0);
  const char *names[] = { "x", "s", "mx", "mn", "pr", "t" };
  te_tensor *t[6];
  for (int k = 0; k < 6; k++)
    t[k] = te_program_add_tensor (
        p, names[k], TE_F64, TE_TK_PARAM,
        te_program_add_param (p, names[k], TE_PK_PTR_FLOAT, TE_F64, 0), 0);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  int k = te_program_new_var (p, "k");
  te_node *m = te_param_ref (ctx, TE_I64, pm);
  te_node *vi = te_var (ctx, i), *vj = te_var (ctx, j), *vk = te_var (ctx, k);
  te_node *row = te_mul (ctx, vi, m);
  te_node *xij = load (t[0], te_add (ctx, row, vj));
  te_node *xik = load (t[0], te_add (ctx, row, vk));
  te_loop lj = { j, m };
  te_loop ljk[2] = { { j, m }, { k, te_add (ctx, vj, te_int (ctx, 1)) } };
  te_node *e[5] = {
    te_reduce_node (ctx, TE_RED_SUM, 1, &lj, f64 (0), te_mul (ctx, xij, xij)),
    te_reduce_node (ctx, TE_RED_MAX, 1, &lj, load (t[0], row), xij),
    te_reduce_node (ctx, TE_RED_MIN, 1, &lj, load (t[0], row), xij),
    te_reduce_node (ctx, TE_RED_PROD, 1, &lj, f64 (1),
                    te_add (ctx, f64 (1), te_div (ctx, xij, f64 (8)))),
    te_reduce_node (ctx, TE_RED_SUM, 2, ljk, f64 (1), te_mul (ctx, xij, xik)),
  };
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  for (int r = 0; r < 5; r++)
    te_stage_add_stmt (p, s, t[r + 1], vi, TE_SET, e[r], NULL, 0);

  double xv[N * M], want[5][N];
  tg_fill (xv, N * M, 6, -2, 2);
  for (int ii = 0; ii < N; ii++)
    {
      const double *xr = xv + ii * M;
      double sum = 0, mx = xr[0], mn = xr[0], pr = 1, tri = 1;
      for (int jj = 0; jj < M; jj++)
        {
          sum = sum + xr[jj] * xr[jj];
          mx = xr[jj] > mx ? xr[jj] : mx;
          mn = xr[jj] < mn ? xr[jj] : mn;
          pr = pr * (1 + xr[jj] / 8);
          for (int kk = 0; kk < jj + 1; kk++)
            tri = tri + xr[jj] * xr[kk];
        }
      want[0][ii] = sum;
      want[1][ii] = mx;
      want[2][ii] = mn;
      want[3][ii] = pr;
      want[4][ii] = tri;
    }
  for (int round = 1; round >= 0; round--)
    {
      mp_env *env = env_for (p, round ? 53 : 256, round);
      fill (mp_env_tensor (env, t[0], N * M), xv, N * M);
      for (int r = 1; r < 6; r++)
        mp_env_tensor (env, t[r], N);
      if (mp_check_run (env, p))
        for (int r = 0; r < 5; r++)
          compare (env, t[r + 1], want[r], N, round);
      mp_env_free (env);
    }
}

/* ---- float arithmetic, subnormals and overflow, rounding only:
     y[i] = sqrt (x[i]) / 3 + x[i]                       (float)
     u[i] = (x[i] * 0x1p-100f) * (x[i] * 0x1p-30f)      (float subnormal)
     o[i] = (x[i] * 0x1p100f) * 0x1p30f                 (float overflow)
     d[i] = ((double) x[i] * 0x1p-1000) * 0x1p-60       (double subnormal) */

static void
check_float (void)
{
  printf ("float arithmetic, subnormals, overflow\n");
  te_program *p = te_program_new (ctx, "float");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  const char *names[] = { "x", "y", "u", "o", "d" };
  te_tensor *t[5];
  for (int k = 0; k < 5; k++)
    {
      te_type ty = k == 4 ? TE_F64 : TE_F32;
      t[k] = te_program_add_tensor (
          p, names[k], ty, TE_TK_PARAM,
          te_program_add_param (p, names[k], TE_PK_PTR_FLOAT, ty, 0), 0);
    }
  int i = te_program_new_var (p, "i");
  te_node *vi = te_var (ctx, i), *xi = load (t[0], vi);
#define F32(v) te_float (ctx, TE_F32, v)
  te_node *e[4] = {
    te_add (ctx, te_div (ctx, te_unary (ctx, TE_SQRT, xi), F32 (3)), xi),
    te_mul (ctx, te_mul (ctx, xi, F32 (0x1p-100)), te_mul (ctx, xi, F32 (0x1p-30))),
    te_mul (ctx, te_mul (ctx, xi, F32 (0x1p100)), F32 (0x1p30)),
    te_mul (ctx, te_mul (ctx, te_cast (ctx, TE_F64, xi), f64 (0x1p-1000)),
            f64 (0x1p-60)),
  };
#undef F32
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  for (int r = 0; r < 4; r++)
    te_stage_add_stmt (p, s, t[r + 1], vi, TE_SET, e[r], NULL, 0);

  float xv[N];
  double want[4][N];
  tg_fill_f (xv, N, 7, 0.3, 3);
  xv[N - 1] = 0x1.fffffep-1f; /* subnormal products that round up */
  for (int k = 0; k < N; k++)
    {
      volatile float x = xv[k];
      want[0][k] = (float) (sqrtf (x) / 3.0f + x);
      want[1][k] = (float) ((x * 0x1p-100f) * (x * 0x1p-30f));
      want[2][k] = (float) ((x * 0x1p100f) * 0x1p30f);
      want[3][k] = ((double) x * 0x1p-1000) * 0x1p-60;
      CHECK_AT (want[1][k] != 0 && fabs (want[1][k]) < 0x1p-126, k);
      CHECK_AT (isinf (want[2][k]), k);
      CHECK_AT (want[3][k] != 0 && fabs (want[3][k]) < 0x1p-1022, k);
    }
  mp_env *env = env_for (p, 53, true);
  mpfr_t *x = mp_env_tensor (env, t[0], N);
  for (int k = 0; k < N; k++)
    mpfr_set_flt (x[k], xv[k], MPFR_RNDN);
  for (int r = 1; r < 5; r++)
    mp_env_tensor (env, t[r], N);
  if (mp_check_run (env, p))
    for (int r = 0; r < 4; r++)
      compare (env, t[r + 1], want[r], N, true);
  mp_env_free (env);
}

int
main (void)
{
  ctx = te_ctx_new ();
  check_elementwise ();
  check_guarded ();
  check_reduce ();
  check_float ();
  printf ("libm results replaced by correctly rounded ones: %d\n", libm_off);
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

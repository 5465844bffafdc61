/* { dg-do run } */
/* gather.c: the additions one iteration of a stage makes to one element
   become one statement, when the statements between allow it.

   In a fused stage over i < n, with d an adjoint, t a temporary and a,
   b arrays read:
     up:     d[0] += a[i]; e[i] += b[i]; d[0] += b[i]
             -> d[0] += a[i] + b[i] at the first (the later moves up);
     down:   d[0] += a[i]; t[i] = b[i] * 2; d[0] += t[i]
             -> the later reads t, written between: the first moves down,
             t[i] = ...; d[0] += a[i] + t[i];
     both:   d[0] += t[i]; t[i] = b[i] * 2; d[0] += t[i]
             -> neither moves past the write of t: unchanged;
     reads:  d[0] += a[i]; e[i] += d[0]; d[0] += b[i]  -> unchanged;
     set:    d[0] += a[i]; d[1] = b[i]; d[0] += b[i]   -> unchanged (a
             store to d between);
     apart:  d[0] += a[i]; d[1] += b[i]; d[0] += b[i]  -> d[0]'s two as one,
             d[1]'s statement between kept;
     index:  d[2*i] += a[i]; d[i + i] += b[i]          -> one (same
             canonical index).
   The MPFR interpreter runs each program before and after the pass on
   the same inputs: the results are equal.  */

#include "unit-test.h"

#include <string.h>

static te_ctx *ctx;
static int pn, pa, pb, pd, pe;
static te_tensor *a, *b, *d, *e, *t;
static int vi;

static te_program *
program (te_stage **sp)
{
  ctx = te_ctx_new ();
  te_program *p = te_program_new (ctx, "k_grad");
  pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  pa = te_program_add_param (p, "a", TE_PK_PTR_FLOAT, TE_F64, 0);
  pb = te_program_add_param (p, "b", TE_PK_PTR_FLOAT, TE_F64, 0);
  pd = te_program_add_param (p, "d", TE_PK_PTR_FLOAT, TE_F64, 0);
  pe = te_program_add_param (p, "e", TE_PK_PTR_FLOAT, TE_F64, 0);
  a = te_program_add_tensor (p, "a", TE_F64, TE_TK_PARAM, pa, 0);
  b = te_program_add_tensor (p, "b", TE_F64, TE_TK_PARAM, pb, 0);
  d = te_program_add_tensor (p, "d", TE_F64, TE_TK_PARAM, pd, 0);
  e = te_program_add_tensor (p, "e", TE_F64, TE_TK_PARAM, pe, 0);
  t = te_program_add_tensor (p, "t", TE_F64, TE_TK_LOCAL, -1, 0);
  t->size = te_param_ref (ctx, TE_I64, pn);
  vi = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, vi, te_param_ref (ctx, TE_I64, pn));
  s->fused = true;
  *sp = s;
  return p;
}

static te_node *
at (te_tensor *x, te_node *index)
{
  return te_load (ctx, x, index);
}

static void
add (te_program *p, te_stage *s, te_tensor *x, te_node *index, te_store op,
     te_node *v)
{
  te_stage_add_stmt (p, s, x, index, op, v, NULL, 0);
}

/* A case adds its statements to stage S of P; WANT, when not NULL,
   builds the value the statement adding to d[0] has after the pass.  */
typedef void build_fn (te_program *p, te_stage *s);
typedef te_node *want_fn (void);

/* Run the program CASE builds, before the pass (R 0) or after (R 1), on
   fixed inputs; D and E get d's and e's elements.  */
static void
run (build_fn *build, bool pass, int *nstmts, bool *found, want_fn *want,
     double *dv, double *ev)
{
  const int n = 5;
  te_stage *s;
  te_program *p = program (&s);
  build (p, s);
  if (pass)
    {
      te_diag diag;
      memset (&diag, 0, sizeof diag);
      CHECK (te_program_gather (p, &diag));
      s = &p->stages[0];
      *nstmts = s->nstmts;
      *found = false;
      te_node *v = want ? want () : NULL;
      for (int k = 0; k < s->nstmts; k++)
        if (s->stmts[k].dst == d && s->stmts[k].value == v)
          *found = true;
    }
  mp_env *env = mp_env_new (p, 64);
  CHECK (mp_env_set_int (env, pn, n));
  mpfr_t *va = mp_env_param_tensor (env, pa, n);
  mpfr_t *vb = mp_env_param_tensor (env, pb, n);
  mpfr_t *vd = mp_env_param_tensor (env, pd, 2 * n);
  mpfr_t *ve = mp_env_param_tensor (env, pe, n);
  for (int k = 0; k < n; k++)
    {
      mpfr_set_d (va[k], 0.25 * k + 0.5, MPFR_RNDN);
      mpfr_set_d (vb[k], 1.5 - 0.5 * k, MPFR_RNDN);
      mpfr_set_d (ve[k], 0.125 * k, MPFR_RNDN);
    }
  for (int k = 0; k < 2 * n; k++)
    mpfr_set_d (vd[k], 0.5 * k, MPFR_RNDN);
  CHECK (mp_check_run (env, p));
  for (int k = 0; k < 2 * n; k++)
    dv[k] = mpfr_get_d (vd[k], MPFR_RNDN);
  for (int k = 0; k < n; k++)
    ev[k] = mpfr_get_d (ve[k], MPFR_RNDN);
  mp_env_free (env);
  te_ctx_free (ctx);
}

/* The pass leaves NSTMTS statements, one of them d[0] += WANT's value,
   and the same results as the program before it.  */
static void
expect (const char *what, build_fn *build, int nstmts, want_fn *want)
{
  double d0[10], e0[5], d1[10], e1[5];
  int got = -1;
  bool found = false;
  run (build, false, &got, &found, want, d0, e0);
  run (build, true, &got, &found, want, d1, e1);
  if (got != nstmts)
    fprintf (stderr, "%s: %d statements, want %d\n", what, got, nstmts);
  CHECK (got == nstmts);
  if (want && !found)
    fprintf (stderr, "%s: no statement adds the gathered value\n", what);
  CHECK (!want || found);
  CHECK (!memcmp (d0, d1, sizeof d0) && !memcmp (e0, e1, sizeof e0));
}

#define I te_var (ctx, vi)
#define ZERO te_int (ctx, 0)
#define ONE te_int (ctx, 1)
#define TWICE(x) te_mul (ctx, x, te_float (ctx, TE_F64, 2))

static void
b_up (te_program *p, te_stage *s)
{
  add (p, s, d, ZERO, TE_ADD_TO, at (a, I));
  add (p, s, e, I, TE_ADD_TO, at (b, I));
  add (p, s, d, ZERO, TE_ADD_TO, at (b, I));
}

static te_node *
w_ab (void)
{
  return te_add (ctx, at (a, I), at (b, I));
}

static void
b_down (te_program *p, te_stage *s)
{
  add (p, s, d, ZERO, TE_ADD_TO, at (a, I));
  add (p, s, t, I, TE_SET, TWICE (at (b, I)));
  add (p, s, d, ZERO, TE_ADD_TO, at (t, I));
}

static te_node *
w_at (void)
{
  return te_add (ctx, at (a, I), at (t, I));
}

static void
b_both (te_program *p, te_stage *s)
{
  add (p, s, t, I, TE_SET, at (a, I));
  add (p, s, d, ZERO, TE_ADD_TO, at (t, I));
  add (p, s, t, I, TE_SET, TWICE (at (b, I)));
  add (p, s, d, ZERO, TE_ADD_TO, at (t, I));
}

static void
b_reads (te_program *p, te_stage *s)
{
  add (p, s, d, ZERO, TE_ADD_TO, at (a, I));
  add (p, s, e, I, TE_ADD_TO, at (d, ZERO));
  add (p, s, d, ZERO, TE_ADD_TO, at (b, I));
}

static void
b_set (te_program *p, te_stage *s)
{
  add (p, s, d, ZERO, TE_ADD_TO, at (a, I));
  add (p, s, d, ONE, TE_SET, at (b, I));
  add (p, s, d, ZERO, TE_ADD_TO, at (b, I));
}

static void
b_apart (te_program *p, te_stage *s)
{
  add (p, s, d, ZERO, TE_ADD_TO, at (a, I));
  add (p, s, d, ONE, TE_ADD_TO, at (b, I));
  add (p, s, d, ZERO, TE_ADD_TO, at (b, I));
}

static void
b_index (te_program *p, te_stage *s)
{
  add (p, s, d, te_mul (ctx, te_int (ctx, 2), I), TE_ADD_TO, at (a, I));
  add (p, s, d, te_add (ctx, I, I), TE_ADD_TO, at (b, I));
}

int
main (void)
{
  expect ("up", b_up, 2, w_ab);
  expect ("down", b_down, 2, w_at);
  expect ("both", b_both, 4, NULL);
  expect ("reads", b_reads, 3, NULL);
  expect ("set", b_set, 3, NULL);
  expect ("apart", b_apart, 2, w_ab);
  expect ("index", b_index, 1, w_ab);
  return tg_exit ();
}

/* { dg-do run } */
/* ad.c: backward programs against central differences, all in MPFR.

   Small forward programs built by hand go through te_program_roles and
   ad_reverse; the interpreter runs the forward, then the backward with
   the shadows set as DESIGN.md section 2 says (output and in-out shadows
   hold the weights C of the loss L = sum C[k] y[k] (+ c_ret * return),
   input shadows a known prefill the gradient must add to).  Every shadow
   is then compared with the central difference of L, h = 2^-60, at 256
   bits: an input's shadow minus its prefill and an in-out's shadow (the
   adjoint of its entry value) equal dL/d(entry value) within 1e-30 (of
   max (1, |dL|)); an output's shadow is unchanged; the backward writes
   nothing but the shadows.  Each case runs with all shadows and again
   with each shadow NULL: an output or in-out shadow that is NULL has
   adjoint zero, a NULL input shadow gets nothing and the others are
   unaffected.

     elementwise   y[i] = a * x[i] + sin (x[i])
     broadcast     y[i*m + j] = x[i*m + j] * b[j]
     axpy          y[i] = a * x[i] + y[i]          (y in-out)
     straight      return x[0] * x[1] + exp (a)    (no loop)  */

#include "unit-test.h"

#define PREC 256
#define H_EXP (-60)
#define TOL 1e-30
#define MAXP 8

static te_ctx *ctx;

typedef struct kase
{
  const char *name;
  te_program *fwd, *bwd;
  int64_t ints[MAXP]; /* integer parameters */
  size_t size[MAXP];  /* elements of each pointer parameter */
  mpfr_t *val[MAXP];  /* entry values of pointer and float parameters */
  double *c[MAXP];    /* weights of the loss, outputs and in-outs */
  double c_ret;
  bool null[MAXP + 1]; /* shadow of parameter q (MAXP: d_return) NULL */
} kase;

static te_role
role_of (const kase *k, int q)
{
  te_tensor *t = k->fwd->params[q].tensor;
  return t ? t->role : TE_ROLE_UNUSED;
}

/* Does the loss weigh the final values of parameter Q?  */
static bool
weighed (const kase *k, int q)
{
  te_role r = role_of (k, q);
  return k->fwd->params[q].kind == TE_PK_PTR_FLOAT
         && (r == TE_ROLE_OUTPUT || r == TE_ROLE_INOUT);
}

/* An environment of P holding K's entry values.  */
static mp_env *
entry_env (const kase *k, te_program *p)
{
  mp_env *env = mp_env_new (p, PREC);
  for (int q = 0; q < k->fwd->nparams; q++)
    switch (k->fwd->params[q].kind)
      {
      case TE_PK_INT:
        mp_env_set_int (env, q, k->ints[q]);
        break;
      case TE_PK_FLOAT:
        mp_env_set_mpfr (env, q, k->val[q][0]);
        break;
      case TE_PK_PTR_FLOAT:
      case TE_PK_PTR_INT:
        if (k->fwd->params[q].tensor)
          {
            mpfr_t *d = mp_env_param_tensor (env, q, k->size[q]);
            for (size_t e = 0; e < k->size[q]; e++)
              mpfr_set (d[e], k->val[q][e], MPFR_RNDN);
          }
        break;
      }
  return env;
}

/* L of the forward on K's entry values, into L.  */
static bool
loss (const kase *k, mpfr_ptr l)
{
  mp_env *env = entry_env (k, k->fwd);
  bool ok = mp_check_run (env, k->fwd);
  mpfr_set_zero (l, 1);
  mpfr_t t;
  mpfr_init2 (t, PREC);
  for (int q = 0; ok && q < k->fwd->nparams; q++)
    if (weighed (k, q) && !k->null[q])
      {
        mpfr_t *d = mp_env_tensor_get (env, k->fwd->params[q].tensor, NULL);
        for (size_t e = 0; e < k->size[q]; e++)
          {
            mpfr_mul_d (t, d[e], k->c[q][e], MPFR_RNDN);
            mpfr_add (l, l, t, MPFR_RNDN);
          }
      }
  if (ok && k->fwd->ret && !k->null[MAXP])
    {
      mpfr_t *d = mp_env_tensor_get (env, k->fwd->ret, NULL);
      mpfr_mul_d (t, d[0], k->c_ret, MPFR_RNDN);
      mpfr_add (l, l, t, MPFR_RNDN);
    }
  mpfr_clear (t);
  mp_env_free (env);
  return ok;
}

/* dL/d(entry value V) by central differences, into D.  */
static bool
difference (const kase *k, mpfr_ptr v, mpfr_ptr d)
{
  mpfr_t v0, lp, lm;
  mpfr_inits2 (PREC, v0, lp, lm, (mpfr_ptr) 0);
  mpfr_set (v0, v, MPFR_RNDN);
  mpfr_set_si_2exp (lp, 1, H_EXP, MPFR_RNDN);
  mpfr_add (v, v0, lp, MPFR_RNDN);
  bool ok = loss (k, lp);
  mpfr_set_si_2exp (lm, 1, H_EXP, MPFR_RNDN);
  mpfr_sub (v, v0, lm, MPFR_RNDN);
  ok = ok && loss (k, lm);
  mpfr_set (v, v0, MPFR_RNDN);
  mpfr_sub (d, lp, lm, MPFR_RNDN);
  mpfr_mul_2si (d, d, -H_EXP - 1, MPFR_RNDN);
  mpfr_clears (v0, lp, lm, (mpfr_ptr) 0);
  return ok;
}

/* |GOT - WANT| <= TOL max (1, |WANT|).  */
static void
check_grad (mpfr_srcptr got, mpfr_srcptr want, const char *what, size_t e)
{
  mpfr_t d;
  mpfr_init2 (d, 64);
  mpfr_sub (d, got, want, MPFR_RNDN);
  double err = fabs (mpfr_get_d (d, MPFR_RNDU));
  double scale = fabs (mpfr_get_d (want, MPFR_RNDN));
  mpfr_clear (d);
  tg_checks++;
  if (err <= TOL * (scale > 1 ? scale : 1))
    return;
  tg_report_failure ();
  mpfr_fprintf (stderr, "FAIL: %s[%zu] = %.25Rg, finite difference %.25Rg\n",
                what, e, got, want);
}

/* The prefill of input shadows: a value the gradient must add to.  */
static double
prefill (int q, size_t e)
{
  return 0.25 * (q + 1) - 0.125 * (double) e;
}

/* Run K's forward and backward with the shadows K->null says; check every
   shadow.  */
static void
check_variant (kase *k)
{
  te_program *f = k->fwd, *b = k->bwd;
  mp_env *env = entry_env (k, b);
  if (!mp_check_run (env, f))
    {
      mp_env_free (env);
      return;
    }
  /* The forward's results, to see that the backward leaves them.  */
  mpfr_t *after[MAXP] = { 0 };
  for (int q = 0; q < f->nparams; q++)
    if (f->params[q].tensor && f->params[q].kind == TE_PK_PTR_FLOAT)
      {
        mpfr_t *d = mp_env_tensor_get (env, f->params[q].tensor, NULL);
        after[q] = malloc (k->size[q] * sizeof (mpfr_t));
        for (size_t e = 0; e < k->size[q]; e++)
          {
            mpfr_init2 (after[q][e], PREC);
            mpfr_set (after[q][e], d[e], MPFR_RNDN);
          }
      }
  for (int q = 0; q < f->nparams; q++)
    {
      int s = f->params[q].shadow;
      if (s < 0 || k->null[q])
        continue;
      size_t n = f->params[q].kind == TE_PK_FLOAT ? 1 : k->size[q];
      mpfr_t *d = mp_env_param_tensor (env, s, n);
      for (size_t e = 0; e < n; e++)
        mpfr_set_d (d[e], weighed (k, q) ? k->c[q][e] : prefill (q, e),
                    MPFR_RNDN);
    }
  if (f->ret)
    mp_env_set_float (env, b->nparams - 1, k->null[MAXP] ? 0 : k->c_ret);
  if (mp_check_run (env, b))
    {
      mpfr_t fd, g;
      mpfr_inits2 (PREC, fd, g, (mpfr_ptr) 0);
      for (int q = 0; q < f->nparams; q++)
        {
          int s = f->params[q].shadow;
          te_param *par = &f->params[q];
          if (after[q])
            {
              mpfr_t *d = mp_env_tensor_get (env, par->tensor, NULL);
              for (size_t e = 0; e < k->size[q]; e++)
                CHECK_AT (mpfr_equal_p (d[e], after[q][e]), e);
            }
          if (s < 0 || k->null[q])
            continue;
          size_t n = par->kind == TE_PK_FLOAT ? 1 : k->size[q];
          mpfr_t *d = mp_env_tensor_get (env, b->params[s].tensor, NULL);
          char what[64];
          snprintf (what, sizeof what, "%s: d_%s", k->name, par->name);
          for (size_t e = 0; e < n; e++)
            {
              if (role_of (k, q) == TE_ROLE_OUTPUT)
                {
                  mp_check_exact (d[e], k->c[q][e], "%s[%zu] unchanged",
                                  what, e);
                  continue;
                }
              if (!difference (k, k->val[q][e], fd))
                continue;
              mpfr_set (g, d[e], MPFR_RNDN);
              if (role_of (k, q) != TE_ROLE_INOUT)
                mpfr_sub_d (g, g, prefill (q, e), MPFR_RNDN);
              check_grad (g, fd, what, e);
            }
        }
      mpfr_clears (fd, g, (mpfr_ptr) 0);
    }
  for (int q = 0; q < f->nparams; q++)
    if (after[q])
      {
        for (size_t e = 0; e < k->size[q]; e++)
          mpfr_clear (after[q][e]);
        free (after[q]);
      }
  mp_env_free (env);
}

/* Roles, reverse, entry values and weights for K; then every variant.  */
static void
check_case (kase *k)
{
  te_diag diag = { 0 };
  printf ("%s\n", k->name);
  if (!te_program_roles (k->fwd, &diag)
      || !(k->bwd = ad_reverse (k->fwd, false, &diag)))
    {
      CHECK (!"roles and reverse succeed");
      fprintf (stderr, "  %s: %s\n", k->name, diag.msg);
      return;
    }
  te_program *f = k->fwd;
  for (int q = 0; q < f->nparams; q++)
    {
      te_param *par = &f->params[q];
      size_t n = par->kind == TE_PK_FLOAT ? 1 : k->size[q];
      if (par->kind == TE_PK_INT || (par->kind != TE_PK_FLOAT && !par->tensor))
        continue;
      double v[64], c[64];
      tg_fill (v, (int) n, 10 + q, -1.5, 1.5);
      tg_fill (c, (int) n, 20 + q, -1, 1);
      k->val[q] = malloc (n * sizeof (mpfr_t));
      k->c[q] = malloc (n * sizeof (double));
      for (size_t e = 0; e < n; e++)
        {
          mpfr_init2 (k->val[q][e], PREC);
          mpfr_set_d (k->val[q][e], v[e], MPFR_RNDN);
          k->c[q][e] = c[e];
        }
    }
  k->c_ret = 0.625;
  /* All shadows, then each shadow NULL in turn.  */
  check_variant (k);
  for (int q = 0; q <= MAXP; q++)
    {
      bool has = q == MAXP ? f->ret != NULL
                           : q < f->nparams && f->params[q].shadow >= 0;
      if (!has)
        continue;
      printf ("  with d_%s NULL\n", q == MAXP ? "return" : f->params[q].name);
      k->null[q] = true;
      check_variant (k);
      k->null[q] = false;
    }
  for (int q = 0; q < f->nparams; q++)
    if (k->val[q])
      {
        size_t n = f->params[q].kind == TE_PK_FLOAT ? 1 : k->size[q];
        for (size_t e = 0; e < n; e++)
          mpfr_clear (k->val[q][e]);
        free (k->val[q]);
        free (k->c[q]);
      }
}

/* ---- the forward programs ---------------------------------------------- */

static te_tensor *
ptr_param (te_program *p, const char *name, int *q)
{
  *q = te_program_add_param (p, name, TE_PK_PTR_FLOAT, TE_F64, 0);
  return te_program_add_tensor (p, name, TE_F64, TE_TK_PARAM, *q, 0);
}

/* y[i] = a * x[i] + sin (x[i]), or with INOUT: y[i] = a * x[i] + y[i].  */
static void
check_axpy_like (bool inout)
{
  kase k = { inout ? "axpy (y in-out)" : "elementwise" };
  te_program *p = k.fwd = te_program_new (ctx, inout ? "axpy" : "elem");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  int px, py;
  te_tensor *x = ptr_param (p, "x", &px), *y = ptr_param (p, "y", &py);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_node *vi = te_var (ctx, i), *xi = te_load (ctx, x, vi);
  te_node *ax = te_mul (ctx, te_param_ref (ctx, TE_F64, pa), xi);
  te_node *e = te_add (ctx, ax, inout ? te_load (ctx, y, vi)
                                       : te_unary (ctx, TE_SIN, xi));
  te_stage_add_stmt (p, s, y, vi, TE_SET, e, NULL, 0);
  k.ints[pn] = 6;
  k.size[px] = k.size[py] = 6;
  check_case (&k);
  CHECK (x->role == TE_ROLE_INPUT);
  CHECK (y->role == (inout ? TE_ROLE_INOUT : TE_ROLE_OUTPUT));
}

/* y[i*m + j] = x[i*m + j] * b[j]  */
static void
check_broadcast (void)
{
  kase k = { "broadcast" };
  te_program *p = k.fwd = te_program_new (ctx, "broadcast");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0);
  int px, pb, py;
  te_tensor *x = ptr_param (p, "x", &px), *b = ptr_param (p, "b", &pb);
  te_tensor *y = ptr_param (p, "y", &py);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  te_node *m = te_param_ref (ctx, TE_I64, pm);
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_stage_add_loop (s, j, m);
  te_node *ij = te_add (ctx, te_mul (ctx, te_var (ctx, i), m), te_var (ctx, j));
  te_stage_add_stmt (p, s, y, ij, TE_SET,
                     te_mul (ctx, te_load (ctx, x, ij),
                             te_load (ctx, b, te_var (ctx, j))),
                     NULL, 0);
  k.ints[pn] = 3;
  k.ints[pm] = 4;
  k.size[px] = k.size[py] = 12;
  k.size[pb] = 4;
  check_case (&k);
}

/* double f (const double *x, double a) { return x[0] * x[1] + exp (a); } */
static void
check_straight (void)
{
  kase k = { "straight-line return" };
  te_program *p = k.fwd = te_program_new (ctx, "straight");
  int px;
  te_tensor *x = ptr_param (p, "x", &px);
  int pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  p->ret_type = TE_F64;
  p->ret = te_program_add_tensor (p, "return", TE_F64, TE_TK_RETURN, -1, 0);
  te_stage *s = te_program_add_stage (p, 0);
  te_node *e = te_add (ctx,
                       te_mul (ctx, te_load (ctx, x, te_int (ctx, 0)),
                               te_load (ctx, x, te_int (ctx, 1))),
                       te_unary (ctx, TE_EXP, te_param_ref (ctx, TE_F64, pa)));
  te_stage_add_stmt (p, s, p->ret, te_int (ctx, 0), TE_SET, e, NULL, 0);
  k.size[px] = 2;
  check_case (&k);
  CHECK (p->ret->shadow && p->ret->shadow->kind == TE_TK_SCALAR);
}

int
main (void)
{
  ctx = te_ctx_new ();
  check_axpy_like (false);
  check_broadcast ();
  check_axpy_like (true);
  check_straight ();
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

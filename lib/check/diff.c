/* diff.c -- steps 4 and 5 of the gradient check (gradient.c): the gradient
   the backward program computes, and the finite differences it is
   compared with.

   Before:  stage 0: for i < n:  y[i] = x[i] * x[i],  weights c of y
   After:   grad of x: 2 c_i x_i from the backward; diff of x: the
            extrapolated central differences of L = sum c_i y_i.

   4. One environment serves both programs (the backward's parameters
      are the forward's followed by the shadows): the forward runs, the
      shadows are seeded (outputs and in-outs with their weights, inputs
      with 0, d_return with the return's weight), the backward runs.
   5. Each element v of each checked parameter is moved by +-h and +-h/2
      (h = 2^(e - CK_H_BITS), e the exponent of v, at least -3) and the
      forward rerun from the entry values; R = (4 D(h/2) - D(h)) / 3.  */

#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* Step 4: run the forward and the backward; copy the gradient of every
   checked parameter into its GRAD.  False when that fails (refused, or
   CK_NO_EVAL).  */
bool
ck_run_backward (ck_state *ck)
{
  const te_program *p = ck->fwd, *b = ck->bwd;
  mp_env *env = mp_env_new (b, CK_PREC);
  memset (&ck->diag, 0, sizeof ck->diag);
  bool ok = (env && ck_load_env (ck, env)) || ck_refuse_run (ck);
  if (ok && !mp_run (env, p, &ck->diag))
    ok = ck_refuse_run (ck);
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      int s = p->params[q].shadow;
      if (s < 0 || (!cp->fd && !cp->weighed))
        continue;
      mpfr_t *d = mp_env_param_tensor (env, s, cp->n);
      ok = d != NULL || ck_refuse_run (ck);
      for (int64_t e = 0; ok && e < cp->n; e++)
        mpfr_set_d (d[e], cp->weighed ? cp->c[e] : 0, MPFR_RNDN);
    }
  if (ok && p->ret)
    mp_env_set_float (env, b->nparams - 1, ck->c_ret);
  if (ok && !mp_run (env, b, &ck->diag))
    {
      ck->res->status = CK_NO_EVAL;
      ck->res->diag = ck->diag;
      ok = false;
    }
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      if (!cp->fd)
        continue;
      mpfr_t *d = mp_env_tensor_get (env, b->params[p->params[q].shadow].tensor,
                                     NULL);
      cp->grad = ck_alloc (ck, cp->n, sizeof *cp->grad);
      ok = cp->grad != NULL;
      for (int64_t e = 0; ok && e < cp->n; e++)
        {
          mpfr_init2 (cp->grad[e], CK_PREC);
          mpfr_set (cp->grad[e], d[e], MPFR_RNDN);
        }
    }
  mp_env_free (env);
  return ok;
}

/* L at the entry values, with forward environment ENV, into L.  */
static bool
eval_loss (ck_state *ck, mp_env *env, mpfr_ptr l)
{
  memset (&ck->diag, 0, sizeof ck->diag);
  if (!ck_load_env (ck, env) || !mp_run (env, ck->fwd, &ck->diag))
    return false;
  ck_loss (ck, env, l);
  return true;
}

/* The central difference of L in V with step 2^HEXP, into D.  */
static bool
central (ck_state *ck, mp_env *env, mpfr_ptr v, long hexp, mpfr_ptr d)
{
  mpfr_t v0, lm;
  mpfr_inits2 (CK_PREC, v0, lm, (mpfr_ptr) 0);
  mpfr_set (v0, v, MPFR_RNDN);
  mpfr_set_si_2exp (lm, 1, hexp, MPFR_RNDN);
  mpfr_add (v, v0, lm, MPFR_RNDN);
  bool ok = eval_loss (ck, env, d);
  mpfr_set_si_2exp (lm, 1, hexp, MPFR_RNDN);
  mpfr_sub (v, v0, lm, MPFR_RNDN);
  ok = ok && eval_loss (ck, env, lm);
  mpfr_set (v, v0, MPFR_RNDN);
  mpfr_sub (d, d, lm, MPFR_RNDN);
  mpfr_mul_2si (d, d, -hexp - 1, MPFR_RNDN);
  mpfr_clears (v0, lm, (mpfr_ptr) 0);
  return ok;
}

/* Step 5: dL/dV by Richardson-extrapolated central differences, into R.  */
static bool
difference (ck_state *ck, mp_env *env, mpfr_ptr v, mpfr_ptr r)
{
  long e = mpfr_zero_p (v) ? -3 : (long) mpfr_get_exp (v);
  long hexp = (e > -3 ? e : -3) - CK_H_BITS;
  mpfr_t half;
  mpfr_init2 (half, CK_PREC);
  bool ok = central (ck, env, v, hexp, r) && central (ck, env, v, hexp - 1, half);
  /* R = (4 D(h/2) - D(h)) / 3  */
  mpfr_mul_2si (half, half, 2, MPFR_RNDN);
  mpfr_sub (r, half, r, MPFR_RNDN);
  mpfr_div_ui (r, r, 3, MPFR_RNDN);
  mpfr_clear (half);
  return ok;
}

/* Step 5 for every checked element.  */
bool
ck_run_differences (ck_state *ck)
{
  const te_program *p = ck->fwd;
  mp_env *env = mp_env_new (p, CK_PREC);
  bool ok = env != NULL;
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      if (!cp->fd)
        continue;
      cp->diff = ck_alloc (ck, cp->n, sizeof *cp->diff);
      if (!cp->diff)
        break;
      for (int64_t e = 0; e < cp->n; e++)
        mpfr_init2 (cp->diff[e], CK_PREC);
      for (int64_t e = 0; ok && e < cp->n; e++)
        ok = difference (ck, env, cp->entry[e], cp->diff[e]);
    }
  if (!ok)
    ck_refuse_run (ck);
  mp_env_free (env);
  return ok && !ck->res->why[0];
}

/* values.c -- step 3 of the check (check.h): the values of the inputs
   and the weights of the loss, loaded into an interpreter environment.  */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* ---- 3. values ---------------------------------------------------------- */

/* A pseudo-random number in [0, 1) for element E of stream S.  */
static double
ck_random (uint64_t s, uint64_t e)
{
  uint64_t x = s * 0x9e3779b97f4a7c15ull + e * 0xbf58476d1ce4e5b9ull + 1;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return (double) (x >> 11) * 0x1p-53;
}

/* The role of parameter Q's tensor.  */
static te_role
ck_role (const ck_state *ck, int q)
{
  const te_tensor *t = ck->fwd->params[q].tensor;
  return t ? t->role : TE_ROLE_UNUSED;
}

/* Step 3: which parameters are checked and weighed; entry values (in
   [1/8, 1], negated at random unless CK->positive) and weights.  */
bool
ck_choose_values (ck_state *ck)
{
  const te_program *p = ck->fwd;
  for (int q = 0; q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      te_param_kind kind = p->params[q].kind;
      te_role role = ck_role (ck, q);
      if (kind == TE_PK_FLOAT)
        cp->n = 1;
      if (kind == TE_PK_INT || kind == TE_PK_PTR_INT
          || (kind == TE_PK_PTR_FLOAT && !p->params[q].tensor))
        continue;
      cp->weighed = kind == TE_PK_PTR_FLOAT
                    && (role == TE_ROLE_OUTPUT || role == TE_ROLE_INOUT);
      cp->fd = p->params[q].shadow >= 0 && role != TE_ROLE_OUTPUT
               && (kind == TE_PK_FLOAT || role != TE_ROLE_UNUSED);
      if (!cp->entry)
        {
          cp->entry = ck_alloc (ck, cp->n, sizeof *cp->entry);
          if (!cp->entry)
            return false;
          for (int64_t e = 0; e < cp->n; e++)
            mpfr_init2 (cp->entry[e], CK_PREC);
        }
      for (int64_t e = 0; e < cp->n; e++)
        {
          double u = 0.125 + 0.875 * ck_random (2 * q, e);
          if (!ck->positive && ck_random (2 * q + 1, e) < 0.5)
            u = -u;
          mpfr_set_d (cp->entry[e], role == TE_ROLE_OUTPUT ? 0 : u,
                      MPFR_RNDN);
        }
      if (cp->weighed && !cp->c)
        {
          cp->c = ck_alloc (ck, cp->n, sizeof *cp->c);
          if (!cp->c)
            return false;
          for (int64_t e = 0; e < cp->n; e++)
            cp->c[e] = 2 * ck_random (1000 + q, e) - 1;
        }
    }
  ck->c_ret = 2 * ck_random (999, 0) - 1;
  return true;
}

/* Give ENV the entry values of every forward parameter.  */
bool
ck_load_env (ck_state *ck, mp_env *env)
{
  const te_program *p = ck->fwd;
  for (int q = 0; q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      switch (p->params[q].kind)
        {
        case TE_PK_INT:
          mp_env_set_int (env, q, ck->ints[q]);
          break;
        case TE_PK_FLOAT:
          mp_env_set_mpfr (env, q, cp->entry[0]);
          break;
        case TE_PK_PTR_INT:
        case TE_PK_PTR_FLOAT:
          if (p->params[q].tensor)
            {
              mpfr_t *d = mp_env_param_tensor (env, q, cp->n);
              if (!d)
                return false;
              for (int64_t e = 0; e < cp->n; e++)
                if (cp->idx)
                  mpfr_set_si (d[e], cp->idx[e], MPFR_RNDN);
                else
                  mpfr_set (d[e], cp->entry[e], MPFR_RNDN);
            }
          break;
        }
    }
  return true;
}

/* After a forward run in ENV: the loss, into L.  False when a result is
   not finite.  */
bool
ck_loss (ck_state *ck, mp_env *env, mpfr_ptr l)
{
  const te_program *p = ck->fwd;
  bool finite = true;
  mpfr_t t;
  mpfr_init2 (t, CK_PREC);
  mpfr_set_zero (l, 1);
  for (int q = 0; q < p->nparams; q++)
    if (ck->par[q].weighed)
      {
        mpfr_t *d = mp_env_tensor_get (env, p->params[q].tensor, NULL);
        for (int64_t e = 0; d && e < ck->par[q].n; e++)
          {
            finite &= mpfr_number_p (d[e]) != 0;
            mpfr_mul_d (t, d[e], ck->par[q].c[e], MPFR_RNDN);
            mpfr_add (l, l, t, MPFR_RNDN);
          }
      }
  if (p->ret)
    {
      mpfr_t *d = mp_env_tensor_get (env, p->ret, NULL);
      finite &= d && mpfr_number_p (d[0]);
      if (d)
        {
          mpfr_mul_d (t, d[0], ck->c_ret, MPFR_RNDN);
          mpfr_add (l, l, t, MPFR_RNDN);
        }
    }
  mpfr_clear (t);
  return finite;
}

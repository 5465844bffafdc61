/* interp-env.c -- the interpreter's environments (interp.h): the values
   of the scalar parameters, the elements of the tensors, and the reads a
   run makes of them, bounds-checked.

   Before:  mp_env_set_int (env, 0, 2);  x = mp_env_param_tensor (env, 1, 2);
            then a statement reads x[i + 1] with i = 1
   After:   mp_run fails: "interpreter: index 2 out of the bounds of 'x'
            (2 elements)"

   1. Scalar parameters are kept by parameter number: an int64_t for an
      integer, an mpfr_t of the environment's precision for a floating
      one; a read of one that was never given a value is an error.
   2. A tensor's elements are an array of mpfr_t that the environment
      allocates, as +0, when asked for a size (64 bits at least for an
      integer tensor, so that every int64_t is exact), found again by
      te_tensor.
   3. A run reads a parameter, or an element at an index it checks
      against the size, into a node's slot; a nullable tensor without
      elements (a NULL shadow) reads as zeros.

   Limits: tensors are found by a linear search, which is fast for the
   few tensors of one kernel.  */

#include <stdlib.h>

#include "back/interp-env.h"

/* ---- environments ------------------------------------------------------ */

mp_env *
mp_env_new (const te_program *p, long prec)
{
  mp_env *env = calloc (1, sizeof *env);
  if (!env)
    return NULL;
  env->prog = p;
  env->prec = prec <= 0 ? MP_DEFAULT_PREC : prec < 53 ? 53 : prec;
  if (env->prec > MPFR_PREC_MAX)
    env->prec = MPFR_PREC_MAX;
  env->nparams = p->nparams;
  env->params = calloc (p->nparams ? p->nparams : 1, sizeof *env->params);
  if (!env->params)
    {
      free (env);
      return NULL;
    }
  for (int i = 0; i < p->nparams; i++)
    if (p->params[i].kind == TE_PK_FLOAT)
      {
        env->params[i].is_float = true;
        mpfr_init2 (env->params[i].f, env->prec);
        mpfr_set_zero (env->params[i].f, 1);
      }
  return env;
}

static void
free_data (mpfr_t *data, size_t n)
{
  for (size_t i = 0; i < n; i++)
    mpfr_clear (data[i]);
  free (data);
}

void
mp_env_free (mp_env *env)
{
  if (!env)
    return;
  for (int i = 0; i < env->nparams; i++)
    if (env->params[i].is_float)
      mpfr_clear (env->params[i].f);
  free (env->params);
  for (int i = 0; i < env->nstores; i++)
    free_data (env->stores[i].data, env->stores[i].n);
  free (env->stores);
  free (env);
}

mpfr_prec_t
mp_env_prec (const mp_env *env)
{
  return env->prec;
}

void
mp_env_set_round_to_type (mp_env *env, bool on)
{
  env->round = on;
}

static param_val *
scalar_param (mp_env *env, int param, bool is_float)
{
  if (param < 0 || param >= env->nparams)
    return NULL;
  te_param_kind k = env->prog->params[param].kind;
  if (is_float ? k != TE_PK_FLOAT : k != TE_PK_INT)
    return NULL;
  return &env->params[param];
}

bool
mp_env_set_int (mp_env *env, int param, int64_t v)
{
  param_val *q = scalar_param (env, param, false);
  if (!q)
    return false;
  q->i = v;
  q->has = true;
  return true;
}

mpfr_ptr
mp_env_float (mp_env *env, int param)
{
  param_val *q = scalar_param (env, param, true);
  if (!q)
    return NULL;
  q->has = true;
  return q->f;
}

bool
mp_env_set_float (mp_env *env, int param, double v)
{
  mpfr_ptr f = mp_env_float (env, param);
  if (f)
    mpfr_set_d (f, v, MPFR_RNDN);
  return f != NULL;
}

bool
mp_env_set_mpfr (mp_env *env, int param, mpfr_srcptr v)
{
  mpfr_ptr f = mp_env_float (env, param);
  if (f)
    mpfr_set (f, v, MPFR_RNDN);
  return f != NULL;
}

storage *
ip_find_storage (const mp_env *env, const te_tensor *t)
{
  for (int i = 0; i < env->nstores; i++)
    if (env->stores[i].t == t)
      return &env->stores[i];
  return NULL;
}

/* The precision of T's elements: integers need 64 bits.  */
static mpfr_prec_t
elem_prec (const mp_env *env, const te_tensor *t)
{
  return te_type_is_float (t->type) || env->prec >= 64 ? env->prec : 64;
}

mpfr_t *
mp_env_tensor (mp_env *env, const te_tensor *t, size_t n)
{
  if (!t || t->kind == TE_TK_SCALAR)
    return NULL;
  storage *s = ip_find_storage (env, t);
  if (s && s->n == n && s->data)
    return s->data;
  mpfr_t *data = malloc ((n ? n : 1) * sizeof *data);
  if (!data)
    return NULL;
  for (size_t i = 0; i < n; i++)
    {
      mpfr_init2 (data[i], elem_prec (env, t));
      mpfr_set_zero (data[i], 1);
    }
  if (!s)
    {
      if (env->nstores == env->capstores)
        {
          int cap = env->capstores ? env->capstores * 2 : 8;
          storage *st = realloc (env->stores, cap * sizeof *st);
          if (!st)
            {
              free_data (data, n);
              return NULL;
            }
          env->stores = st;
          env->capstores = cap;
        }
      s = &env->stores[env->nstores++];
      s->t = t;
    }
  else
    free_data (s->data, s->n);
  s->n = n;
  s->data = data;
  return data;
}

mpfr_t *
mp_env_param_tensor (mp_env *env, int param, size_t n)
{
  const te_program *p = env->prog;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_PARAM && p->tensors[i]->param == param)
      return mp_env_tensor (env, p->tensors[i], n);
  return NULL;
}

mpfr_t *
mp_env_tensor_get (const mp_env *env, const te_tensor *t, size_t *n)
{
  storage *s = ip_find_storage (env, t);
  if (n)
    *n = s ? s->n : 0;
  return s ? s->data : NULL;
}

void
mp_env_tensor_drop (mp_env *env, const te_tensor *t)
{
  storage *s = ip_find_storage (env, t);
  if (!s)
    return;
  free_data (s->data, s->n);
  *s = env->stores[--env->nstores];
}

/* ---- tensors ----------------------------------------------------------- */

/* Element IDX of T: in *E, or NULL in *E for a NULL nullable tensor.  */
bool
ip_element (run *r, const te_tensor *t, int64_t idx, mpfr_ptr *e)
{
  storage *s = ip_find_storage (r->env, t);
  *e = NULL;
  if (!s)
    return t->nullable
           || ip_fail (r, TE_DIAG_USER, "tensor '%s' has no elements",
                       t->name);
  if (idx < 0 || (uint64_t) idx >= s->n)
    return ip_fail (r, TE_DIAG_USER, "index %lld out of the bounds of '%s' "
                    "(%zu elements)", (long long) idx, t->name, s->n);
  *e = s->data[idx];
  return true;
}

/* The value of parameter Q read by node N, into F (floating N) or *IV.  */
bool
ip_param_value (run *r, const te_node *n, int q, mpfr_ptr f, int64_t *iv,
                int *inex)
{
  if (q < 0 || q >= r->p->nparams)
    return ip_fail (r, TE_DIAG_INTERNAL, "no parameter number %d", q);
  const param_val *v = &r->env->params[q];
  const char *name = r->p->params[q].name;
  te_param_kind k = r->p->params[q].kind;
  if (k != TE_PK_INT && k != TE_PK_FLOAT)
    return ip_fail (r, TE_DIAG_INTERNAL, "pointer parameter '%s' read as a "
                    "value", name);
  if (!v->has)
    return ip_fail (r, TE_DIAG_USER, "parameter '%s' has no value", name);
  if (!te_type_is_float (n->type))
    {
      if (v->is_float)
        return ip_fail (r, TE_DIAG_INTERNAL, "floating parameter '%s' read as "
                        "an integer", name);
      *iv = v->i;
      return true;
    }
  *inex = v->is_float ? mpfr_set (f, v->f, MPFR_RNDN)
                      : mpfr_set_sj (f, v->i, MPFR_RNDN);
  return true;
}

/* Load node N into F (floating) or *IV.  */
bool
ip_load (run *r, const te_node *n, mpfr_ptr f, int64_t *iv, int *inex)
{
  const te_tensor *t = n->u.tensor;
  if (t->kind == TE_TK_SCALAR)
    return ip_param_value (r, n, t->param, f, iv, inex);
  if (!ip_eval_args (r, n, false))
    return false;
  mpfr_ptr e;
  if (!ip_element (r, t, I (n->args[0]), &e))
    return false;
  if (te_type_is_float (n->type))
    {
      if (e)
        *inex = mpfr_set (f, e, MPFR_RNDN);
      else
        mpfr_set_zero (f, 1);
      return true;
    }
  *iv = 0;
  if (!e)
    return true;
  if (!mpfr_integer_p (e) || !mpfr_fits_intmax_p (e, MPFR_RNDZ))
    return ip_fail (r, TE_DIAG_USER, "element %lld of integer array '%s' is not an "
                    "integer", (long long) I (n->args[0]), t->name);
  *iv = mpfr_get_sj (e, MPFR_RNDZ);
  return true;
}

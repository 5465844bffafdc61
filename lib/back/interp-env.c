/* interp-env.c -- the interpreter's memory (interp.h): environments,
   that is the values of the scalar parameters and the elements of the
   tensors, and the slots of a run.

   Before:  mp_env_set_int (env, 0, 2);  x = mp_env_param_tensor (env, 1, 2);
   After:   parameter 0 holds 2; x's storage two elements, +0, which the
            caller fills and interp.c's reads find with ip_find_storage

   1. Scalar parameters are kept by parameter number: an int64_t for an
      integer, an mpfr_t of the environment's precision for a floating
      one, with whether the caller gave a value.
   2. A tensor's elements are an array of mpfr_t that the environment
      allocates, as +0, when asked for a size (64 bits at least for an
      integer tensor, so that every int64_t is exact), found again by
      te_tensor.
   3. A run gets a slot for every node id and a place for every counter
      number of its program (te_walk over the program), freed after it.

   It never evaluates: the reads a run makes of an environment, checked,
   are interp.c's.

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

/* ---- the memory of a run ---------------------------------------------- */

typedef struct extent_query
{
  int max_id, max_var;
} extent_query;

static void
extent_fn (te_node *n, void *data)
{
  extent_query *q = data;
  if (n->id > q->max_id)
    q->max_id = n->id;
  if (n->op == TE_VAR && n->u.index > q->max_var)
    q->max_var = n->u.index;
  if (n->op == TE_REDUCE)
    for (int i = 0; i < n->u.red.nloops; i++)
      if (n->u.red.loops[i].var > q->max_var)
        q->max_var = n->u.red.loops[i].var;
}

/* The slots and counters of R for P, zeroed: every node id and counter
   number P uses has one.  False when memory runs out.  */
bool
ip_run_alloc (run *r, const te_program *p)
{
  extent_query q = { -1, p->nvars - 1 };
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->size)
      te_walk (p->tensors[i]->size, extent_fn, &q);
  for (int i = 0; i < p->nrequires; i++)
    te_walk (p->requires[i].gap, extent_fn, &q);
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nloops; k++)
        {
          te_walk (st->loops[k].extent, extent_fn, &q);
          if (st->loops[k].start)
            te_walk (st->loops[k].start, extent_fn, &q);
          if (st->loops[k].var > q.max_var)
            q.max_var = st->loops[k].var;
        }
      for (int k = 0; k < st->nstmts; k++)
        {
          for (int l = 0; l < st->stmts[k].ninner; l++)
            {
              te_walk (st->stmts[k].inner[l].extent, extent_fn, &q);
              if (st->stmts[k].inner[l].start)
                te_walk (st->stmts[k].inner[l].start, extent_fn, &q);
              if (st->stmts[k].inner[l].var > q.max_var)
                q.max_var = st->stmts[k].inner[l].var;
            }
          te_walk (st->stmts[k].index, extent_fn, &q);
          te_walk (st->stmts[k].value, extent_fn, &q);
          if (st->stmts[k].guard)
            te_walk (st->stmts[k].guard, extent_fn, &q);
        }
    }
  r->nslots = q.max_id + 1;
  r->nvars = q.max_var + 1;
  r->slots = calloc (r->nslots ? r->nslots : 1, sizeof *r->slots);
  r->var = calloc (r->nvars ? r->nvars : 1, sizeof *r->var);
  r->bound = calloc (r->nvars ? r->nvars : 1, sizeof *r->bound);
  return r->slots && r->var && r->bound;
}

/* Free what ip_run_alloc allocated, and R's temporaries.  */
void
ip_run_free (run *r)
{
  if (r->slots)
    for (int i = 0; i < r->nslots; i++)
      if (r->slots[i].has_f)
        mpfr_clear (r->slots[i].f);
  free (r->slots);
  free (r->var);
  free (r->bound);
  mpfr_clears (r->tmp24, r->tmp53, r->conv, (mpfr_ptr) 0);
}

/* Stop the probe of R for WHY; returns false.  */
bool
ip_probe_stop (run *r, mp_probe_stop why)
{
  if (r->stop == MP_PROBE_DONE)
    r->stop = why;
  return false;
}

/* extent.c -- step 2 of the gradient check (gradient.c): the number of
   elements of every pointer parameter at the chosen sizes, and the
   values of the index arrays.

   Before:  stage 0: for i < n:  y[i] = x[idx[i] + 1],  n = 3
   After:   idx has 3 elements, x 4 (idx holds 2, 0, 3), y 3.

   1. The interpreter probes the forward (mp_probe_run, back/interp.h):
      its integer parts run over its loops at the chosen sizes and every
      access is reported to on_access below.
   2. An access of a pointer parameter at a known index records the
      largest element; a load from an index array gets ck_index_value of
      its element, so arrays indexed through others need no special case.
   3. An access at an index that depends on floating-point data, or at a
      negative one, refuses the kernel, unless it is in a branch that may
      not run (its condition depends on floating-point data); so does
      one beyond CK_MAX_ELEMS anywhere, and a probe that stops.  */

#include <stdlib.h>
#include <string.h>

#include "check/check-int.h"

/* The state of the probe: by parameter, 1 + the largest index accessed.  */
typedef struct extents
{
  ck_state *ck;
  int64_t *hi;
} extents;

/* The probe's callback: access A (check.h's step 2).  */
static bool
on_access (void *data, mp_access *a)
{
  extents *x = data;
  const te_tensor *t = a->t;
  if (t->kind != TE_TK_PARAM)
    return true;
  if (!a->index_known)
    return a->unsure
           || ck_refuse (x->ck, "an index of `%s' depends on floating-point "
                         "data", t->name);
  if (a->index < 0)
    return a->unsure
           || ck_refuse (x->ck, "`%s' is accessed at index %lld%s and the "
                         "chosen index values", t->name, (long long) a->index,
                         x->ck->res->at);
  if (a->index >= CK_MAX_ELEMS)
    return ck_refuse (x->ck, "`%s' has more than %d elements%s; give smaller "
                      "sizes with check-sizes=", t->name, CK_MAX_ELEMS,
                      x->ck->res->at);
  if (a->index + 1 > x->hi[t->param])
    x->hi[t->param] = a->index + 1;
  if (!a->store && !te_type_is_float (t->type))
    {
      a->value = ck_index_value (x->ck, t->param, a->index);
      a->value_known = true;
    }
  return true;
}

/* Refuse the kernel for why the probe stopped, STOP.  */
static bool
refuse_probe (ck_state *ck, mp_probe_stop stop)
{
  switch (stop)
    {
    case MP_PROBE_DONE:
      return true;
    case MP_PROBE_ACCESS:
      return false; /* refused already */
    case MP_PROBE_FLOAT_EXTENT:
      return ck_refuse (ck, "the extent of a loop depends on floating-point "
                        "data");
    case MP_PROBE_DIVIDE:
      return ck_refuse (ck, "an integer division by zero%s", ck->res->at);
    case MP_PROBE_TOO_LONG:
      return ck_refuse (ck, "its forward evaluates more than %ld operations%s; "
                        "give smaller sizes with check-sizes=", CK_MAX_OPS,
                        ck->res->at);
    case MP_PROBE_ERROR:
      return ck_refuse_run (ck);
    }
  return false;
}

bool
ck_find_extents (ck_state *ck)
{
  const te_program *p = ck->fwd;
  extents x = { ck, ck_alloc (ck, p->nparams, sizeof *x.hi) };
  mp_env *env = mp_env_new (p, CK_PREC);
  bool ok = x.hi && (env || ck_refuse_run (ck));
  for (int q = 0; ok && q < p->nparams; q++)
    if (p->params[q].kind == TE_PK_INT)
      mp_env_set_int (env, q, ck->ints[q]);
  mp_probe probe = { on_access, &x, CK_MAX_OPS, 0 };
  memset (&ck->diag, 0, sizeof ck->diag);
  ok = ok && refuse_probe (ck, mp_probe_run (env, p, &probe, &ck->diag));
  ck->ops = probe.ops;
  for (int q = 0; ok && q < p->nparams; q++)
    {
      ck_param *cp = &ck->par[q];
      te_param_kind kind = p->params[q].kind;
      if (kind != TE_PK_PTR_FLOAT && kind != TE_PK_PTR_INT)
        continue;
      cp->n = x.hi[q] > 0 ? x.hi[q] : 1;
      if (kind == TE_PK_PTR_INT)
        {
          cp->idx = ck_alloc (ck, cp->n, sizeof *cp->idx);
          ok = cp->idx != NULL;
          for (int64_t e = 0; ok && e < cp->n; e++)
            cp->idx[e] = ck_index_value (ck, q, e);
        }
    }
  mp_env_free (env);
  free (x.hi);
  return ok;
}

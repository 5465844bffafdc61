/* interp-probe.c -- the interpreter's probe (interp.h, mp_probe_run):
   the integer parts of a program run over its loops without its
   floating-point data, every access reported.

   Before:  stage 0: for i < n:  y[i] = x[idx[i] + 1],  n = 3
   After:   the accesses idx[0] (load, value 2 from the callback),
            x[3], y[0], idx[1], x[1], y[1], ...

   1. mp_probe_run runs the program as mp_run does (interp.c), with a
      probe: interp.c's loops call its hook probe_stmt for each
      statement, and ip_eval its hook probe_node for each node.
   2. A node's slot holds its integer value and whether it is known.  A
      floating node is never computed: it is unknown, and so is every
      integer node that depends on one, on a reduction, or on a load the
      callback gives no value.  An integer node whose operands are known
      is computed by interp.c's ip_eval_int, as mp_run computes it (a
      division by zero stops the probe).
   3. A select, && or || whose condition is unknown, or reads an array
      (a mask: other data may take the other way), evaluates all its
      operands as branches that may not run: their accesses are reported
      as unsure.  A guard that is so makes the statement's index and
      value unsure; one that is known false and reads no array skips
      it.
   4. A slot is valid until a loop counter changes (the run's tick,
      advanced by interp.c's loops), so a node is evaluated once per
      point of the loops around it.

   Limits: no local array gets elements, so a load from one is unknown
   (a static integer has its initial value);
   a reduction's value is unknown even when it is an integer.  */

#include "back/interp-env.h"


/* Report an access of T at the index node INDEX (NULL: element 0) to the
   callback; a load's value into S.  */
static bool
report (run *r, const te_tensor *t, const te_node *index, bool store,
        slot *s)
{
  mp_access a = { t, 0, true, r->unsure > 0, store, 0, false };
  if (index)
    {
      a.index = r->slots[index->id].i;
      a.index_known = r->slots[index->id].known;
    }
  if (!r->probe->access (r->probe->data, &a))
    return ip_probe_stop (r, MP_PROBE_ACCESS);
  if (s && !te_type_is_float (t->type) && a.value_known)
    {
      s->i = a.value;
      s->known = true;
    }
  return true;
}

/* Load N: the value of an integer scalar parameter, or an access.  */
static bool
probe_load (run *r, const te_node *n, slot *s)
{
  const te_tensor *t = n->u.tensor;
  if (t->kind == TE_TK_SCALAR)
    {
      if (te_type_is_float (n->type))
        return true;
      int inex;
      s->known = ip_param_value (r, n, t->param, NULL, &s->i, &inex);
      return s->known;
    }
  if (n->args[0] && !ip_eval (r, n->args[0]))
    return false;
  if (!report (r, t, n->args[0], false, s))
    return false;
  /* A static integer has its initial value (interp.c's allocate).  */
  const slot *ix = n->args[0] ? &r->slots[n->args[0]->id] : NULL;
  if (t->kind == TE_TK_STATIC && t->init && !te_type_is_float (t->type)
      && ix && ix->known && ix->i >= 0 && ix->i < t->size->u.i)
    {
      s->i = (int64_t) t->init[ix->i];
      s->known = true;
    }
  return true;
}

/* && || or select N: only the operands that run, when the first one is
   known; all of them, as branches that may not run, when it is not.  */
static bool
probe_cond (run *r, const te_node *n, slot *s)
{
  if (!ip_eval (r, n->args[0]))
    return false;
  const slot *c = &r->slots[n->args[0]->id];
  bool ka = c->known, sel = n->op == TE_SELECT;
  int64_t a = ka ? c->i : 0;
  /* A condition on data (a mask) may go either way for other data: both
     operands run, as branches that may not run, though its value here
     is known.  */
  bool either = !ka || te_reads (n->args[0], NULL);
  /* The second operand runs when the first does not decide.  */
  bool second = either || (sel || n->op == TE_AND ? a != 0 : a == 0);
  bool third = sel && (either || !a);
  r->unsure += either;
  bool ok = (!second || ip_eval (r, n->args[1]))
            && (!third || ip_eval (r, n->args[2]));
  r->unsure -= either;
  if (!ok)
    return false;
  const slot *b = second ? &r->slots[n->args[1]->id] : NULL;
  if (sel)
    {
      const slot *arm = &r->slots[n->args[a ? 1 : 2]->id];
      s->known = ka && arm->known;
      s->i = arm->i;
    }
  else if (second)
    {
      s->known = ka && b->known;
      s->i = n->op == TE_AND ? a && b->i : a || b->i;
    }
  else
    {
      s->known = true;
      s->i = n->op == TE_OR;
    }
  return true;
}

static bool
probe_node (run *r, const te_node *n, slot *s)
{
  s->known = false;
  s->i = 0;
  switch (n->op)
    {
    case TE_LOAD:
      return probe_load (r, n, s);
    case TE_AND:
    case TE_OR:
    case TE_SELECT:
      return probe_cond (r, n, s);
    case TE_REDUCE:
      return ip_eval (r, n->args[0]) && ip_reduce_loops (r, n, s);
    default:
      break;
    }
  /* Every other operation: its operands; then, when they are all known
     integers, the node as mp_run computes it (the operands' slots are
     valid: ip_eval_int does not evaluate them again).  */
  bool known = true;
  for (int k = 0; k < te_op_arity (n->op); k++)
    {
      if (!ip_eval (r, n->args[k]))
        return false;
      known = known && r->slots[n->args[k]->id].known;
    }
  if (!known || te_type_is_float (n->type))
    return true;
  if (!ip_eval_int (r, n, s))
    return false;
  s->known = true;
  return true;
}

static bool
probe_stmt (run *r, const te_stmt *st)
{
  bool unsure = false;
  if (st->guard)
    {
      if (!ip_eval (r, st->guard))
        return false;
      const slot *g = &r->slots[st->guard->id];
      unsure = !g->known || te_reads (st->guard, NULL);
      if (!unsure && !g->i)
        return true;
    }
  r->unsure += unsure;
  bool ok = (ip_eval (r, st->index) && report (r, st->dst, st->index, true, NULL)
             && ip_eval (r, st->value));
  r->unsure -= unsure;
  return ok;
}

static const ip_probe_hooks hooks = { probe_node, probe_stmt };

mp_probe_stop
mp_probe_run (mp_env *env, const te_program *p, mp_probe *probe,
              te_diag *diag)
{
  mp_probe_stop stop = MP_PROBE_ERROR;
  probe->ops = 0;
  ip_run_program (env, p, diag, probe, &hooks, &stop);
  return stop;
}

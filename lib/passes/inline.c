/* inline.c -- a call of one differentiable kernel from another.

   Before:  mlp (...) { dense (n, d, h, x, W1, b1, t1); act (n * h, t1, t2); ... }
            dense's program:  stage 0: for i < n, j < m:  y[i*m + j] = sum (...);
   After:   mlp's program:    stage 0: for i' < n, j' < h:  t1[i'*h + j'] = sum (...);
            ...

   The callee's lifted program (before roles and AD) is copied into the
   caller's at the call, its parameters replaced by the arguments: a
   pointer parameter by the caller's tensor and an element offset, a
   scalar by the argument's expression.  Its counters get fresh numbers,
   its local arrays become the caller's, its return value a one-element
   local array.  Inside loops, the loops around the call run around each
   of its stages, and each of its local arrays gets one copy per
   iteration of those loops.  The caller's gradient then contains the callee's, and
   the optimizer sees across the call.

   Nodes live in their program's context, so every node is rebuilt in the
   caller's context through the simplifying constructors.  */

#include "ir/te.h"
#include "ir/index.h"
#include "passes/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct inliner
{
  te_program *dst;
  const te_program *src;
  te_node **params;      /* src parameter number -> value in dst */
  te_tensor **tensors;   /* src tensor id -> dst tensor */
  te_node **offsets;     /* src tensor id -> element offset in dst */
  int *vars;             /* src counter -> dst counter */
  const te_node **memo_from;
  te_node **memo_to;
  int nmemo, capmemo;
  bool copy;             /* te_program_copy: node for node, same numbers */
} inliner;

static te_node *translate (inliner *in, const te_node *n);

/* The tensor of DST for T, a static variable a callee reads: the one DST
   has for the same variable, or a new one.  */
static te_tensor *
same_static (te_program *dst, const te_tensor *t)
{
  for (int i = 0; i < dst->ntensors; i++)
    if (dst->tensors[i]->kind == TE_TK_STATIC
        && dst->tensors[i]->decl == t->decl)
      return dst->tensors[i];
  return te_program_add_static (dst, t->name, t->type, t->size->u.i, t->init,
                                t->constant, t->decl, t->loc);
}

static te_loop
translate_loop (inliner *in, const te_loop *l)
{
  return (te_loop) { .var = in->vars[l->var],
                     .extent = translate (in, l->extent) };
}

static te_node *
translate_1 (inliner *in, const te_node *n)
{
  te_ctx *ctx = in->dst->ctx;
  te_node *a[3] = { NULL, NULL, NULL };
  if (n->op != TE_REDUCE)
    for (int i = 0; i < 3; i++)
      if (n->args[i])
        a[i] = translate (in, n->args[i]);
  switch (n->op)
    {
    case TE_CONST:
      if (te_type_is_float (n->type))
        return te_float (ctx, n->type, n->u.f);
      if (n->type == TE_BOOL)
        return te_bool (ctx, n->u.i != 0);
      return te_cast (ctx, n->type, te_int (ctx, n->u.i));
    case TE_PARAM:
      if (in->copy)
        return te_param_ref (ctx, n->type, n->u.index);
      if (te_is_nonnull (n))
        {
          /* The callee tests a pointer: the caller's array passed for it
             is optional in the caller too, and a local array never NULL.  */
          for (int i = 0; i < in->src->ntensors; i++)
            {
              const te_tensor *t = in->src->tensors[i];
              if (t->kind != TE_TK_PARAM || t->param != n->u.index)
                continue;
              te_tensor *d = in->tensors[t->id];
              if (d && d->kind == TE_TK_PARAM)
                {
                  d->optional = true;
                  return te_nonnull (ctx, d->param);
                }
              return te_bool (ctx, d != NULL);
            }
          return te_bool (ctx, false);
        }
      return te_cast (ctx, n->type, in->params[n->u.index]);
    case TE_VAR:
      return te_var (ctx, in->vars[n->u.index]);
    case TE_LOAD:
      {
        const te_tensor *t = n->u.tensor;
        if (in->copy)
          return te_load (ctx, in->tensors[t->id], a[0]);
        if (t->kind == TE_TK_SCALAR)
          return te_cast (ctx, n->type, in->params[t->param]);
        te_node *idx = te_add (ctx, a[0], in->offsets[t->id]);
        return te_load (ctx, in->tensors[t->id], te_canon_int (ctx, idx));
      }
    case TE_CAST:
      return te_cast (ctx, n->type, a[0]);
    case TE_SELECT:
      return te_select (ctx, a[0], a[1], a[2]);
    case TE_REDUCE:
      {
        te_loop loops[TE_MAX_LOOPS];
        for (int k = 0; k < n->u.red.nloops; k++)
          loops[k] = translate_loop (in, &n->u.red.loops[k]);
        return te_reduce_node (ctx, n->u.red.kind, n->u.red.nloops, loops,
                               translate (in, n->args[0]),
                               translate (in, n->args[1]));
      }
    default:
      if (te_op_arity (n->op) == 1)
        return te_unary (ctx, n->op, a[0]);
      return te_binary (ctx, n->op, a[0], a[1]);
    }
}

static te_node *
translate (inliner *in, const te_node *n)
{
  for (int i = 0; i < in->nmemo; i++)
    if (in->memo_from[i] == n)
      return in->memo_to[i];
  te_node *r = translate_1 (in, n);
  if (in->nmemo == in->capmemo)
    {
      in->capmemo = in->capmemo ? 2 * in->capmemo : 64;
      in->memo_from = realloc (in->memo_from,
                               in->capmemo * sizeof *in->memo_from);
      in->memo_to = realloc (in->memo_to, in->capmemo * sizeof *in->memo_to);
      if (!in->memo_from || !in->memo_to)
        abort ();
    }
  in->memo_from[in->nmemo] = n;
  in->memo_to[in->nmemo++] = r;
  return r;
}

/* The call C of the program IN inlines or copies, in IN's program: its
   arrays are IN's, from their offsets on.  */
static te_call *
copy_call (inliner *in, const te_call *c)
{
  te_ctx *ctx = in->dst->ctx;
  te_call *r = te_alloc (ctx, sizeof *r);
  *r = *c;
  r->name = te_strdup (ctx, c->name);
  r->grad_name = c->grad_name ? te_strdup (ctx, c->grad_name) : NULL;
  r->args = te_alloc (ctx, (c->nargs + 1) * sizeof *r->args);
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      te_call_arg *b = &r->args[i];
      *b = *a;
      b->value = a->value ? translate (in, a->value) : NULL;
      b->offset = a->offset ? translate (in, a->offset) : NULL;
      b->extent = a->extent ? translate (in, a->extent) : NULL;
      if (a->tensor && !in->copy)
        b->offset = te_canon_int (
            ctx, te_add (ctx, b->offset ? b->offset : te_int (ctx, 0),
                         in->offsets[a->tensor->id]));
      b->tensor = a->tensor ? in->tensors[a->tensor->id] : NULL;
      b->adj = a->adj ? in->tensors[a->adj->id] : NULL;
    }
  r->ret = c->ret ? in->tensors[c->ret->id] : NULL;
  r->d_return = c->d_return ? translate (in, c->d_return) : NULL;
  return r;
}

/* Start inlining SRC into DST with scalar arguments ARGS: fresh
   counters for SRC's, room for its tensors.  */
static void
start (inliner *in, te_program *dst, const te_program *src, te_node **args)
{
  te_ctx *ctx = dst->ctx;
  memset (in, 0, sizeof *in);
  in->dst = dst;
  in->src = src;
  in->params = args;
  int nid = 1;
  for (int i = 0; i < src->ntensors; i++)
    if (src->tensors[i]->id + 1 > nid)
      nid = src->tensors[i]->id + 1;
  in->tensors = te_alloc (ctx, nid * sizeof *in->tensors);
  in->offsets = te_alloc (ctx, nid * sizeof *in->offsets);
  in->vars = te_alloc (ctx, (src->nvars + 1) * sizeof *in->vars);
  for (int v = 0; v < src->nvars; v++)
    in->vars[v] = te_program_new_var (dst, src->var_names[v]);
}

te_tensor *
te_program_inline (te_program *dst, const te_program *src, te_node **args,
                   te_tensor **arg_tensors, te_node **arg_offsets,
                   te_loc loc, const te_stage *outer_stage, te_diag *diag)
{
  te_stage outer;
  memset (&outer, 0, sizeof outer);
  if (outer_stage)
    outer = *outer_stage; /* a copy: adding stages moves DST's array */
  te_ctx *ctx = dst->ctx;
  inliner in;
  start (&in, dst, src, args);
  te_tensor *ret = NULL;
  char name[256];
  /* Inside loops, the callee's local arrays get one copy per iteration:
     each iteration writes its own.  */
  te_node *outer_lin = NULL, *outer_count = NULL;
  if (outer.nloops
      && !te_linearize (ctx, outer.nloops, outer.loops, &outer_lin,
                        &outer_count))
    outer_lin = NULL;
  for (int i = 0; i < src->ntensors; i++)
    {
      const te_tensor *t = src->tensors[i];
      in.offsets[t->id] = te_int (ctx, 0);
      switch (t->kind)
        {
        case TE_TK_PARAM:
          in.tensors[t->id] = arg_tensors[t->param];
          in.offsets[t->id] = arg_offsets[t->param];
          break;
        case TE_TK_LOCAL:
        case TE_TK_RETURN:
          snprintf (name, sizeof name, "%s.%s", src->name, t->name);
          in.tensors[t->id] = te_program_add_tensor (dst, name, t->type,
                                                     TE_TK_LOCAL, -1, loc);
          in.tensors[t->id]->size
              = t->size ? translate (&in, t->size) : te_int (ctx, 1);
          if (outer_lin)
            {
              /* One copy per iteration of the loops around the call.  */
              te_tensor *d = in.tensors[t->id];
              in.offsets[t->id] = te_mul (ctx, outer_lin, d->size);
              d->size = te_canon_int (ctx, te_mul (ctx, d->size, outer_count));
            }
          if (t->kind == TE_TK_RETURN)
            ret = in.tensors[t->id];
          break;
        case TE_TK_SCALAR:
          break;
        case TE_TK_STATIC:
          in.tensors[t->id] = same_static (dst, t);
          break;
        }
    }
  for (int s = 0; s < src->nstages; s++)
    {
      const te_stage *ss = &src->stages[s];
      if (ss->call && outer.nloops)
        {
          te_diag_set (diag, TE_DIAG_USER, loc, "a call to '%s', whose "
                       "gradient is a function of its own, inside a loop "
                       "is not supported yet (it is called in '%s')",
                       ss->call->name, src->name);
          break;
        }
      te_stage *ds = te_program_add_stage (dst, ss->loc);
      ds->nest = outer_stage ? outer.nest : -1000 - dst->nstages;
      if (ss->call)
        {
          ds->call = copy_call (&in, ss->call);
          continue;
        }
      if (outer.nloops + ss->nloops > TE_MAX_LOOPS)
        {
          te_diag_set (diag, TE_DIAG_USER, loc, "loop nest too deep");
          break;
        }
      ds->nloops = outer.nloops + ss->nloops;
      for (int k = 0; k < outer.nloops; k++)
        {
          ds->loops[k] = outer.loops[k];
          ds->loop_ids[k] = outer.loop_ids[k];
        }
      for (int k = 0; k < ss->nloops; k++)
        ds->loops[outer.nloops + k] = translate_loop (&in, &ss->loops[k]);
      for (int k = 0; k < ss->nstmts; k++)
        {
          const te_stmt *st = &ss->stmts[k];
          te_node *idx = te_canon_int (
              ctx, te_add (ctx, translate (&in, st->index),
                           in.offsets[st->dst->id]));
          ds = &dst->stages[dst->nstages - 1];
          te_stage_add_stmt (dst, ds, in.tensors[st->dst->id], idx, st->op,
                             translate (&in, st->value),
                             st->guard ? translate (&in, st->guard) : NULL,
                             st->loc);
        }
    }
  free (in.memo_from);
  free (in.memo_to);
  return ret;
}

bool
te_program_is_value (const te_program *src)
{
  if (src->nstages != 1 || !src->ret || src->stages[0].nloops
      || src->stages[0].call || src->stages[0].nstmts != 1
      || src->stages[0].stmts[0].dst != src->ret
      || src->stages[0].stmts[0].guard)
    return false;
  for (int i = 0; i < src->nparams; i++)
    if (src->params[i].kind != TE_PK_INT && src->params[i].kind != TE_PK_FLOAT)
      return false;
  const te_stmt *st = &src->stages[0].stmts[0];
  for (int i = 0; i < src->ntensors; i++)
    {
      const te_tensor *t = src->tensors[i];
      if (t != src->ret && t->kind != TE_TK_SCALAR && te_reads (st->value, t))
        return false;
    }
  return true;
}

te_node *
te_program_inline_value (te_program *dst, const te_program *src,
                         te_node **args)
{
  if (!te_program_is_value (src))
    return NULL;
  const te_stmt *st = &src->stages[0].stmts[0];
  inliner in;
  start (&in, dst, src, args);
  te_node *r = translate (&in, st->value);
  free (in.memo_from);
  free (in.memo_to);
  return r;
}

te_program *
te_program_copy (const te_program *src)
{
  te_ctx *ctx = te_ctx_new ();
  te_program *dst = te_program_new (ctx, src->name);
  for (int i = 0; i < src->nparams; i++)
    {
      const te_param *q = &src->params[i];
      te_program_add_param (dst, q->name, q->kind, q->type, q->loc);
      dst->params[i].shadow = q->shadow;
    }
  inliner in;
  start (&in, dst, src, NULL);
  in.copy = true;
  /* The same source loops (plugin/forward.cc reads them off a copy).  */
  for (int v = 0; v < src->nvars; v++)
    te_program_set_var_loop (dst, in.vars[v], te_program_var_loop (src, v));
  for (int i = 0; i < src->ntensors; i++)
    {
      const te_tensor *t = src->tensors[i];
      te_tensor *d = te_program_add_tensor (dst, t->name, t->type, t->kind,
                                            t->param, t->loc);
      d->role = t->role;
      d->nullable = t->nullable;
      d->read_back = t->read_back;
      d->expanded = t->expanded;
      d->optional = t->optional;
      d->constant = t->constant;
      d->decl = t->decl;
      if (t->init && t->size && t->size->op == TE_CONST)
        {
          size_t n = (size_t) t->size->u.i;
          double *v = te_alloc (ctx, (n ? n : 1) * sizeof *v);
          memcpy (v, t->init, n * sizeof *v);
          d->init = v;
        }
      in.tensors[t->id] = d;
    }
  for (int i = 0; i < src->ntensors; i++)
    {
      const te_tensor *t = src->tensors[i];
      if (t->size)
        in.tensors[t->id]->size = translate (&in, t->size);
    }
  dst->ret_type = src->ret_type;
  dst->ret = src->ret ? in.tensors[src->ret->id] : NULL;
  for (int i = 0; i < src->nrequires; i++)
    te_program_require (dst, translate (&in, src->requires[i].gap),
                        src->requires[i].loc, "%s", src->requires[i].why);
  for (int s = 0; s < src->nstages; s++)
    {
      const te_stage *ss = &src->stages[s];
      te_stage *ds = te_program_add_stage (dst, ss->loc);
      *ds = *ss;
      for (int k = 0; k < ss->nloops; k++)
        ds->loops[k] = translate_loop (&in, &ss->loops[k]);
      ds->call = ss->call ? copy_call (&in, ss->call) : NULL;
      ds->nstmts = 0;
      ds->stmts = NULL;
      for (int k = 0; k < ss->nstmts; k++)
        {
          const te_stmt *st = &ss->stmts[k];
          ds = &dst->stages[s];
          te_stmt *d = te_stage_add_stmt (
              dst, ds, in.tensors[st->dst->id], translate (&in, st->index),
              st->op, translate (&in, st->value),
              st->guard ? translate (&in, st->guard) : NULL, st->loc);
          d->ninner = st->ninner;
          d->inner = st->ninner ? te_alloc (ctx, st->ninner * sizeof *d->inner)
                                : NULL;
          for (int j = 0; j < st->ninner; j++)
            d->inner[j] = translate_loop (&in, &st->inner[j]);
        }
    }
  free (in.memo_from);
  free (in.memo_to);
  return dst;
}

/* { dg-do run } */
/* verify.c: te_program_verify accepts what the pipeline makes and names
   each broken invariant.

   A kernel y[i] = a * tanh (x[i]) built by hand passes as lifted, with
   roles, and its gradient (ad_reverse) passes as a backward program.
   Then one invariant at a time is broken in a fresh copy and the
   verifier must fail with an internal error whose message names it:
   a non-affine index, a counter no loop binds, a stale tensor, a value
   of the wrong type, a loop extent or start using its own counter, a
   floating loop start, an inner loop starting at a counter bound
   inside it, a reduction
   rebinding a stage counter, and three breaks of the gradient ABI (the
   gradient writing an input, the adjoint of an output, and setting an
   input's adjoint instead of adding to it), and a load of an optional
   input outside its test against NULL; last, a constant table
   (TE_TK_STATIC) passes as read, and fails written, without its values
   or with an adjoint.  */

#include <string.h>

#include "unit-test.h"
#include "passes/pipeline.h"
#include "passes/passes.h"
#include "ir/verify.h"

static te_ctx *ctx;
static int pn, pa, px, py;
static te_tensor *x, *y;
static int vi, vj;

static te_program *
kernel (void)
{
  ctx = te_ctx_new ();
  te_program *p = te_program_new (ctx, "k");
  pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  px = te_program_add_param (p, "x", TE_PK_PTR_FLOAT, TE_F64, 0);
  py = te_program_add_param (p, "y", TE_PK_PTR_FLOAT, TE_F64, 0);
  x = te_program_add_tensor (p, "x", TE_F64, TE_TK_PARAM, px, 0);
  y = te_program_add_tensor (p, "y", TE_F64, TE_TK_PARAM, py, 0);
  vi = te_program_new_var (p, "i");
  vj = te_program_new_var (p, "j");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, vi, te_param_ref (ctx, TE_I64, pn));
  te_node *i = te_var (ctx, vi);
  te_node *e = te_mul (ctx, te_param_ref (ctx, TE_F64, pa),
                       te_unary (ctx, TE_TANH, te_load (ctx, x, i)));
  te_stage_add_stmt (p, s, y, i, TE_SET, e, NULL, 0);
  return p;
}

/* Expect P (the backward program of FWD when FWD) to fail verification
   with a message containing WANT.  */
static void
expect_fail (const char *what, const te_program *p, const te_program *fwd,
             bool roles, const char *want)
{
  te_diag diag;
  memset (&diag, 0, sizeof diag);
  bool ok = te_program_verify (p, fwd, roles, "after pass 'test'", &diag);
  CHECK (!ok);
  CHECK (diag.kind == TE_DIAG_INTERNAL);
  CHECK (!strcmp (diag.where, "after pass 'test'"));
  if (!strstr (diag.msg, want))
    {
      fprintf (stderr, "%s: got \"%s\", want \"%s\"\n", what, diag.msg, want);
      CHECK (strstr (diag.msg, want) != NULL);
    }
}

static void
expect_ok (const char *what, const te_program *p, const te_program *fwd,
           bool roles)
{
  te_diag diag;
  memset (&diag, 0, sizeof diag);
  bool ok = te_program_verify (p, fwd, roles, what, &diag);
  if (!ok)
    fprintf (stderr, "%s: %s: %s\n", what, diag.where, diag.msg);
  CHECK (ok);
}

static te_stmt *
stmt0 (te_program *p)
{
  return &p->stages[0].stmts[0];
}

int
main (void)
{
  te_diag diag;
  memset (&diag, 0, sizeof diag);

  /* The good program, in every phase.  */
  te_program *p = kernel ();
  expect_ok ("lifted", p, NULL, false);
  CHECK (te_program_roles (p, &diag));
  expect_ok ("roles", p, NULL, true);
  te_program *b = ad_reverse (p, true, &diag);
  CHECK (b != NULL);
  expect_ok ("backward", b, p, true);

  /* Its copy (the snapshot for callers) is as good, and independent.  */
  te_program *c = te_program_copy (p);
  expect_ok ("copy", c, NULL, true);
  CHECK (c->nstages == p->nstages && c->ntensors == p->ntensors);
  CHECK (c->params[px].tensor->role == TE_ROLE_INPUT);
  te_ctx_free (c->ctx);

  /* The same after the snapshot is freed.  */
  expect_ok ("backward again", b, p, true);

  /* The gradient ABI.  */
  te_stage *s = &b->stages[b->nstages - 1];
  te_stmt saved = s->stmts[0];
  te_tensor *d_x = x->shadow, *d_y = y->shadow;
  CHECK (d_x && d_y);
  int found = 0;
  for (int k = 0; k < b->nstages; k++)
    for (int j = 0; j < b->stages[k].nstmts; j++)
      if (b->stages[k].stmts[j].dst == d_x)
        {
          found++;
          s = &b->stages[k];
          saved = s->stmts[j];
          s->stmts[j].op = TE_SET;
          expect_fail ("set d_x", b, p, true, "instead of adding to it");
          s->stmts[j] = saved;
          s->stmts[j].dst = d_y;
          expect_fail ("write d_y", b, p, true, "the adjoint of output 'y'");
          s->stmts[j].dst = x;
          expect_fail ("write x", b, p, true, "a parameter of the kernel");
          s->stmts[j] = saved;
        }
  CHECK (found > 0);
  expect_ok ("backward restored", b, p, true);
  te_ctx_free (ctx);

  /* A parameter array the kernel never reads (passed on to a kernel that
     ignores it) is unused: a role like the others.  */
  p = kernel ();
  int pu = te_program_add_param (p, "u", TE_PK_PTR_FLOAT, TE_F64, 0);
  te_program_add_tensor (p, "u", TE_F64, TE_TK_PARAM, pu, 0);
  CHECK (te_program_roles (p, &diag));
  CHECK (p->params[pu].tensor->role == TE_ROLE_UNUSED);
  expect_ok ("unused", p, NULL, true);
  te_ctx_free (ctx);

  /* A non-affine index: x[i*i].  */
  p = kernel ();
  te_node *i = te_var (ctx, vi);
  stmt0 (p)->value = te_load (ctx, x, te_mul (ctx, i, i));
  expect_fail ("x[i*i]", p, NULL, false, "not affine");
  te_ctx_free (ctx);

  /* A counter that no loop binds: y[j].  */
  p = kernel ();
  stmt0 (p)->index = te_var (ctx, vj);
  expect_fail ("y[j]", p, NULL, false, "counter 'j'");
  te_ctx_free (ctx);

  /* A stale tensor: a load of a local array the program no longer lists.  */
  p = kernel ();
  te_tensor *t = te_program_add_tensor (p, "t", TE_F64, TE_TK_LOCAL, -1, 0);
  t->size = te_param_ref (ctx, TE_I64, pn);
  stmt0 (p)->value = te_load (ctx, t, te_var (ctx, vi));
  expect_ok ("t listed", p, NULL, false);
  p->ntensors--;
  expect_fail ("t dropped", p, NULL, false, "no longer lists");
  te_ctx_free (ctx);

  /* A value of the wrong type: float into double.  */
  p = kernel ();
  stmt0 (p)->value = te_cast (ctx, TE_F32, stmt0 (p)->value);
  expect_fail ("float value", p, NULL, false, "a value of type float");
  te_ctx_free (ctx);

  /* A loop extent that uses its own counter.  */
  p = kernel ();
  p->stages[0].loops[0].extent = te_var (ctx, vi);
  expect_fail ("extent i", p, NULL, false, "which no outer loop binds");
  te_ctx_free (ctx);

  /* A loop start (clip.c's te_loop.start): of sizes it passes; one that
     uses its own counter, or a floating one, fails; so does an inner
     loop's start using a counter no loop outside it binds.  */
  p = kernel ();
  p->stages[0].loops[0].start = te_sub (ctx, te_param_ref (ctx, TE_I64, pn),
                                        te_int (ctx, 1));
  expect_ok ("start n - 1", p, NULL, false);
  p->stages[0].loops[0].start = te_var (ctx, vi);
  expect_fail ("start i", p, NULL, false, "which no outer loop binds");
  p->stages[0].loops[0].start = te_param_ref (ctx, TE_F64, pa);
  expect_fail ("start a", p, NULL, false, "a loop start of type");
  p->stages[0].loops[0].start = NULL;
  te_loop in = { vj, te_param_ref (ctx, TE_I64, pn) };
  in.start = te_var (ctx, vj);
  stmt0 (p)->ninner = 1;
  stmt0 (p)->inner = &in;
  expect_fail ("inner start j", p, NULL, false,
               "starts at a counter no outer loop binds");
  in.start = te_var (ctx, vi);
  expect_ok ("inner start i", p, NULL, false);
  te_ctx_free (ctx);

  /* A reduction over the stage's own counter.  */
  p = kernel ();
  te_loop l = { vi, te_param_ref (ctx, TE_I64, pn) };
  stmt0 (p)->value = te_reduce_node (ctx, TE_RED_SUM, 1, &l,
                                     te_float (ctx, TE_F64, 0),
                                     te_load (ctx, x, te_var (ctx, vi)));
  expect_fail ("sum over i", p, NULL, false, "rebinds counter 'i'");
  te_ctx_free (ctx);

  /* A scalar parameter read as an integer.  */
  p = kernel ();
  stmt0 (p)->index = te_param_ref (ctx, TE_I64, pa);
  expect_fail ("a as index", p, NULL, false, "parameter 'a' read as");
  te_ctx_free (ctx);

  /* An optional x (tested against NULL): read behind its test it
     passes; the same load outside the select, as a pass that hoisted it
     would leave it, fails.  */
  p = kernel ();
  x->optional = true;
  {
    te_node *i = te_var (ctx, vi);
    te_node *t = te_nonnull (ctx, px);
    te_node *xi = te_load (ctx, x, i);
    stmt0 (p)->value = te_select (ctx, t, te_unary (ctx, TE_TANH, xi),
                                  te_float (ctx, TE_F64, 0));
    te_diag diag;
    memset (&diag, 0, sizeof diag);
    CHECK (te_program_verify (p, NULL, false, "as lifted", &diag));
    stmt0 (p)->value = te_mul (ctx, xi, stmt0 (p)->value);
    expect_fail ("x outside its test", p, NULL, false,
                 "a load of 'x', which may be NULL");
    /* Behind the statement's guard it is read where the test holds.  */
    stmt0 (p)->guard = t;
    memset (&diag, 0, sizeof diag);
    CHECK (te_program_verify (p, NULL, false, "as lifted", &diag));
    /* A test of a parameter that is not optional.  */
    x->optional = false;
    expect_fail ("test of x", p, NULL, false, "but not optional");
  }
  te_ctx_free (ctx);

  /* A constant table: read, it passes with roles and in the gradient;
     written, without its values, or with an adjoint, it does not.  */
  static const double cvals[2] = { 0.5, -1 };
  int handle;
  p = kernel ();
  te_tensor *tab = te_program_add_static (p, "c", TE_F64, 2, cvals, true,
                                          &handle, 0);
  te_node *k = te_binary (ctx, TE_MOD, te_var (ctx, vi), te_int (ctx, 2));
  stmt0 (p)->value = te_mul (ctx, stmt0 (p)->value, te_load (ctx, tab, k));
  expect_ok ("table", p, NULL, false);
  CHECK (te_program_roles (p, &diag));
  CHECK (tab->role == TE_ROLE_INPUT);
  expect_ok ("table roles", p, NULL, true);
  /* Its copy keeps the table, values and all.  */
  c = te_program_copy (p);
  expect_ok ("table copy", c, NULL, true);
  const te_tensor *ct = c->tensors[tab->id];
  CHECK (ct->kind == TE_TK_STATIC && ct->constant && ct->init != cvals
         && ct->init[1] == -1 && ct->decl == &handle);
  te_ctx_free (c->ctx);
  b = ad_reverse (p, true, &diag);
  CHECK (b != NULL);
  if (b)
    expect_ok ("table backward", b, p, true);
  CHECK (!tab->shadow);
  tab->init = NULL;
  expect_fail ("table without values", p, NULL, true, "without its size");
  tab->init = cvals;
  tab->shadow = y;
  expect_fail ("table with adjoint", p, NULL, true, "has an adjoint");
  tab->shadow = NULL;
  stmt0 (p)->dst = tab;
  expect_fail ("table written", p, NULL, true, "a variable of static storage");
  te_ctx_free (ctx);

  return tg_exit ();
}

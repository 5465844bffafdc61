/* { dg-do run } */
/* check/: the gradient check on programs built by hand, without GCC.

   Each forward goes through te_program_roles and ad_reverse, then
   ck_gradient:
     elementwise   y[i] = a * x[i] + sin (x[i]): checked at n=3 (the
                   default sizes), d_a and d_x within 1e-20; again at
                   check-sizes n=5
     planted       the same backward with the += into d_x doubled: the
                   check names d_x and its first element
     gather        y[i] = x[idx[i]] * x[i]: extents through the index
                   array's values (x needs idx's largest value + 1)
     refusals      x[i - 1] (a negative index), an extent n / m with
                   m=0 (a division by zero), a size for a parameter the
                   kernel lacks, a tensor too large  */

#include "unit-test.h"
#include "check/check.h"

static te_ctx *ctx;

static te_tensor *
ptr_param (te_program *p, const char *name, te_param_kind kind, int *q)
{
  te_type type = kind == TE_PK_PTR_INT ? TE_I32 : TE_F64;
  *q = te_program_add_param (p, name, kind, type, 0);
  return te_program_add_tensor (p, name, type, TE_TK_PARAM, *q, 0);
}

/* The backward of FWD (roles first); NULL, reported, if that fails.  */
static te_program *
reverse (te_program *fwd)
{
  te_diag diag = { 0 };
  te_program *bwd = NULL;
  if (!te_program_roles (fwd, &diag)
      || !(bwd = ad_reverse (fwd, false, &diag)))
    {
      CHECK (!"roles and reverse succeed");
      fprintf (stderr, "  %s: %s\n", fwd->name, diag.msg);
    }
  return bwd;
}

/* ck_gradient of FWD, BWD with sizes SIZES (may be NULL) into RES.  */
static void
run_check (te_program *fwd, te_program *bwd, const char *sizes,
           ck_result *res)
{
  ck_options opt = { 0 };
  opt.sizes = sizes;
  ck_gradient (fwd->name, fwd, bwd, &opt, res);
  if (res->status == CK_NOT_CHECKED)
    printf ("  %s: not checked: %s\n", fwd->name, res->why);
}

/* y[i] = a * x[i] + sin (x[i]) over i < n, or, with SHIFT, y[i] = x[i -
   1] (a negative index), or with DIVIDE, over i < n / m.  */
static te_program *
elementwise (const char *name, bool shift, bool divide)
{
  te_program *p = te_program_new (ctx, name);
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = divide ? te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0) : -1;
  int pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  int px, py;
  te_tensor *x = ptr_param (p, "x", TE_PK_PTR_FLOAT, &px);
  te_tensor *y = ptr_param (p, "y", TE_PK_PTR_FLOAT, &py);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_node *n = te_param_ref (ctx, TE_I64, pn);
  if (divide)
    n = te_div (ctx, n, te_param_ref (ctx, TE_I64, pm));
  te_stage_add_loop (s, i, n);
  te_node *vi = te_var (ctx, i);
  te_node *xi = te_load (ctx, x, shift ? te_sub (ctx, vi, te_int (ctx, 1))
                                       : vi);
  te_node *e = te_add (ctx, te_mul (ctx, te_param_ref (ctx, TE_F64, pa), xi),
                       te_unary (ctx, TE_SIN, xi));
  te_stage_add_stmt (p, s, y, vi, TE_SET, e, NULL, 0);
  return p;
}

/* The shadow NAME of BWD's statements: double the value of the first
   statement that adds to it.  */
static bool
plant (te_program *bwd, const char *name)
{
  for (int s = 0; s < bwd->nstages; s++)
    for (int k = 0; k < bwd->stages[s].nstmts; k++)
      {
        te_stmt *st = &bwd->stages[s].stmts[k];
        if (!strcmp (st->dst->name, name) && st->op == TE_ADD_TO)
          {
            st->value = te_mul (ctx, st->value, te_float (ctx, TE_F64, 2));
            return true;
          }
      }
  return false;
}

static void
check_elementwise (void)
{
  printf ("elementwise\n");
  te_program *fwd = elementwise ("elem", false, false);
  te_program *bwd = reverse (fwd);
  if (!bwd)
    return;
  ck_result res;
  run_check (fwd, bwd, NULL, &res);
  CHECK (res.status == CK_CHECKED);
  CHECK (!strcmp (res.at, " at n=3"));
  CHECK (res.nshadows == 2);
  if (res.nshadows == 2)
    {
      CHECK (!strcmp (res.shadows[0].name, "d_a"));
      CHECK (!strcmp (res.shadows[1].name, "d_x"));
      CHECK (res.shadows[0].worst < 1e-20);
      CHECK (res.shadows[1].worst < 1e-20);
    }
  ck_result_free (&res);

  run_check (fwd, bwd, "other:n=2;elem:n=5", &res);
  CHECK (res.status == CK_CHECKED);
  CHECK (!strcmp (res.at, " at n=5"));
  ck_result_free (&res);

  run_check (fwd, bwd, "elem:k=5", &res);
  CHECK (res.status == CK_BAD_SIZES);
  CHECK (res.sizes_error == CK_SIZES_NAME);
  CHECK (res.name_len == 1 && res.name[0] == 'k');
  ck_result_free (&res);

  run_check (fwd, bwd, "elem", &res);
  CHECK (res.status == CK_BAD_SIZES && res.sizes_error == CK_SIZES_FORM);
  ck_result_free (&res);

  run_check (fwd, bwd, "elem:n=200000", &res);
  CHECK (res.status == CK_NOT_CHECKED);
  CHECK (!strcmp (res.why, "'y' has more than 100000 elements at n=200000; "
                           "give smaller sizes with check-sizes="));
  ck_result_free (&res);

  printf ("planted\n");
  CHECK (plant (bwd, "d_x"));
  run_check (fwd, bwd, NULL, &res);
  CHECK (res.status == CK_WRONG);
  CHECK (res.shadow && !strcmp (res.shadow, "d_x"));
  CHECK (res.elem == 0);
  CHECK (res.err > 1e-3 && res.tol == CK_DEFAULT_TOL);
  ck_result_free (&res);
}

/* y[i] = x[idx[i]] * x[i] over i < n.  */
static void
check_gather (void)
{
  printf ("gather\n");
  te_program *p = te_program_new (ctx, "gather");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pi, px, py;
  te_tensor *idx = ptr_param (p, "idx", TE_PK_PTR_INT, &pi);
  te_tensor *x = ptr_param (p, "x", TE_PK_PTR_FLOAT, &px);
  te_tensor *y = ptr_param (p, "y", TE_PK_PTR_FLOAT, &py);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_node *vi = te_var (ctx, i);
  te_node *g = te_load (ctx, x, te_cast (ctx, TE_I64, te_load (ctx, idx, vi)));
  te_stage_add_stmt (p, s, y, vi, TE_SET, te_mul (ctx, g, te_load (ctx, x, vi)),
                     NULL, 0);
  te_program *bwd = reverse (p);
  if (!bwd)
    return;
  ck_result res;
  run_check (p, bwd, NULL, &res);
  CHECK (res.status == CK_CHECKED);
  CHECK (res.nshadows == 1 && res.shadows[0].worst < 1e-20);
  ck_result_free (&res);
}

static void
check_refusals (void)
{
  printf ("refusals\n");
  ck_result res;
  te_program *fwd = elementwise ("shift", true, false);
  te_program *bwd = reverse (fwd);
  if (bwd)
    {
      run_check (fwd, bwd, NULL, &res);
      CHECK (res.status == CK_NOT_CHECKED);
      CHECK (!strcmp (res.why, "'x' is accessed at index -1 at n=3 and the "
                               "chosen index values"));
      ck_result_free (&res);
    }
  fwd = elementwise ("divide", false, true);
  bwd = reverse (fwd);
  if (bwd)
    {
      run_check (fwd, bwd, "divide:m=0", &res);
      CHECK (res.status == CK_NOT_CHECKED);
      CHECK (!strcmp (res.why, "an integer division by zero at n=3, m=0"));
      ck_result_free (&res);
      run_check (fwd, bwd, NULL, &res);
      CHECK (res.status == CK_CHECKED && !strcmp (res.at, " at n=3, m=2"));
      ck_result_free (&res);
    }
}

int
main (void)
{
  ctx = te_ctx_new ();
  check_elementwise ();
  check_gather ();
  check_refusals ();
  te_ctx_free (ctx);
  mpfr_free_cache ();
  return tg_exit ();
}

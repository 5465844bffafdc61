/* { dg-do run } */
/* cgen.c: the C that dump-c prints computes the gradient.

   Small forward programs built by hand go through te_program_reductions,
   te_program_hoist, te_program_roles, ad_reverse (optimizing) and
   te_program_schedule, as in the plugin;
   te_program_emit_c prints the backward program.  The file must compile
   with gcc -std=c11 -pedantic -Wall -Wextra -Werror.  A driver, written
   here, includes it and calls the gradient at -O0 and -O2 on inputs
   embedded as exact hex constants, and prints every array in hex.  Then:
   an input's shadow minus its prefill equals the central difference of
   L = sum C[k] y[k] (+ c_ret * return), the forward written in C here in
   double (h = 1e-6 relative; tolerance 1e-6 for double kernels, 1e-3
   for float ones, whose gradient is computed in float); an output's
   shadow and every forward array are unchanged; a NULL output shadow has
   adjoint zero, a NULL input shadow is skipped.

     tanh_k    y[i] = x[i] > 0 ? tanh (x[i]) : 0.25 * x[i]     (select)
     dense     y[i*m + j] = tanhf (b[j] + sum_p x[i*k + p] * w[p*m + j])
               in float, int sizes
     rowmax    y[i] = a * max_j x[i*m + j], long sizes, scalar a; a row
               with a tie checks that the first maximum takes the adjoint
     prodret   return prod_i x[i], also with a zero factor (the
               reduction inside a select arm becomes if/else)
     cumsum    y[0] = x[0]; y[i+1] = y[i] + 2 x[i+1]: a recurrence, whose
               backward stage is fused and runs backwards
     gather    y[i*d + j] = t[idx[i]*d + j] * t[j], idx an int array
               with a repeated index (scatter-add)

   Without a C compiler (gcc, or $CC) the test says UNSUPPORTED and
   passes.  */

#include "unit-test.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXP 8
#define MAXE 64

static te_ctx *ctx;
static const char *cc;
static char dir[64];

typedef struct kase kase;
struct kase
{
  const char *name;
  te_program *fwd, *bwd;
  const char *ctypes[MAXP];
  long ints[MAXP];
  int size[MAXP];          /* elements of pointer parameters; 1: scalar */
  double val[MAXP][MAXE];  /* entry values */
  double c[MAXP][MAXE];    /* loss weights of outputs */
  double c_ret;
  bool null[MAXP];         /* shadow of parameter q passed as NULL */
  double tol;
  /* The forward in double: outputs into V, returns the return value.  */
  double (*forward) (const kase *k, double v[MAXP][MAXE]);
  /* Optional: the expected shadows, for data where differences fail.  */
  void (*expect) (const kase *k, double want[MAXP][MAXE]);
};

static te_role
role_of (const kase *k, int q)
{
  te_tensor *t = k->fwd->params[q].tensor;
  return t ? t->role : TE_ROLE_UNUSED;
}

static bool
is_output (const kase *k, int q)
{
  return k->fwd->params[q].kind == TE_PK_PTR_FLOAT
         && role_of (k, q) == TE_ROLE_OUTPUT;
}

/* L at entry values V (copied: the forward overwrites outputs).  */
static double
loss (const kase *k, double v[MAXP][MAXE])
{
  static double w[MAXP][MAXE];
  memcpy (w, v, sizeof w);
  double r = k->forward (k, w), l = k->c_ret * r;
  for (int q = 0; q < k->fwd->nparams; q++)
    if (is_output (k, q) && !k->null[q])
      for (int e = 0; e < k->size[q]; e++)
        l += k->c[q][e] * w[q][e];
  return l;
}

static double
prefill (int q, int e)
{
  return 0.125 * (q + 1) - 0.0625 * e;
}

/* ---- compiling and running the printed C ------------------------------- */

static bool
run_cmd (const char *cmd)
{
  int rc = system (cmd);
  if (rc != 0)
    fprintf (stderr, "FAIL: command failed (%d): %s\n", rc, cmd);
  return rc == 0;
}

/* The values of the parameters after the forward: what the gradient
   reads (outputs hold the forward's results).  */
static double after[MAXP][MAXE];

/* Print the call of K's gradient with its data into a driver that
   includes FILE; it prints every array afterwards.  */
static void
write_driver (const kase *k, const char *file, FILE *f)
{
  te_program *b = k->bwd;
  int nf = k->fwd->nparams;
  fprintf (f, "#include \"%s\"\n#include <stdio.h>\n\nint\nmain (void)\n{\n",
           file);
  for (int q = 0; q < b->nparams; q++)
    {
      const te_param *p = &b->params[q];
      int src = q, n;
      if (p->kind != TE_PK_PTR_FLOAT && p->kind != TE_PK_PTR_INT)
        continue;
      const char *ty = p->type == TE_F32   ? "float"
                       : p->type == TE_I32 ? "int"
                       : p->type == TE_I64 ? "long"
                                           : "double";
      if (q < nf)
        n = k->size[q];
      else
        {
          for (src = 0; src < nf; src++)
            if (k->fwd->params[src].shadow == q)
              break;
          n = k->size[src];
        }
      fprintf (f, "  static %s a%d[%d] = {", ty, q, n);
      for (int e = 0; e < n; e++)
        {
          double v = q < nf ? after[q][e]
                     : is_output (k, src) ? k->c[src][e] : prefill (src, e);
          if (p->type == TE_F32)
            v = (float) v;
          fprintf (f, "%s %a", e ? "," : "", v);
        }
      fprintf (f, " };\n");
    }
  fprintf (f, "  %s (", b->name);
  for (int q = 0; q < b->nparams; q++)
    {
      const te_param *p = &b->params[q];
      fprintf (f, "%s", q ? ", " : "");
      int src = q;
      if (q >= nf)
        for (src = 0; src < nf; src++)
          if (k->fwd->params[src].shadow == q)
            break;
      if (p->kind == TE_PK_INT)
        fprintf (f, "%ld", k->ints[q]);
      else if (p->kind == TE_PK_FLOAT)
        fprintf (f, "%a", q < nf ? after[q][0] : k->c_ret);
      else if (q >= nf && src < nf && k->null[src])
        fprintf (f, "NULL");
      else
        fprintf (f, "a%d", q);
    }
  fprintf (f, ");\n");
  for (int q = 0; q < b->nparams; q++)
    {
      const te_param *p = &b->params[q];
      if (p->kind != TE_PK_PTR_FLOAT && p->kind != TE_PK_PTR_INT)
        continue;
      fprintf (f, "  for (unsigned e = 0; e < sizeof a%d / sizeof *a%d; e++)\n"
                  "    printf (\"%%a\\n\", (double) a%d[e]);\n",
               q, q, q);
    }
  fprintf (f, "  return 0;\n}\n");
}

/* Compile the gradient of K with a driver at OPT, run it, read back the
   arrays: GOT[q][e] for every pointer parameter q of the backward.  */
static bool
run_gradient (const kase *k, const char *opt, double got[2 * MAXP][MAXE])
{
  char cfile[128], dfile[128], exe[128], cmd[1024];
  snprintf (cfile, sizeof cfile, "%s/%s.c", dir, k->name);
  snprintf (dfile, sizeof dfile, "%s/%s-driver.c", dir, k->name);
  snprintf (exe, sizeof exe, "%s/%s-driver", dir, k->name);
  FILE *f = fopen (dfile, "w");
  if (!f)
    return false;
  write_driver (k, cfile, f);
  fclose (f);
  snprintf (cmd, sizeof cmd, "%s -std=c11 %s -o %s %s -lm", cc, opt, exe,
            dfile);
  if (!run_cmd (cmd))
    return false;
  FILE *p = popen (exe, "r");
  if (!p)
    return false;
  bool ok = true;
  char line[128];
  for (int q = 0; q < k->bwd->nparams && ok; q++)
    {
      const te_param *bp = &k->bwd->params[q];
      if (bp->kind != TE_PK_PTR_FLOAT && bp->kind != TE_PK_PTR_INT)
        continue;
      int src = q;
      if (q >= k->fwd->nparams)
        for (src = 0; src < k->fwd->nparams; src++)
          if (k->fwd->params[src].shadow == q)
            break;
      for (int e = 0; e < k->size[src] && ok; e++)
        {
          ok = fgets (line, sizeof line, p) != NULL;
          if (ok)
            got[q][e] = strtod (line, NULL);
        }
    }
  if (pclose (p) != 0 || !ok)
    {
      fprintf (stderr, "FAIL: %s: running %s\n", k->name, exe);
      return false;
    }
  return true;
}

/* Print K's backward program as C into DIR and check that it compiles
   cleanly on its own.  */
static bool
print_c (kase *k)
{
  char cfile[128], cmd[1024];
  te_diag diag = { 0 };
  snprintf (cfile, sizeof cfile, "%s/%s.c", dir, k->name);
  FILE *f = fopen (cfile, "w");
  if (!f)
    return false;
  bool ok = te_program_emit_c (f, k->bwd, NULL, k->fwd, k->ctypes, true, &diag);
  fclose (f);
  CHECK (ok);
  if (!ok)
    {
      fprintf (stderr, "FAIL: %s: te_program_emit_c: %s\n", k->name,
               diag.msg);
      return false;
    }
  snprintf (cmd, sizeof cmd, "cat %s", cfile);
  run_cmd (cmd);
  snprintf (cmd, sizeof cmd,
            "%s -std=c11 -pedantic -Wall -Wextra -Werror -O2 -c -o %s.o %s",
            cc, cfile, cfile);
  ok = run_cmd (cmd);
  CHECK (ok);
  return ok;
}

/* ---- the checks -------------------------------------------------------- */

/* Differentiate K, print it, and check it with the shadows that K->null
   says are NULL.  */
static void
check_kase (kase *k)
{
  te_diag diag = { 0 };
  if (!k->bwd)
    {
      if (!te_program_reductions (k->fwd, &diag)
          || !te_program_hoist (k->fwd, &diag)
          || !te_program_roles (k->fwd, &diag)
          || !(k->bwd = ad_reverse (k->fwd, true, &diag))
          || !te_program_schedule (k->bwd, &diag))
        {
          CHECK (!"roles and reverse succeed");
          fprintf (stderr, "  %s: %s\n", k->name, diag.msg);
          return;
        }
      te_program_dump (stdout, k->bwd);
    }
  if (!print_c (k))
    return;
  double want[MAXP][MAXE] = { { 0 } };
  if (k->expect)
    k->expect (k, want);
  else
    for (int q = 0; q < k->fwd->nparams; q++)
      if (k->fwd->params[q].shadow >= 0 && !is_output (k, q))
        for (int e = 0; e < k->size[q]; e++)
          {
            double x = k->val[q][e], h = 1e-6 * (fabs (x) > 1 ? fabs (x) : 1);
            k->val[q][e] = x + h;
            double lp = loss (k, k->val);
            k->val[q][e] = x - h;
            double lm = loss (k, k->val);
            k->val[q][e] = x;
            want[q][e] = (lp - lm) / (2 * h);
          }
  memcpy (after, k->val, sizeof after);
  k->forward (k, after);
  for (int q = 0; q < k->fwd->nparams; q++)
    if (k->fwd->params[q].type == TE_F32)
      for (int e = 0; e < k->size[q]; e++)
        after[q][e] = (float) after[q][e];
  static const char *const opts[] = { "-O0", "-O2" };
  for (int o = 0; o < 2; o++)
    {
      double got[2 * MAXP][MAXE];
      if (!run_gradient (k, opts[o], got))
        {
          CHECK (!"the gradient compiles and runs");
          continue;
        }
      for (int q = 0; q < k->fwd->nparams; q++)
        {
          const te_param *p = &k->fwd->params[q];
          if (p->kind == TE_PK_PTR_FLOAT || p->kind == TE_PK_PTR_INT)
            for (int e = 0; e < k->size[q]; e++)
              {
                CHECK_AT (got[q][e] == after[q][e], e);
              }
          int s = p->shadow;
          if (s < 0 || k->null[q])
            continue;
          for (int e = 0; e < k->size[q]; e++)
            if (is_output (k, q))
              CHECK_AT (got[s][e] == (p->type == TE_F32 ? (float) k->c[q][e]
                                                        : k->c[q][e]),
                        e);
            else
              {
                double pre = p->type == TE_F32 ? (float) prefill (q, e)
                                               : prefill (q, e);
                if (!CHECK_NEAR_AT (got[s][e] - pre, want[q][e], k->tol,
                                    k->tol, e))
                  fprintf (stderr, "  %s %s: shadow of '%s'\n", k->name,
                           opts[o], p->name);
              }
        }
    }
}

/* ---- the kernels ------------------------------------------------------- */

static te_tensor *
ptr_param (te_program *p, const char *name, te_type type, int *q)
{
  *q = te_program_add_param (p, name, TE_PK_PTR_FLOAT, type, 0);
  return te_program_add_tensor (p, name, type, TE_TK_PARAM, *q, 0);
}

static double
tanh_fwd (const kase *k, double v[MAXP][MAXE])
{
  for (int i = 0; i < k->ints[0]; i++)
    v[2][i] = v[1][i] > 0 ? tanh (v[1][i]) : 0.25 * v[1][i];
  return 0;
}

static void
test_tanh (void)
{
  kase k = { .name = "tanh_k", .tol = 1e-6, .forward = tanh_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "tanh_k");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0), px, py;
  te_tensor *x = ptr_param (p, "x", TE_F64, &px);
  te_tensor *y = ptr_param (p, "y", TE_F64, &py);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_node *xi = te_load (ctx, x, te_var (ctx, i));
  te_node *e = te_select (
      ctx, te_binary (ctx, TE_GT, xi, te_float (ctx, TE_F64, 0)),
      te_unary (ctx, TE_TANH, xi), te_mul (ctx, te_float (ctx, TE_F64, 0.25),
                                          xi));
  te_stage_add_stmt (p, s, y, te_var (ctx, i), TE_SET, e, NULL, 0);
  k.ctypes[pn] = "int";
  k.ints[pn] = 5;
  k.size[px] = k.size[py] = 5;
  static const double xs[] = { -1.5, -0.25, 0.3, 0.9, 2.0 };
  for (int e = 0; e < 5; e++)
    {
      k.val[px][e] = xs[e];
      k.c[py][e] = 0.5 + 0.25 * e;
    }
  check_kase (&k);
  /* No d_y: d_x receives nothing.  */
  k.null[py] = true;
  check_kase (&k);
  /* No d_x: nothing to do, nothing to crash.  */
  k.null[py] = false;
  k.null[px] = true;
  check_kase (&k);
}

static double
dense_fwd (const kase *k, double v[MAXP][MAXE])
{
  long n = k->ints[0], m = k->ints[1], kk = k->ints[2];
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      {
        double acc = v[5][j];
        for (long p = 0; p < kk; p++)
          acc += v[3][i * kk + p] * v[4][p * m + j];
        v[6][i * m + j] = tanh (acc);
      }
  return 0;
}

static void
test_dense (void)
{
  kase k = { .name = "dense", .tol = 1e-3, .forward = dense_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "dense");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0);
  int pk = te_program_add_param (p, "k", TE_PK_INT, TE_I64, 0);
  int px, pw, pb, py;
  te_tensor *x = ptr_param (p, "x", TE_F32, &px);
  te_tensor *w = ptr_param (p, "w", TE_F32, &pw);
  te_tensor *b = ptr_param (p, "b", TE_F32, &pb);
  te_tensor *y = ptr_param (p, "y", TE_F32, &py);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  int v = te_program_new_var (p, "p");
  te_node *n = te_param_ref (ctx, TE_I64, pn), *m = te_param_ref (ctx, TE_I64, pm);
  te_node *kk = te_param_ref (ctx, TE_I64, pk);
  te_node *vi = te_var (ctx, i), *vj = te_var (ctx, j), *vp = te_var (ctx, v);
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, n);
  te_stage_add_loop (s, j, m);
  te_loop l = { v, kk };
  te_node *term = te_mul (ctx, te_load (ctx, x, te_add (ctx, te_mul (ctx, vi, kk), vp)),
                          te_load (ctx, w, te_add (ctx, te_mul (ctx, vp, m), vj)));
  te_node *acc = te_reduce_node (ctx, TE_RED_SUM, 1, &l, te_load (ctx, b, vj),
                                 term);
  te_stage_add_stmt (p, s, y, te_add (ctx, te_mul (ctx, vi, m), vj), TE_SET,
                     te_unary (ctx, TE_TANH, acc), NULL, 0);
  k.ctypes[pn] = k.ctypes[pm] = k.ctypes[pk] = "int";
  k.ints[pn] = 2;
  k.ints[pm] = 3;
  k.ints[pk] = 4;
  k.size[px] = 8;
  k.size[pw] = 12;
  k.size[pb] = 3;
  k.size[py] = 6;
  for (int q = px; q <= py; q++)
    for (int e = 0; e < k.size[q]; e++)
      {
        /* Values exact in float, so the double forward sees the same.  */
        k.val[q][e] = (float) (0.6 * sin (1.7 * e + q) - 0.1);
        k.c[q][e] = (float) (0.5 + 0.125 * e);
      }
  check_kase (&k);
  k.null[pb] = true;
  check_kase (&k);
}

static double
rowmax_fwd (const kase *k, double v[MAXP][MAXE])
{
  long n = k->ints[0], m = k->ints[1];
  for (long i = 0; i < n; i++)
    {
      double mx = -INFINITY;
      for (long j = 0; j < m; j++)
        if (v[2][i * m + j] > mx)
          mx = v[2][i * m + j];
      v[4][i] = v[3][0] * mx;
    }
  return 0;
}

/* The first maximum of each row takes a * dy; d_a gets dy * max.  */
static void
rowmax_expect (const kase *k, double want[MAXP][MAXE])
{
  long n = k->ints[0], m = k->ints[1];
  for (long i = 0; i < n; i++)
    {
      long arg = 0;
      for (long j = 1; j < m; j++)
        if (k->val[2][i * m + j] > k->val[2][i * m + arg])
          arg = j;
      want[2][i * m + arg] += k->val[3][0] * k->c[4][i];
      want[3][0] += k->c[4][i] * k->val[2][i * m + arg];
    }
}

static void
test_rowmax (void)
{
  kase k = { .name = "rowmax", .tol = 1e-6, .forward = rowmax_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "rowmax");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pm = te_program_add_param (p, "m", TE_PK_INT, TE_I64, 0);
  int px, py;
  te_tensor *x = ptr_param (p, "x", TE_F64, &px);
  int pa = te_program_add_param (p, "a", TE_PK_FLOAT, TE_F64, 0);
  te_tensor *y = ptr_param (p, "y", TE_F64, &py);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  te_node *m = te_param_ref (ctx, TE_I64, pm);
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_loop l = { j, m };
  te_node *mx = te_reduce_node (
      ctx, TE_RED_MAX, 1, &l, te_red_identity (ctx, TE_RED_MAX, TE_F64),
      te_load (ctx, x, te_add (ctx, te_mul (ctx, te_var (ctx, i), m),
                               te_var (ctx, j))));
  te_stage_add_stmt (p, s, y, te_var (ctx, i), TE_SET,
                     te_mul (ctx, te_param_ref (ctx, TE_F64, pa), mx), NULL,
                     0);
  k.ctypes[pn] = "long int";
  k.ctypes[pm] = "long int";
  k.ctypes[pa] = "double";
  k.ints[pn] = 3;
  k.ints[pm] = 4;
  k.size[px] = 12;
  k.size[pa] = 1;
  k.size[py] = 3;
  static const double xs[] = { 0.5, 1.25, -2, 0.75,  -1, -0.5, -3, -0.25,
                               2,   0.125, 1, 1.5 };
  memcpy (k.val[px], xs, sizeof xs);
  k.val[pa][0] = 1.5;
  for (int e = 0; e < 3; e++)
    k.c[py][e] = 1 - 0.75 * e;
  check_kase (&k);
  /* Ties in row 1: the first maximum takes the adjoint.  */
  k.val[px][5] = k.val[px][7] = 4;
  k.expect = rowmax_expect;
  check_kase (&k);
}

static double
prod_fwd (const kase *k, double v[MAXP][MAXE])
{
  double r = 1;
  for (long i = 0; i < k->ints[0]; i++)
    r *= v[1][i];
  return r;
}

static void
test_prodret (void)
{
  kase k = { .name = "prodret", .tol = 1e-6, .forward = prod_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "prodret");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0), px;
  te_tensor *x = ptr_param (p, "x", TE_F64, &px);
  p->ret_type = TE_F64;
  p->ret = te_program_add_tensor (p, "return", TE_F64, TE_TK_RETURN, -1, 0);
  int i = te_program_new_var (p, "i");
  te_loop l = { i, te_param_ref (ctx, TE_I64, pn) };
  te_node *r = te_reduce_node (ctx, TE_RED_PROD, 1, &l,
                               te_float (ctx, TE_F64, 1),
                               te_load (ctx, x, te_var (ctx, i)));
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_stmt (p, s, p->ret, te_int (ctx, 0), TE_SET, r, NULL, 0);
  k.ctypes[pn] = "unsigned int";
  k.ints[pn] = 4;
  k.size[px] = 4;
  static const double xs[] = { 1.5, -0.5, 2.0, 0.75 };
  memcpy (k.val[px], xs, sizeof xs);
  k.c_ret = 0.625;
  check_kase (&k);
  k.val[px][2] = 0;
  check_kase (&k);
}

static double
cumsum_fwd (const kase *k, double v[MAXP][MAXE])
{
  v[2][0] = v[1][0];
  for (long i = 0; i < k->ints[0] - 1; i++)
    v[2][i + 1] = v[2][i] + 2 * v[1][i + 1];
  return 0;
}

/* A recurrence: its backward stage is fused and runs backwards.  */
static void
test_cumsum (void)
{
  kase k = { .name = "cumsum", .tol = 1e-6, .forward = cumsum_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "cumsum");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0), px, py;
  te_tensor *x = ptr_param (p, "x", TE_F64, &px);
  te_tensor *y = ptr_param (p, "y", TE_F64, &py);
  int i = te_program_new_var (p, "i");
  te_node *zero = te_int (ctx, 0), *vi = te_var (ctx, i);
  te_node *next = te_add (ctx, vi, te_int (ctx, 1));
  te_stage *s0 = te_program_add_stage (p, 0);
  te_stage_add_stmt (p, s0, y, zero, TE_SET, te_load (ctx, x, zero), NULL, 0);
  te_stage *s1 = te_program_add_stage (p, 0);
  te_stage_add_loop (s1, i, te_sub (ctx, te_param_ref (ctx, TE_I64, pn),
                                    te_int (ctx, 1)));
  te_stage_add_stmt (p, s1, y, next, TE_SET,
                     te_add (ctx, te_load (ctx, y, vi),
                             te_mul (ctx, te_float (ctx, TE_F64, 2),
                                     te_load (ctx, x, next))),
                     NULL, 0);
  k.ctypes[pn] = "int";
  k.ints[pn] = 5;
  k.size[px] = k.size[py] = 5;
  for (int e = 0; e < 5; e++)
    {
      k.val[px][e] = 0.5 - 0.375 * e;
      k.c[py][e] = 1 + 0.25 * e;
    }
  check_kase (&k);
  k.null[py] = true;
  check_kase (&k);
}

static double
gather_fwd (const kase *k, double v[MAXP][MAXE])
{
  long n = k->ints[0], d = k->ints[1];
  for (long i = 0; i < n; i++)
    for (long j = 0; j < d; j++)
      v[4][i * d + j] = v[3][(long) v[2][i] * d + j] * v[3][j];
  return 0;
}

/* Rows picked through an index array (a repeated index accumulates).  */
static void
test_gather (void)
{
  kase k = { .name = "gather", .tol = 1e-6, .forward = gather_fwd };
  te_program *p = k.fwd = te_program_new (ctx, "gather");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0);
  int pd = te_program_add_param (p, "d", TE_PK_INT, TE_I64, 0);
  int pi = te_program_add_param (p, "idx", TE_PK_PTR_INT, TE_I32, 0);
  te_tensor *idx = te_program_add_tensor (p, "idx", TE_I32, TE_TK_PARAM, pi,
                                          0);
  int pt, py;
  te_tensor *table = ptr_param (p, "table", TE_F64, &pt);
  te_tensor *y = ptr_param (p, "y", TE_F64, &py);
  int i = te_program_new_var (p, "i"), j = te_program_new_var (p, "j");
  te_node *d = te_param_ref (ctx, TE_I64, pd);
  te_node *vi = te_var (ctx, i), *vj = te_var (ctx, j);
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_stage_add_loop (s, j, d);
  te_node *row = te_cast (ctx, TE_I64, te_load (ctx, idx, vi));
  te_node *e = te_mul (ctx, te_load (ctx, table, te_add (ctx, te_mul (ctx, row, d), vj)),
                       te_load (ctx, table, vj));
  te_stage_add_stmt (p, s, y, te_add (ctx, te_mul (ctx, vi, d), vj), TE_SET,
                     e, NULL, 0);
  k.ctypes[pn] = k.ctypes[pd] = "int";
  k.ctypes[pi] = "const int *";
  k.ints[pn] = 3;
  k.ints[pd] = 2;
  k.size[pi] = 3;
  k.size[pt] = 6;
  k.size[py] = 6;
  static const double rows[] = { 2, 0, 2 };
  memcpy (k.val[pi], rows, sizeof rows);
  for (int e = 0; e < 6; e++)
    {
      k.val[pt][e] = 0.25 + 0.5 * e;
      k.c[py][e] = 1 - 0.25 * e;
    }
  check_kase (&k);
}

/* An integer parameter without a C type cannot be printed.  */
static void
test_missing_ctype (void)
{
  te_program *p = te_program_new (ctx, "noctype");
  int pn = te_program_add_param (p, "n", TE_PK_INT, TE_I64, 0), px, py;
  te_tensor *x = ptr_param (p, "x", TE_F64, &px);
  te_tensor *y = ptr_param (p, "y", TE_F64, &py);
  int i = te_program_new_var (p, "i");
  te_stage *s = te_program_add_stage (p, 0);
  te_stage_add_loop (s, i, te_param_ref (ctx, TE_I64, pn));
  te_stage_add_stmt (p, s, y, te_var (ctx, i), TE_SET,
                     te_unary (ctx, TE_EXP, te_load (ctx, x, te_var (ctx, i))),
                     NULL, 0);
  te_diag diag = { 0 };
  te_program *b = NULL;
  CHECK (te_program_roles (p, &diag) && (b = ad_reverse (p, true, &diag)));
  if (!b)
    return;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CHECK (!te_program_emit_c (f, b, NULL, p, NULL, true, &diag));
  fclose (f);
  CHECK (len == 0);
  CHECK (diag.kind == TE_DIAG_INTERNAL && strstr (diag.msg, "'n'"));
  free (buf);
}

int
main (void)
{
  cc = getenv ("CC");
  if (!cc || !*cc)
    cc = "gcc";
  char cmd[256];
  snprintf (cmd, sizeof cmd, "%s --version >/dev/null 2>&1", cc);
  if (system (cmd) != 0)
    {
      printf ("UNSUPPORTED: cgen-1: no C compiler ('%s') to compile the "
              "printed gradients\n", cc);
      return 0;
    }
  strcpy (dir, "/tmp/tg-cgen-XXXXXX");
  if (!mkdtemp (dir))
    {
      perror ("mkdtemp");
      return 1;
    }
  ctx = te_ctx_new ();
  test_tanh ();
  test_dense ();
  test_rowmax ();
  test_prodret ();
  test_cumsum ();
  test_gather ();
  test_missing_ctype ();
  te_ctx_free (ctx);
  if (!tg_failures && !getenv ("TG_KEEP"))
    {
      snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
      run_cmd (cmd);
    }
  else
    fprintf (stderr, "files kept in %s\n", dir);
  return tg_exit ();
}

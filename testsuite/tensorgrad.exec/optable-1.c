/* { dg-do run } */
/* Operator tables: file-scope initializers take the addresses of kernels
   and of their gradients, and the kernels and gradients are called only
   through the tables (the gradients' declarations were referenced before
   the plugin gave them bodies; that once crashed the compiler in
   fixup_cfg).  Four kernels, three signatures:
     twice_tanh (static, no prototype):  y[i] = 2 tanh (x[i]);
       d_x += d_y 2 (1 - tanh (x)^2)
     square_shift (public, no prototype): y[i] = x[i] * x[i] + 1;
       d_x += d_y 2 x
     mul_add (public, prototype written before it): y[i] = x[i] w[i] + w[i];
       d_x += d_y w; d_w += d_y (x + 1)
     sum_sq (static, returns a double): sum x[i]^2;  d_x += d_return 2 x
   in a static const table, a public table and a static writable one.
   Checks every gradient component against central differences of
   L = sum c[k] y[k] (or c * return) evaluated through the table,
   accumulation into pre-filled shadows, and that inputs, outputs and
   output shadows are untouched.  Checked by hand: the calls through the
   operator table are what is tested.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
static void
twice_tanh (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * tanh (x[i]);
}

__attribute__ ((differentiable))
void
square_shift (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] + 1.0;
}

void mul_add_grad (int n, const double *x, const double *w, double *y,
		   double *d_x, double *d_w, double *d_y);

__attribute__ ((differentiable))
void
mul_add (int n, const double *x, const double *w, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * w[i] + w[i];
}

__attribute__ ((differentiable))
static double
sum_sq (int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

struct unary_op
{
  const char *name;
  void (*f) (int, const double *, double *);
  void (*g) (int, const double *, double *, double *, double *);
};

static const struct unary_op unary_ops[] = {
  { "twice_tanh", twice_tanh, twice_tanh_grad },
  { "square_shift", square_shift, square_shift_grad },
};

struct binary_op
{
  const char *name;
  void (*f) (int, const double *, const double *, double *);
  void (*g) (int, const double *, const double *, double *, double *,
	     double *, double *);
};

const struct binary_op binary_ops[] = {
  { "mul_add", mul_add, mul_add_grad },
};

struct reduce_op
{
  const char *name;
  double (*f) (int, const double *);
  void (*g) (int, const double *, double *, double);
};

static struct reduce_op reduce_ops[] = {
  { "sum_sq", sum_sq, sum_sq_grad },
};

enum { N = 6 };

struct ctx
{
  int op;
  double *x, *w, *y, *c;
  double cr;
};

static double
unary_loss (void *v)
{
  struct ctx *k = v;
  unary_ops[k->op].f (N, k->x, k->y);
  return tg_dot (k->c, k->y, N);
}

static double
binary_loss (void *v)
{
  struct ctx *k = v;
  binary_ops[k->op].f (N, k->x, k->w, k->y);
  return tg_dot (k->c, k->y, N);
}

static double
reduce_loss (void *v)
{
  struct ctx *k = v;
  return k->cr * reduce_ops[k->op].f (N, k->x);
}

static void
check_unary (int op)
{
  double *x = tg_alloc (N), *y = tg_alloc (N), *c = tg_alloc (N);
  double *d_x = tg_alloc (N), *g_x = tg_alloc (N);
  tg_fill (x, N, 10 + op, -2, 2);
  tg_fill (c, N, 20 + op, -1, 1);
  tg_fill (d_x, N, 30 + op, -1, 1);

  unary_ops[op].f (N, x, y);
  double *x0 = tg_dup (x, N), *y0 = tg_dup (y, N), *d_y = tg_dup (c, N);
  double *pre_x = tg_dup (d_x, N);

  unary_ops[op].g (N, x, y, d_x, d_y);

  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (y, y0, N * sizeof *y);
  CHECK_SAME (d_y, c, N * sizeof *d_y);
  tg_sub (g_x, d_x, pre_x, N);
  struct ctx k = { op, x, NULL, y, c, 0 };
  tg_fd_check (unary_ops[op].name, x, N, unary_loss, &k, g_x, TG_RTOL,
	       TG_ATOL);
}

static void
check_binary (int op)
{
  double *x = tg_alloc (N), *w = tg_alloc (N), *y = tg_alloc (N);
  double *c = tg_alloc (N), *d_x = tg_alloc (N), *d_w = tg_alloc (N);
  double *g_x = tg_alloc (N), *g_w = tg_alloc (N);
  tg_fill (x, N, 40 + op, -2, 2);
  tg_fill (w, N, 50 + op, -2, 2);
  tg_fill (c, N, 60 + op, -1, 1);
  tg_fill (d_x, N, 70 + op, -1, 1);
  tg_fill (d_w, N, 80 + op, -1, 1);

  binary_ops[op].f (N, x, w, y);
  double *x0 = tg_dup (x, N), *w0 = tg_dup (w, N), *y0 = tg_dup (y, N);
  double *d_y = tg_dup (c, N);
  double *pre_x = tg_dup (d_x, N), *pre_w = tg_dup (d_w, N);

  binary_ops[op].g (N, x, w, y, d_x, d_w, d_y);

  CHECK_SAME (x, x0, N * sizeof *x);
  CHECK_SAME (w, w0, N * sizeof *w);
  CHECK_SAME (y, y0, N * sizeof *y);
  CHECK_SAME (d_y, c, N * sizeof *d_y);
  tg_sub (g_x, d_x, pre_x, N);
  tg_sub (g_w, d_w, pre_w, N);
  struct ctx k = { op, x, w, y, c, 0 };
  tg_fd_check ("x", x, N, binary_loss, &k, g_x, TG_RTOL, TG_ATOL);
  tg_fd_check ("w", w, N, binary_loss, &k, g_w, TG_RTOL, TG_ATOL);
}

static void
check_reduce (int op)
{
  double cr = -0.75;
  double *x = tg_alloc (N), *d_x = tg_alloc (N), *g_x = tg_alloc (N);
  tg_fill (x, N, 90 + op, -2, 2);
  tg_fill (d_x, N, 100 + op, -1, 1);

  reduce_ops[op].f (N, x);
  double *x0 = tg_dup (x, N), *pre_x = tg_dup (d_x, N);

  reduce_ops[op].g (N, x, d_x, cr);

  CHECK_SAME (x, x0, N * sizeof *x);
  tg_sub (g_x, d_x, pre_x, N);
  struct ctx k = { op, x, NULL, NULL, NULL, cr };
  tg_fd_check (reduce_ops[op].name, x, N, reduce_loss, &k, g_x, TG_RTOL,
	       TG_ATOL);
}

int
main (void)
{
  for (int op = 0; op < (int) (sizeof unary_ops / sizeof *unary_ops); op++)
    check_unary (op);
  for (int op = 0; op < (int) (sizeof binary_ops / sizeof *binary_ops); op++)
    check_binary (op);
  for (int op = 0; op < (int) (sizeof reduce_ops / sizeof *reduce_ops); op++)
    check_reduce (op);
  return tg_exit ();
}

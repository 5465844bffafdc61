/* { dg-do run } */
/* The gradient gets the checks of the passes that run after the
   plugin's, as the kernel does: pass_ubsan's, under ubsan.exp's
   -fsanitize=undefined -fno-sanitize-recover, among them the null check
   of every load.  A kernel that turns a check off for itself
   (__attribute__ ((no_sanitize ("null")))) turns it off for its
   gradient too.

   sq: y[i] = x[i]^2:  d_x[i] += 2 x[i] d_y[i].  Checked through its
   descriptor; then sq_grad, given a NULL x (which it reads), must stop on
   UBSan's report, while sq_unchecked_grad, the gradient of the same
   kernel without the null check, dies of the load itself.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
sq (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable, no_sanitize ("null")))
void
sq_unchecked (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

TG_DECLARE_GRADCHECK (sq);
TG_DECLARE_GRADCHECK (sq_unchecked);

static double y[4], d_x[4], d_y[4] = { 1, 2, 3, 4 };
/* Through volatiles, so that no pass sees the NULL, and the gradients
   are not inlined here: inlined, a gradient's loads are checked as this
   file's functions are.  */
static const double *volatile no_x;
typedef void grad_fn (int, const double *, double *, double *, double *);
static grad_fn *volatile checked = sq_grad, *volatile unchecked
    = sq_unchecked_grad;

static void
null_input (void)
{
  checked (4, no_x, y, d_x, d_y);
}

static void
null_input_unchecked (void)
{
  unchecked (4, no_x, y, d_x, d_y);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *yy = tg_alloc (n);
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (sq, &n, x, yy);
  TG_GRADCHECK (sq_unchecked, &n, x, yy);

  CHECK (tg_child_reports (null_input, "load of null pointer", 0));
  char buf[4096];
  int status = tg_child_run (null_input_unchecked, buf, sizeof buf);
  CHECK (status != -1 && WIFSIGNALED (status) && WTERMSIG (status) == SIGSEGV
	 && !strstr (buf, "runtime error: "));
  free (x), free (yy);
  return tg_exit ();
}

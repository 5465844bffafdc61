/* { dg-do run } */
/* A float dot product into a returned float, run-time length n = 7:
   float fdot (int n, const float *x, const float *w)
   { float s = 0.0f; for (i < n) s += x[i] * w[i]; return s; },
   gradient void fdot_grad (int n, const float *x, const float *w,
			    float *d_x, float *d_w, float d_return).
   d_x[i] += d_return w[i]; d_w[i] += d_return x[i].  Checks every d_x
   and d_w against central differences (float tolerances) with d_return
   = 0.75, accumulation into pre-filled shadows, and that x and w are
   untouched.  Kept with its own central differences, not tg_gradcheck's, so
   that the descriptor path is itself checked: a float returned value.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
float
fdot (int n, const float *x, const float *w)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * w[i];
  return s;
}

struct ctx
{
  int n;
  float *x, *w;
  float c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return (double) k->c * fdot (k->n, k->x, k->w);
}

int
main (void)
{
  int n = 7;
  float c = 0.75f;
  float *x = tg_alloc_f (n), *w = tg_alloc_f (n);
  float *d_x = tg_alloc_f (n), *d_w = tg_alloc_f (n);
  tg_fill_f (x, n, 1, -2, 2);
  tg_fill_f (w, n, 2, -2, 2);
  tg_fill_f (d_x, n, 3, -1, 1);
  tg_fill_f (d_w, n, 4, -1, 1);

  fdot (n, x, w);
  float *x0 = tg_dup_f (x, n), *w0 = tg_dup_f (w, n);
  float *pre_x = tg_dup_f (d_x, n), *pre_w = tg_dup_f (d_w, n);

  fdot_grad (n, x, w, d_x, d_w, c);

  CHECK_SAME (x, x0, n * sizeof *x);
  CHECK_SAME (w, w0, n * sizeof *w);
  float *g_x = tg_alloc_f (n), *g_w = tg_alloc_f (n);
  tg_sub_f (g_x, d_x, pre_x, n);
  tg_sub_f (g_w, d_w, pre_w, n);
  struct ctx k = { n, x, w, c };
  tg_fd_check_f ("x", x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("w", w, n, loss, &k, g_w, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}

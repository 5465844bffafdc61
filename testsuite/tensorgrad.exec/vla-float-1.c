/* { dg-do run } */
/* Float VLA parameters, n x m at run time, subtraction, division and a
   constant: y[i][j] = (x[i][j] - w[i][j]) / (w[i][j] + 3.0f), w in [0.5,
   2].  d_x += d_y / (w + 3); d_w += -d_y (x + 3) / (w + 3)^2.  Checks
   every d_x and d_w against central differences (float tolerances),
   accumulation into pre-filled shadows, and that x, w, y, d_y are
   untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
vla_ratio (int n, int m, const float x[n][m], const float w[n][m],
	   float y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i][j] = (x[i][j] - w[i][j]) / (w[i][j] + 3.0f);
}

struct ctx
{
  int n, m;
  float *x, *w, *y, *c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  int m = k->m;
  vla_ratio (k->n, m, (const float (*)[m]) k->x, (const float (*)[m]) k->w,
	     (float (*)[m]) k->y);
  return tg_dot_f (k->c, k->y, k->n * m);
}

int
main (void)
{
  int n = 3, m = 5, nm = n * m;
  float *x = tg_alloc_f (nm), *w = tg_alloc_f (nm), *y = tg_alloc_f (nm);
  float *c = tg_alloc_f (nm), *d_x = tg_alloc_f (nm), *d_w = tg_alloc_f (nm);
  tg_fill_f (x, nm, 1, -2, 2);
  tg_fill_f (w, nm, 2, 0.5, 2);
  tg_fill_f (c, nm, 3, -1, 1);
  tg_fill_f (d_x, nm, 4, -1, 1);
  tg_fill_f (d_w, nm, 5, -1, 1);

  vla_ratio (n, m, (const float (*)[m]) x, (const float (*)[m]) w,
	     (float (*)[m]) y);
  float *x0 = tg_dup_f (x, nm), *w0 = tg_dup_f (w, nm), *y0 = tg_dup_f (y, nm);
  float *d_y = tg_dup_f (c, nm);
  float *pre_x = tg_dup_f (d_x, nm), *pre_w = tg_dup_f (d_w, nm);

  vla_ratio_grad (n, m, (const float (*)[m]) x, (const float (*)[m]) w,
		  (float (*)[m]) y, (float (*)[m]) d_x, (float (*)[m]) d_w,
		  (float (*)[m]) d_y);

  CHECK_SAME (x, x0, nm * sizeof *x);
  CHECK_SAME (w, w0, nm * sizeof *w);
  CHECK_SAME (y, y0, nm * sizeof *y);
  CHECK_SAME (d_y, c, nm * sizeof *d_y);
  float *g_x = tg_alloc_f (nm), *g_w = tg_alloc_f (nm);
  tg_sub_f (g_x, d_x, pre_x, nm);
  tg_sub_f (g_w, d_w, pre_w, nm);
  struct ctx k = { n, m, x, w, y, c };
  tg_fd_check_f ("x", x, nm, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("w", w, nm, loss, &k, g_w, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}

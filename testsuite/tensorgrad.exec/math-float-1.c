/* { dg-do run } */
/* The float math library, one output per function, in one 1-D loop:
   expf logf sqrtf log1pf of x in [0.5, 2] and tanhf sinf cosf erff expm1f
   of u in [-1.5, 1.5]; the gradient computes in float.  Checks every d_x[i]
   and d_u[i] against central differences (float tolerances),
   accumulation into pre-filled d_x and d_u, and that x, u, every y_k and
   every d_y_k are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
mathf_kernel (int n, const float *x, const float *u, float *ye, float *yl,
	      float *yq, float *yp, float *yt, float *ys, float *yc,
	      float *yr, float *ym)
{
  for (int i = 0; i < n; i++)
    {
      ye[i] = expf (x[i]);
      yl[i] = logf (x[i]);
      yq[i] = sqrtf (x[i]);
      yp[i] = log1pf (x[i]);
      yt[i] = tanhf (u[i]);
      ys[i] = sinf (u[i]);
      yc[i] = cosf (u[i]);
      yr[i] = erff (u[i]);
      ym[i] = expm1f (u[i]);
    }
}

#define K 9

struct ctx
{
  int n;
  float *x, *u, *y[K], *c[K];
};

static void
fwd (struct ctx *k)
{
  mathf_kernel (k->n, k->x, k->u, k->y[0], k->y[1], k->y[2], k->y[3],
		k->y[4], k->y[5], k->y[6], k->y[7], k->y[8]);
}

static double
loss (void *p)
{
  struct ctx *k = p;
  double l = 0;
  fwd (k);
  for (int j = 0; j < K; j++)
    l += tg_dot_f (k->c[j], k->y[j], k->n);
  return l;
}

int
main (void)
{
  int n = 5;
  struct ctx k;
  float *y0[K], *d_y[K];
  k.n = n;
  k.x = tg_alloc_f (n);
  k.u = tg_alloc_f (n);
  tg_fill_f (k.x, n, 1, 0.5, 2.0);
  tg_fill_f (k.u, n, 2, -1.5, 1.5);
  for (int j = 0; j < K; j++)
    {
      k.y[j] = tg_alloc_f (n);
      k.c[j] = tg_alloc_f (n);
      tg_fill_f (k.c[j], n, 10 + j, -1, 1);
    }
  float *d_x = tg_alloc_f (n), *d_u = tg_alloc_f (n);
  tg_fill_f (d_x, n, 3, -1, 1);
  tg_fill_f (d_u, n, 4, -1, 1);

  fwd (&k);
  float *x0 = tg_dup_f (k.x, n), *u0 = tg_dup_f (k.u, n);
  float *pre_x = tg_dup_f (d_x, n), *pre_u = tg_dup_f (d_u, n);
  for (int j = 0; j < K; j++)
    {
      y0[j] = tg_dup_f (k.y[j], n);
      d_y[j] = tg_dup_f (k.c[j], n);
    }

  mathf_kernel_grad (n, k.x, k.u, k.y[0], k.y[1], k.y[2], k.y[3], k.y[4],
		     k.y[5], k.y[6], k.y[7], k.y[8], d_x, d_u, d_y[0], d_y[1],
		     d_y[2], d_y[3], d_y[4], d_y[5], d_y[6], d_y[7], d_y[8]);

  CHECK_SAME (k.x, x0, n * sizeof (float));
  CHECK_SAME (k.u, u0, n * sizeof (float));
  for (int j = 0; j < K; j++)
    {
      CHECK_AT (memcmp (k.y[j], y0[j], n * sizeof (float)) == 0, j);
      CHECK_AT (memcmp (d_y[j], k.c[j], n * sizeof (float)) == 0, j);
    }
  float *g_x = tg_alloc_f (n), *g_u = tg_alloc_f (n);
  tg_sub_f (g_x, d_x, pre_x, n);
  tg_sub_f (g_u, d_u, pre_u, n);
  tg_fd_check_f ("x", k.x, n, loss, &k, g_x, TG_RTOL_F, TG_ATOL_F);
  tg_fd_check_f ("u", k.u, n, loss, &k, g_u, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}

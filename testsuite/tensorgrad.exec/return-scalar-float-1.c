/* { dg-do run } */
/* A kernel returning float, straight-line from three by-value floats,
   with the f-suffixed math library:
   float f (float a, float b, float c)
   { return a * b / c + expf (c) - sqrtf (a); },
   gradient void f_grad (float a, float b, float c, float *d_a,
			 float *d_b, float *d_c, float d_return).
   Checks d_a, d_b, d_c against central differences (float tolerances)
   of L = c_ret * f, and accumulation into pre-filled shadows.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
float
mix3 (float a, float b, float c)
{
  return a * b / c + expf (c) - sqrtf (a);
}

struct ctx
{
  float abc[3];
  float c;
};

static double
loss (void *v)
{
  struct ctx *k = v;
  return (double) k->c * mix3 (k->abc[0], k->abc[1], k->abc[2]);
}

int
main (void)
{
  struct ctx k = { { 1.5f, -0.75f, 0.625f }, -1.5f };
  float d[3] = { 0.25f, -0.5f, 1.0f }, pre[3], g[3];
  memcpy (pre, d, sizeof d);
  mix3_grad (k.abc[0], k.abc[1], k.abc[2], &d[0], &d[1], &d[2], k.c);
  tg_sub_f (g, d, pre, 3);
  tg_fd_check_f ("abc", k.abc, 3, loss, &k, g, TG_RTOL_F, TG_ATOL_F);
  return tg_exit ();
}

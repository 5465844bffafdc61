/* { dg-do run } */
/* Constant tables shared by a kernel and one it calls, and an integer
   table used as a permutation.
   outer:    calls weigh (inlined: one table w for both), then
             y[i] = w[(i+1) % 3] t[i], t[i] = w[i % 3] x[i]^2:
             d_x[i] += 2 w[i % 3] w[(i+1) % 3] x[i] d_y[i].
   permute:  y[i] = w[i % 3] x[perm[i]], perm a static const int table
             (a gather through constants): d_x[perm[i]] += w[i % 3] d_y[i];
             with perm = { 2, 0, 3, 1 } and d_y = { 1, 2, 3, 4 } that is
             d_x = { -4, 2, 0.5, 4.5 }, checked exactly and against
             central differences.  */

#include "tg-test.h"

static const double w[3] = { 0.5, -2.0, 1.5 };
static const int perm[4] = { 2, 0, 3, 1 };

__attribute__ ((differentiable))
void
weigh (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = w[i % 3] * x[i] * x[i];
}

__attribute__ ((differentiable))
void
outer (int n, const double *x, double *y, double *t)
{
  weigh (n, x, t);
  for (int i = 0; i < n; i++)
    y[i] = w[(i + 1) % 3] * t[i];
}

__attribute__ ((differentiable))
void
permute (const double *x, double *y)
{
  for (int i = 0; i < 4; i++)
    y[i] = x[perm[i]] * w[i % 3];
}

static double XP[4], YP[4], DY[4] = { 1, 2, 3, 4 };

static double
loss_permute (void *c)
{
  (void) c;
  permute (XP, YP);
  return tg_dot (DY, YP, 4);
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n), *t = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  TG_GRADCHECK (outer, &n, x, y, t);

  double dx[4] = { 0 }, dy[4];
  memcpy (dy, DY, sizeof dy);
  tg_fill (XP, 4, 2, -1, 1);
  permute (XP, YP);
  permute_grad (XP, YP, dx, dy);
  CHECK_SAME (dy, DY, sizeof dy);
  CHECK_NEAR (dx[0], -4.0, 0, 0);
  CHECK_NEAR (dx[1], 2.0, 0, 0);
  CHECK_NEAR (dx[2], 0.5, 0, 0);
  CHECK_NEAR (dx[3], 4.5, 0, 0);
  tg_fd_check ("x", XP, 4, loss_permute, NULL, dx, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Explicit Euler with arrays of state: n uncoupled oscillators, the
   velocities v and positions x updated in place at every step, x reading
   the v of the same step:
     for t: for i: v[i] += dt (-k x[i]^p - c v[i]);  for i: x[i] += dt v[i];
   x and v are local arrays copied from the inputs x0 and v0 (or zeroed);
   each becomes a tape with one row per step (carry.c), and the gradient
   runs the steps backwards: with v' = v_t + dt (-k f(x_t) - c v_t),
   x' = x_t + dt v',  dv' += dx' dt;  dx_t += dx' + dv' dt (-k f'(x_t));
   dv_t += dv' (1 - dt c);  d_k -= dv' dt f(x_t); d_c -= dv' dt v_t;
   d_dt += dx' v' + dv' (-k f(x_t) - c v_t).
   euler:    double, linear force (p = 1), damping, the final x and v in
             outputs; also with d_x0 NULL.
   euler_f:  float, a cubic force (-k x^3), v zeroed, the positions of
             every step stored in xs.
   decay:    a state in the caller's in-out x, x[i] = 0.5 x[i] + y[t][i]:
             the gradient needs no state, only d_x (its entry adjoint
             0.5^T d_x) and d_y[t][i] = 0.5^(T-1-t) d_x[i].  */

#include "tg-test.h"

__attribute__ ((differentiable)) void
euler (int T, int n, double dt, double k, double c, const double *x0,
       const double *v0, double *xT, double *vT)
{
  double x[16], v[16];
  for (int i = 0; i < n; i++)
    {
      x[i] = x0[i];
      v[i] = v0[i];
    }
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
        v[i] += dt * (-k * x[i] - c * v[i]);
      for (int i = 0; i < n; i++)
        x[i] += dt * v[i];
    }
  for (int i = 0; i < n; i++)
    {
      xT[i] = x[i];
      vT[i] = v[i];
    }
}

__attribute__ ((differentiable)) void
euler_f (int T, int n, float dt, float k, const float *x0, float *xs)
{
  float x[n], v[n];
  for (int i = 0; i < n; i++)
    {
      x[i] = x0[i];
      v[i] = 0;
    }
  for (int t = 0; t < T; t++)
    {
      for (int i = 0; i < n; i++)
        v[i] += dt * (-k * x[i] * x[i] * x[i]);
      for (int i = 0; i < n; i++)
        {
          x[i] += dt * v[i];
          xs[t * n + i] = x[i];
        }
    }
}

__attribute__ ((differentiable)) void
decay (int T, int n, const double *y, double *x)
{
  for (int t = 0; t < T; t++)
    for (int i = 0; i < n; i++)
      x[i] = 0.5 * x[i] + y[t * n + i];
}

int
main (void)
{
  int T = 7, n = 3;
  double dt = 0.1, k = 2.0, damp = 0.3;
  double *x0 = tg_alloc (n), *v0 = tg_alloc (n);
  double *xT = tg_alloc (n), *vT = tg_alloc (n);
  tg_fill (x0, n, 1, -1, 1);
  tg_fill (v0, n, 2, -0.5, 0.5);
  TG_GRADCHECK (euler, &T, &n, &dt, &k, &damp, x0, v0, xT, vT);
  TG_GRADCHECK_NULL (euler, "x0", &T, &n, &dt, &k, &damp, x0, v0, xT, vT);

  int Tf = 5;
  float dtf = 0.2f, kf = 1.5f;
  float *x0f = tg_alloc_f (n), *xs = tg_alloc_f (Tf * n);
  tg_fill_f (x0f, n, 3, -1, 1);
  TG_GRADCHECK (euler_f, &Tf, &n, &dtf, &kf, x0f, xs);

  double *y = tg_alloc (T * n), *xs0 = tg_alloc (n);
  tg_fill (y, T * n, 4, -1, 1);
  tg_fill (xs0, n, 5, -1, 1);
  TG_GRADCHECK (decay, &T, &n, y, xs0);
  return tg_exit ();
}

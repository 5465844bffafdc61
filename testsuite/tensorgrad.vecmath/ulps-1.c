/* -fplugin-arg-tensorgrad-vector-math: the accuracy the README states.
   For each math function F that the option lets GCC call in vector form
   (libmvec's), in float and double, the kernel y = w * F (x) (F (x, z)
   for pow, atan2, hypot) has the gradient
       d_w += d_y * F (x),   d_x += d_y * w * F' (x)   (and d_z),
   so with d_y = 1 and d_w = 0 the gradient writes F (x) itself into d_w:
   each element is checked against F computed in MPFR (200 bits), within
   TG_VM_ULPS units in the last place (ulp of the exact value, at least
   the smallest subnormal's), and where the correctly rounded result is
   an infinity or a NaN the gradient's must be the same.  The inputs:
   uniform over each function's interesting range, log-uniform magnitudes
   of both signs over the whole exponent range (subnormals, overflow,
   arguments out of the domain), and edges: zeros, subnormals, the
   extremes, infinities and NaN.  An odd count: the vector loop's scalar
   epilogue runs too.  The whole gradient (d_x, d_z) is checked against
   central differences on ordinary inputs.  vecmath.exp checks that the
   -O2 and -O3 executables call libmvec (_ZGV...) for every function but
   pow: its gradient's loop stays scalar (d_z's term, pow (x, z) log x,
   runs under x > 0, and GCC 12 if-converts no call but a builtin's).
   asin's and acos's gradients take a square root, the instruction with
   the option (-fmath-errno's sqrt is a branch to a call).  */
/* { dg-final { tg-vector-calls "expf exp exp2f exp2 expm1f expm1 logf log log2f log2 log10f log10 log1pf log1p cbrtf cbrt sinf sin cosf cos tanf tan asinf asin acosf acos atanf atan sinhf sinh coshf cosh tanhf tanh erff erf erfcf erfc atan2f atan2 hypotf hypot" } } */

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include "tg-test.h"

/* glibc's bound for libmvec (4 ulp), which the README states.  */
#ifndef TG_VM_ULPS
#define TG_VM_ULPS 4.0
#endif

#define UNARY(F, T)                                                          \
  __attribute__ ((differentiable)) void k_##F (int n, const T *x,          \
                                                const T *w, T *y)           \
  {                                                                         \
    for (int i = 0; i < n; i++)                                             \
      y[i] = w[i] * F (x[i]);                                               \
  }
#define BINARY(F, T)                                                         \
  __attribute__ ((differentiable)) void k_##F (int n, const T *x,          \
                                                const T *z, const T *w,     \
                                                T *y)                       \
  {                                                                         \
    for (int i = 0; i < n; i++)                                             \
      y[i] = w[i] * F (x[i], z[i]);                                         \
  }
#define BOTH(F, M) M (F##f, float) M (F, double)

BOTH (exp, UNARY)
BOTH (exp2, UNARY)
BOTH (expm1, UNARY)
BOTH (log, UNARY)
BOTH (log2, UNARY)
BOTH (log10, UNARY)
BOTH (log1p, UNARY)
BOTH (cbrt, UNARY)
BOTH (sin, UNARY)
BOTH (cos, UNARY)
BOTH (tan, UNARY)
BOTH (asin, UNARY)
BOTH (acos, UNARY)
BOTH (atan, UNARY)
BOTH (sinh, UNARY)
BOTH (cosh, UNARY)
BOTH (tanh, UNARY)
BOTH (erf, UNARY)
BOTH (erfc, UNARY)
BOTH (pow, BINARY)
BOTH (atan2, BINARY)
BOTH (hypot, BINARY)

typedef int (*mp1) (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mp2) (mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
typedef void (*grad1f) (int, const float *, const float *, float *, float *,
                        float *, float *);
typedef void (*grad1d) (int, const double *, const double *, double *,
                        double *, double *, double *);
typedef void (*grad2f) (int, const float *, const float *, const float *,
                        float *, float *, float *, float *, float *);
typedef void (*grad2d) (int, const double *, const double *, const double *,
                        double *, double *, double *, double *, double *);

/* A function: its gradients, MPFR's F, the range its uniform inputs
   cover (LO, HI) and its second operand's (LO2, HI2).  */
struct fn
{
  const char *name;
  void *gf, *gd; /* grad1f/grad1d, or grad2f/grad2d when M2 */
  mp1 m1;
  mp2 m2;
  double lo, hi, lo2, hi2;
};

#define U(F, LO, HI)                                                         \
  { #F, (void *) k_##F##f_grad, (void *) k_##F##_grad, mpfr_##F, NULL, LO,  \
    HI, 0, 0 }
#define B(F, LO, HI, LO2, HI2)                                               \
  { #F, (void *) k_##F##f_grad, (void *) k_##F##_grad, NULL, mpfr_##F, LO,  \
    HI, LO2, HI2 }

static const struct fn fns[] = {
  U (exp, -110, 90),    U (exp2, -160, 130),   U (expm1, -20, 90),
  U (log, 0, 100),      U (log2, 0, 100),      U (log10, 0, 100),
  U (log1p, -1, 100),   U (cbrt, -100, 100),   U (sin, -1e4, 1e4),
  U (cos, -1e4, 1e4),   U (tan, -1e4, 1e4),    U (asin, -1, 1),
  U (acos, -1, 1),      U (atan, -50, 50),     U (sinh, -100, 100),
  U (cosh, -100, 100),  U (tanh, -20, 20),     U (erf, -6, 6),
  U (erfc, -6, 30),     B (pow, 0, 100, -40, 40),
  B (atan2, -10, 10, -10, 10), B (hypot, -1e3, 1e3, -1e3, 1e3),
};

enum { NRAND = 4001 };

/* Input I of N for function F, operand K (0 or 1), in a format of
   precision P bits and largest exponent EMAX: edges first, then half
   uniform over the function's range, half log-uniform over all
   magnitudes with either sign.  */
static double
input (const struct fn *f, int k, int i, unsigned *s, int p, int emax,
       double tiny, double huge)
{
  const double edges[] = {
    0.0, -0.0, tiny, -tiny, tiny * 12345, ldexp (1.0, p == 24 ? -126 : -1022),
    -ldexp (1.0, p == 24 ? -126 : -1022), 1.0, -1.0, 0.5, 2.0, huge, -huge,
    INFINITY, -INFINITY, NAN, 1e-7, -1e-7
  };
  int ne = sizeof edges / sizeof edges[0];
  double lo = k ? f->lo2 : f->lo, hi = k ? f->hi2 : f->hi;
  if (i < ne)
    return edges[(i + 5 * k) % ne];
  if (i < ne + 4)
    /* The ends of the uniform range: overflow and underflow thresholds. */
    return i & 1 ? lo : hi;
  double u = tg_rand (s);
  if (i & 1)
    return lo + (hi - lo) * u;
  double m = ldexp (1.0, (int) ((2 * emax + p) * u) - emax - p);
  return tg_rand (s) < 0.5 ? -m : m;
}

static double worst[2][sizeof fns / sizeof fns[0]];

/* Error of GOT (exactly representable) against F at X, Z in ulps of the
   exact value in a format of P bits whose smallest normal exponent is
   EMIN (MPFR's convention, 0.5 <= m < 1); -1 when the correctly rounded
   value is an infinity or a NaN and GOT is the same, INFINITY when GOT is
   wrong there.  */
static double
ulps (const struct fn *f, double x, double z, double got, int p, int emin)
{
  mpfr_t mx, mz, r, d;
  mpfr_inits2 (200, mx, mz, r, d, (mpfr_ptr) 0);
  mpfr_set_d (mx, x, MPFR_RNDN);
  mpfr_set_d (mz, z, MPFR_RNDN);
  if (f->m1)
    f->m1 (r, mx, MPFR_RNDN);
  else
    f->m2 (r, mx, mz, MPFR_RNDN);
  double ref = p == 24 ? (double) mpfr_get_flt (r, MPFR_RNDN)
                       : mpfr_get_d (r, MPFR_RNDN);
  double e;
  if (isnan (ref))
    e = isnan (got) ? -1 : INFINITY;
  else if (isinf (ref))
    e = got == ref ? -1 : INFINITY;
  else if (!isfinite (got))
    e = INFINITY;
  else
    {
      mpfr_exp_t ex = mpfr_zero_p (r) ? emin : mpfr_get_exp (r);
      if (ex < emin)
        ex = emin;
      mpfr_set_d (d, got, MPFR_RNDN);
      mpfr_sub (d, d, r, MPFR_RNDN);
      mpfr_abs (d, d, MPFR_RNDN);
      mpfr_mul_2si (d, d, p - ex, MPFR_RNDN);
      e = mpfr_get_d (d, MPFR_RNDU);
    }
  mpfr_clears (mx, mz, r, d, (mpfr_ptr) 0);
  return e;
}

static void
check_fn (int j, int dbl)
{
  const struct fn *f = &fns[j];
  int n = NRAND, p = dbl ? 53 : 24, emax = dbl ? 1024 : 128;
  int emin = dbl ? -1021 : -125;
  double tiny = dbl ? 4.9406564584124654e-324 : 1.40129846e-45;
  double huge = dbl ? DBL_MAX : FLT_MAX;
  double *x = tg_alloc (n), *z = tg_alloc (n), *r = tg_alloc (n);
  unsigned s = 7u + 31u * j + dbl;
  for (int i = 0; i < n; i++)
    {
      x[i] = input (f, 0, i, &s, p, emax, tiny, huge);
      z[i] = input (f, 1, i, &s, p, emax, tiny, huge);
    }
  if (dbl)
    {
      double *w = tg_alloc (n), *y = tg_alloc (n), *dw = tg_alloc (n);
      double *dy = tg_alloc (n), *dx = tg_alloc (n), *dz = tg_alloc (n);
      for (int i = 0; i < n; i++)
        w[i] = dy[i] = 1;
      /* Every shadow: the gradient's loop for them all runs, the one
         vectorized at -O2 too (no NULL tests inside).  */
      if (f->m1)
        ((grad1d) f->gd) (n, x, w, y, dx, dw, dy);
      else
        ((grad2d) f->gd) (n, x, z, w, y, dx, dz, dw, dy);
      for (int i = 0; i < n; i++)
        r[i] = dw[i];
      free (w), free (y), free (dw), free (dy), free (dx), free (dz);
    }
  else
    {
      float *xf = tg_alloc_f (n), *zf = tg_alloc_f (n), *w = tg_alloc_f (n);
      float *y = tg_alloc_f (n), *dw = tg_alloc_f (n), *dy = tg_alloc_f (n);
      float *dx = tg_alloc_f (n), *dz = tg_alloc_f (n);
      for (int i = 0; i < n; i++)
        {
          /* Exactly representable inputs: round the doubles, and keep
             the edges of float's own range.  */
          xf[i] = (float) x[i], zf[i] = (float) z[i];
          x[i] = xf[i], z[i] = zf[i];
          w[i] = dy[i] = 1;
        }
      if (f->m1)
        ((grad1f) f->gf) (n, xf, w, y, dx, dw, dy);
      else
        ((grad2f) f->gf) (n, xf, zf, w, y, dx, dz, dw, dy);
      for (int i = 0; i < n; i++)
        r[i] = dw[i];
      free (xf), free (zf), free (w), free (y), free (dw), free (dy);
      free (dx), free (dz);
    }
  for (int i = 0; i < n; i++)
    {
      double e = ulps (f, x[i], z[i], r[i], p, emin);
      if (e > worst[dbl][j])
        worst[dbl][j] = e;
      char what[160], args[80];
      if (f->m1)
        snprintf (args, sizeof args, "%a", x[i]);
      else
        snprintf (args, sizeof args, "%a, %a", x[i], z[i]);
      snprintf (what, sizeof what, "%s%s (%s) = %a: %g ulp", f->name,
                dbl ? "" : "f", args, r[i], e);
      tg_check_ (e <= TG_VM_ULPS, what, __FILE__, __LINE__, NULL, 0);
    }
  free (x), free (z), free (r);
}

/* The whole gradient against central differences at ordinary points,
   where every function here is smooth: 0.3 <= x, z <= 0.9.  */
#define GC1(F, T, FILL, ALLOC)                                               \
  do                                                                        \
    {                                                                       \
      int n = 37;                                                           \
      T *x = ALLOC (n), *w = ALLOC (n), *y = ALLOC (n);                     \
      FILL (x, n, 1, 0.3, 0.9);                                             \
      FILL (w, n, 2, -1, 1);                                                \
      TG_GRADCHECK (k_##F, &n, x, w, y);                                    \
      free (x), free (w), free (y);                                         \
    }                                                                       \
  while (0)
#define GC2(F, T, FILL, ALLOC)                                               \
  do                                                                        \
    {                                                                       \
      int n = 37;                                                           \
      T *x = ALLOC (n), *z = ALLOC (n), *w = ALLOC (n), *y = ALLOC (n);     \
      FILL (x, n, 3, 0.3, 0.9);                                             \
      FILL (z, n, 4, 0.3, 0.9);                                             \
      FILL (w, n, 5, -1, 1);                                                \
      TG_GRADCHECK (k_##F, &n, x, z, w, y);                                 \
      free (x), free (z), free (w), free (y);                               \
    }                                                                       \
  while (0)
#define GC(F, M)                                                             \
  M (F##f, float, tg_fill_f, tg_alloc_f);                                   \
  M (F, double, tg_fill, tg_alloc)

int
main (void)
{
  int nf = sizeof fns / sizeof fns[0];
  for (int j = 0; j < nf; j++)
    for (int dbl = 0; dbl < 2; dbl++)
      check_fn (j, dbl);
  for (int j = 0; j < nf; j++)
    printf ("%-6s worst error: float %.3g ulp, double %.3g ulp\n",
            fns[j].name, worst[0][j], worst[1][j]);
  GC (exp, GC1); GC (exp2, GC1); GC (expm1, GC1); GC (log, GC1);
  GC (log2, GC1); GC (log10, GC1); GC (log1p, GC1); GC (cbrt, GC1);
  GC (sin, GC1); GC (cos, GC1); GC (tan, GC1); GC (asin, GC1);
  GC (acos, GC1); GC (atan, GC1); GC (sinh, GC1); GC (cosh, GC1);
  GC (tanh, GC1); GC (erf, GC1); GC (erfc, GC1); GC (pow, GC2);
  GC (atan2, GC2); GC (hypot, GC2);
  return tg_exit ();
}

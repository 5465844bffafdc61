/* Shared helpers of the tensorgrad execution tests.

   Header-only C99; every function is static inline so a test that does not
   use one gets no warning.  A test typically:

     1. fills its inputs with tg_fill (deterministic, seeded) and the
        weights C of the loss L = sum_k C[k] * y[k] (+ c_ret * ret);
     2. runs the forward kernel, copies inputs and outputs (tg_dup);
     3. sets each output shadow to its weights, pre-fills the input
        shadows with known values (the gradient must ADD to them), calls
        the generated f_grad;
     4. checks with CHECK_SAME that f_grad wrote nothing but the shadows,
        and with tg_fd_check that GRAD_AFTER - PREFILL equals the central
        finite difference of L for every component;
     5. returns tg_exit ().

   CHECK and CHECK_NEAR print the expression, both values, file:line and,
   in their _AT forms, the index; failures are counted and tg_exit returns
   a non-zero status when any occurred.  */

#ifndef TG_TEST_H
#define TG_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tolerances for comparing a gradient with central differences: double
   kernels (h about 1e-6 relative) and float kernels (h about 3e-3
   relative, float rounding in the forward).  */
#ifndef TG_RTOL
#define TG_RTOL 1e-6
#endif
#ifndef TG_ATOL
#define TG_ATOL 1e-7
#endif
#ifndef TG_RTOL_F
#define TG_RTOL_F 2e-2
#endif
#ifndef TG_ATOL_F
#define TG_ATOL_F 2e-3
#endif

static int tg_failures __attribute__ ((unused));
static int tg_checks __attribute__ ((unused));

/* Print at most this many failure lines; count all.  */
#define TG_MAX_REPORTS 60

static inline void
tg_report_failure (void)
{
  tg_failures++;
  if (tg_failures == TG_MAX_REPORTS + 1)
    fprintf (stderr, "tg: further failures not printed\n");
}

/* Record check COND of expression EXPR at FILE:LINE, with index IDXNAME =
   IDX when IDXNAME is not NULL.  */
static inline int
tg_check_ (int cond, const char *expr, const char *file, int line,
	   const char *idxname, long idx)
{
  tg_checks++;
  if (cond)
    return 1;
  tg_report_failure ();
  if (tg_failures <= TG_MAX_REPORTS)
    {
      fprintf (stderr, "%s:%d: FAIL: %s", file, line, expr);
      if (idxname)
	fprintf (stderr, " [%s = %ld]", idxname, idx);
      fprintf (stderr, "\n");
    }
  return 0;
}

/* Whether A and B agree: |A - B| <= ATOL + RTOL * max (|A|, |B|).  NaNs
   never agree; equal infinities do.  */
static inline int
tg_near (double a, double b, double rtol, double atol)
{
  double scale;
  if (a == b)
    return 1;
  if (isnan (a) || isnan (b) || isinf (a) || isinf (b))
    return 0;
  scale = fabs (a) > fabs (b) ? fabs (a) : fabs (b);
  return fabs (a - b) <= atol + rtol * scale;
}

/* Check that A (expression EA) is near B (expression EB).  */
static inline int
tg_check_near_ (double a, double b, double rtol, double atol, const char *ea,
		const char *eb, const char *file, int line,
		const char *idxname, long idx)
{
  tg_checks++;
  if (tg_near (a, b, rtol, atol))
    return 1;
  tg_report_failure ();
  if (tg_failures <= TG_MAX_REPORTS)
    {
      fprintf (stderr, "%s:%d: FAIL: %s = %.17g, %s = %.17g"
	       " (diff %.3g, rtol %g, atol %g)",
	       file, line, ea, a, eb, b, a - b, rtol, atol);
      if (idxname)
	fprintf (stderr, " [%s = %ld]", idxname, idx);
      fprintf (stderr, "\n");
    }
  return 0;
}

#define CHECK(cond) tg_check_ ((cond) != 0, #cond, __FILE__, __LINE__, NULL, 0)
#define CHECK_AT(cond, i)                                                     \
  tg_check_ ((cond) != 0, #cond, __FILE__, __LINE__, #i, (long) (i))
#define CHECK_NEAR(a, b, rtol, atol)                                          \
  tg_check_near_ ((double) (a), (double) (b), (rtol), (atol), #a, #b,        \
		  __FILE__, __LINE__, NULL, 0)
#define CHECK_NEAR_AT(a, b, rtol, atol, i)                                    \
  tg_check_near_ ((double) (a), (double) (b), (rtol), (atol), #a, #b,        \
		  __FILE__, __LINE__, #i, (long) (i))

/* Check that the BYTES bytes at A and B are identical (memcmp: also tells
   -0.0 from 0.0 and catches any write).  */
#define CHECK_SAME(a, b, bytes)                                               \
  tg_check_ (memcmp ((a), (b), (bytes)) == 0,                                 \
	     "memcmp (" #a ", " #b ", " #bytes ") == 0", __FILE__, __LINE__,  \
	     NULL, 0)

/* Print the summary; return the exit status of the test: 0 when every
   check passed, 1 otherwise, and when there was none (a test that checks
   nothing must not pass).  */
static inline int
tg_exit (void)
{
  if (!tg_checks)
    {
      fprintf (stderr, "tg: no check ran\n");
      return 1;
    }
  if (tg_failures)
    fprintf (stderr, "tg: %d of %d checks FAILED\n", tg_failures, tg_checks);
  else
    printf ("tg: %d checks passed\n", tg_checks);
  return tg_failures ? 1 : 0;
}

/* Deterministic generator: the next value in [0, 1) of state *S.  */
static inline double
tg_rand (unsigned *s)
{
  *s = *s * 1664525u + 1013904223u;
  return (double) (*s >> 8) / 16777216.0;
}

/* Fill A[0..N-1] with pseudo-random values in [LO, HI) from SEED.  */
static inline void
tg_fill (double *a, int n, unsigned seed, double lo, double hi)
{
  unsigned s = seed * 2654435761u + 12345u;
  for (int i = 0; i < n; i++)
    a[i] = lo + (hi - lo) * tg_rand (&s);
}

static inline void
tg_fill_f (float *a, int n, unsigned seed, double lo, double hi)
{
  unsigned s = seed * 2654435761u + 12345u;
  for (int i = 0; i < n; i++)
    a[i] = (float) (lo + (hi - lo) * tg_rand (&s));
}

/* Like tg_fill, but no value lies within GAP of KINK (the non-smooth
   point of fabs, relu, ...): such values are drawn again.  */
static inline void
tg_fill_away (double *a, int n, unsigned seed, double lo, double hi,
	      double kink, double gap)
{
  unsigned s = seed * 2654435761u + 12345u;
  for (int i = 0; i < n; i++)
    do
      a[i] = lo + (hi - lo) * tg_rand (&s);
    while (fabs (a[i] - kink) < gap);
}

static inline void
tg_fill_away_f (float *a, int n, unsigned seed, double lo, double hi,
		double kink, double gap)
{
  unsigned s = seed * 2654435761u + 12345u;
  for (int i = 0; i < n; i++)
    do
      a[i] = (float) (lo + (hi - lo) * tg_rand (&s));
    while (fabs (a[i] - kink) < gap);
}

/* Zeroed arrays of N elements; the test aborts when memory runs out.  */
static inline double *
tg_alloc (int n)
{
  double *p = (double *) calloc (n > 0 ? (size_t) n : 1, sizeof (double));
  if (!p)
    abort ();
  return p;
}

static inline float *
tg_alloc_f (int n)
{
  float *p = (float *) calloc (n > 0 ? (size_t) n : 1, sizeof (float));
  if (!p)
    abort ();
  return p;
}

/* Copies of A[0..N-1].  */
static inline double *
tg_dup (const double *a, int n)
{
  double *p = tg_alloc (n);
  if (n > 0)
    memcpy (p, a, (size_t) n * sizeof (double));
  return p;
}

static inline float *
tg_dup_f (const float *a, int n)
{
  float *p = tg_alloc_f (n);
  if (n > 0)
    memcpy (p, a, (size_t) n * sizeof (float));
  return p;
}

/* sum C[k] * Y[k], in double: the loss of the tests.  */
static inline double
tg_dot (const double *c, const double *y, int n)
{
  double s = 0;
  for (int k = 0; k < n; k++)
    s += c[k] * y[k];
  return s;
}

static inline double
tg_dot_f (const float *c, const float *y, int n)
{
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (double) c[k] * (double) y[k];
  return s;
}

/* Compare the gradient GRAD[0..N-1] of LOSS with respect to X[0..N-1]
   with central differences: X[i] is moved by h = REL_H * max (1, |X[i]|)
   each way and LOSS (CTX) evaluated; X is restored.  NAME labels the
   reports.  The denominator is the difference of the values actually
   stored, so rounding of X[i] +- h does not bias the quotient.  Returns
   the number of mismatches.  A double input whose effect passes through
   float arithmetic needs REL_H about 3e-3 and float tolerances.  */
static inline int
tg_fd_check_h (const char *name, double *x, int n, double (*loss) (void *),
	       void *ctx, const double *grad, double rel_h, double rtol,
	       double atol)
{
  int bad = 0;
  for (int i = 0; i < n; i++)
    {
      double x0 = x[i];
      double h = rel_h * (fabs (x0) > 1 ? fabs (x0) : 1);
      volatile double xp = x0 + h, xm = x0 - h;
      double lp, lm, fd;
      x[i] = xp;
      lp = loss (ctx);
      x[i] = xm;
      lm = loss (ctx);
      x[i] = x0;
      fd = (lp - lm) / (xp - xm);
      tg_checks++;
      if (!tg_near (grad[i], fd, rtol, atol))
	{
	  bad++;
	  tg_report_failure ();
	  if (tg_failures <= TG_MAX_REPORTS)
	    fprintf (stderr, "FAIL: d_%s[%d] = %.17g, finite difference %.17g"
		     " at %s[%d] = %.17g (rtol %g, atol %g)\n",
		     name, i, grad[i], fd, name, i, x0, rtol, atol);
	}
    }
  return bad;
}

/* tg_fd_check_h with h = 1e-6 * max (1, |X[i]|), for double kernels.  */
static inline int
tg_fd_check (const char *name, double *x, int n, double (*loss) (void *),
	     void *ctx, const double *grad, double rtol, double atol)
{
  return tg_fd_check_h (name, x, n, loss, ctx, grad, 1e-6, rtol, atol);
}

/* The same for a float kernel: X and GRAD are float, h = 3e-3 * max (1,
   |X[i]|) (float rounding of the forward makes smaller steps noisy); use
   TG_RTOL_F and TG_ATOL_F and keep inputs 0.05 away from kinks.  */
static inline int
tg_fd_check_f (const char *name, float *x, int n, double (*loss) (void *),
	       void *ctx, const float *grad, double rtol, double atol)
{
  int bad = 0;
  for (int i = 0; i < n; i++)
    {
      float x0 = x[i];
      double h = 3e-3 * (fabs (x0) > 1 ? fabs (x0) : 1);
      volatile float xp = (float) (x0 + h), xm = (float) (x0 - h);
      double lp, lm, fd;
      x[i] = xp;
      lp = loss (ctx);
      x[i] = xm;
      lm = loss (ctx);
      x[i] = x0;
      fd = (lp - lm) / ((double) xp - (double) xm);
      tg_checks++;
      if (!tg_near (grad[i], fd, rtol, atol))
	{
	  bad++;
	  tg_report_failure ();
	  if (tg_failures <= TG_MAX_REPORTS)
	    fprintf (stderr, "FAIL: d_%s[%d] = %.9g, finite difference %.9g"
		     " at %s[%d] = %.9g (rtol %g, atol %g)\n",
		     name, i, (double) grad[i], fd, name, i, (double) x0,
		     rtol, atol);
	}
    }
  return bad;
}

/* Gradient of an accumulated shadow: AFTER[i] - PREFILL[i] into OUT.  */
static inline void
tg_sub (double *out, const double *after, const double *prefill, int n)
{
  for (int i = 0; i < n; i++)
    out[i] = after[i] - prefill[i];
}

static inline void
tg_sub_f (float *out, const float *after, const float *prefill, int n)
{
  for (int i = 0; i < n; i++)
    out[i] = after[i] - prefill[i];
}

#endif /* TG_TEST_H */

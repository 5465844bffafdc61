/* Shared helpers of the tensorgrad execution tests.

   Header-only C99; every function is static inline so a test that does not
   use one gets no warning.  A test is its kernel, the formula of the
   gradient in a comment, and one call through the descriptor
   <name>_gradcheck that the plugin generates for the kernel:

     int n = 7;
     double x[7], y[7];
     tg_fill (x, n, 1, -2.5, 2.5);
     TG_GRADCHECK (act_tanh, &n, x, y);
     return tg_exit ();

   TG_GRADCHECK runs libtensorgrad's tg_gradcheck (link with
   -ltensorgrad, as the exec tests do) at the caller's arguments, one per
   parameter: the address of a scalar, the pointer itself for an array.
   They are the point of evaluation, so fill them as the kernel needs
   (away from the kinks of fabs and max, positive for log and sqrt).  It
   checks every element of every input, in-out array and floating scalar
   against central differences of L = sum c_k out_k (+ c_ret * ret),
   summed exactly in MPFR; that the forward writes no input; that the
   gradient writes nothing but the input and in-out shadows (inputs,
   outputs and output adjoints unchanged) and adds to input shadows.
   TG_GRADCHECK_NULL does the same with some shadows NULL.

   A kernel without a descriptor (a gather; extents that depend on data:
   the dump says "no descriptor"), and the few tests that check the
   checker, do it by hand:

     1. fill the inputs with tg_fill (deterministic, seeded) and the
        weights C of the loss L = sum_k C[k] * y[k] (+ c_ret * ret);
     2. run the forward kernel, copy inputs and outputs (tg_dup);
     3. set each output shadow to its weights, pre-fill the input
        shadows with known values (the gradient must ADD to them), call
        the generated f_grad;
     4. check with CHECK_SAME that f_grad wrote nothing but the shadows,
        and with tg_fd_check that GRAD_AFTER - PREFILL equals the central
        finite difference of L for every component;
     5. return tg_exit ().

   CHECK and CHECK_NEAR print the expression, both values, file:line and,
   in their _AT forms, the index; failures are counted and tg_exit returns
   a non-zero status when any occurred.  */

#ifndef TG_TEST_H
#define TG_TEST_H

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tensorgrad.h"

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

/* Run FN in a child process, what it writes on stderr into BUF (N bytes,
   NUL-terminated): the child's status as waitpid gives it (it exits 0
   when FN returns), -1 when it could not be run.  */
static inline int
tg_child_run (void (*fn) (void), char *buf, size_t n)
{
  int fd[2];
  memset (buf, 0, n);
  if (pipe (fd) != 0)
    return -1;
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fd[1], 2);
      close (fd[0]);
      fn ();
      _exit (0);
    }
  close (fd[1]);
  size_t got = 0;
  ssize_t k;
  while (got < n - 1 && (k = read (fd[0], buf + got, n - 1 - got)) > 0)
    got += (size_t) k;
  close (fd[0]);
  int status = 0;
  if (pid <= 0 || waitpid (pid, &status, 0) != pid)
    return -1;
  return status;
}

/* tg_child_run: did the child die of SIGABRT (a gradient refusing sizes
   or indices it cannot be right for)?  */
static inline int
tg_child_aborts (void (*fn) (void), char *buf, size_t n)
{
  int status = tg_child_run (fn, buf, n);
  return status != -1 && WIFSIGNALED (status) && WTERMSIG (status) == SIGABRT;
}

/* tg_child_run: did the child stop on a sanitizer's report that says
   WHAT, exiting with a non-zero status as UBSan does under
   -fno-sanitize-recover (or, with RECOVER, go on and exit 0)?  The
   report is printed to stdout when it is not.  */
static inline int
tg_child_reports (void (*fn) (void), const char *what, int recover)
{
  char buf[4096];
  int status = tg_child_run (fn, buf, sizeof buf);
  int ok = status != -1 && WIFEXITED (status)
           && (recover ? WEXITSTATUS (status) == 0 : WEXITSTATUS (status) != 0)
           && strstr (buf, "runtime error: ") && strstr (buf, what);
  if (!ok)
    printf ("expected a report of \"%s\"; the child's status %#x, its "
            "stderr:\n%s\n", what, (unsigned) status, buf);
  return ok;
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

/* ---- Checking through the generated descriptor -----------------------

   TG_GRADCHECK (f, args...) checks f_grad against the forward f with
   tg_gradcheck (&f_gradcheck, TG_ARGS (args...), ...), as the comment at
   the top of this file says.  Tolerances: TG_RTOL and TG_ATOL for a
   double kernel (tighter than tg_gradcheck's defaults, 1e-5 and 1e-6:
   the exact sums allow it), tg_gradcheck's own for a float kernel (1e-2
   and 1e-3, tighter than TG_RTOL_F and TG_ATOL_F).  It counts one check
   per compared element and one for the ABI; on a failure it prints
   file:line and the report to stderr and counts one failure (with the
   environment variable TG_VERBOSE set, the report of a pass goes to
   stdout: it lists how many elements of each shadow were compared).

   TG_GRADCHECK_OPTS (f, opts, args...) takes a tg_check_opts * instead
   (a zero field: tg_gradcheck's default), e.g. the step and tolerances
   of float for a double kernel that computes in float.

   TG_GRADCHECK_NULL (f, "x w", args...) passes the shadows of the
   parameters named in the space-separated list as NULL ("not wanted"):
   f_grad must not crash; the remaining components are checked against
   central differences as above, so they must be what they are with every
   shadow; a NULL output shadow is a zero adjoint (that output leaves the
   loss); the named inputs must stay untouched.  The kernel writes the
   caller's array of a named output.  An in-out parameter cannot be named
   (its entry values would not be restored between evaluations).  */

/* Whether kernel K computes in float, as tg_gradcheck decides it.  */
static inline int
tg_kernel_is_float_ (const tg_kernel *k)
{
  if (k->ret == TG_FLOAT)
    return 1;
  for (int i = 0; i < k->nparams; i++)
    if ((k->params[i].kind == TG_FLOAT || k->params[i].kind == TG_PTR_FLOAT)
	&& k->params[i].role != TG_UNUSED)
      return 1;
  return 0;
}

/* Whether NAME is a word of the space-separated list LIST.  */
static inline int
tg_in_list_ (const char *list, const char *name)
{
  size_t len = strlen (name);
  for (const char *p = list; *p;)
    {
      size_t w;
      while (*p == ' ')
	p++;
      w = strcspn (p, " ");
      if (w == len && w && strncmp (p, name, len) == 0)
	return 1;
      p += w;
    }
  return 0;
}

/* The number of words of the space-separated list LIST.  */
static inline int
tg_words_ (const char *list)
{
  int n = 0;
  for (const char *p = list; *p;)
    {
      while (*p == ' ')
	p++;
      if (*p)
	n++;
      p += strcspn (p, " ");
    }
  return n;
}

/* Check kernel K at ARGS with OPTS (NULL: the tolerances above), the
   shadows of the parameters in the list NULLS (NULL: none) passed as
   NULL; EXPR, FILE, LINE for the report.  Returns 1 on success.  */
static inline int
tg_gradcheck_ok_ (const tg_kernel *k, const void *const *args,
		  const tg_check_opts *opts, const char *nulls,
		  const char *expr, const char *file, int line)
{
  tg_check_opts o = { 0, 0, 0, 0, 0 };
  tg_kernel kk;
  tg_param *p;
  long *count;
  void **saved;
  tg_report r;
  int status, ok = 1, named = 0;
  tg_checks++;
  kk = *k;
  p = (tg_param *) calloc (k->nparams + 1, sizeof *p);
  count = (long *) calloc (k->nparams + 1, sizeof *count);
  saved = (void **) calloc (k->nparams + 1, sizeof *saved);
  if (!p || !count || !saved)
    abort ();
  if (opts)
    o = *opts;
  else if (!tg_kernel_is_float_ (k))
    o.rtol = TG_RTOL, o.atol = TG_ATOL;
  memcpy (p, k->params, k->nparams * sizeof *p);
  kk.params = p;
  if (nulls && k->extents)
    k->extents ((void *const *) args, count);
  for (int i = 0; nulls && i < k->nparams; i++)
    {
      int ptr = p[i].kind == TG_PTR_FLOAT || p[i].kind == TG_PTR_DOUBLE;
      size_t es = p[i].kind == TG_PTR_FLOAT ? sizeof (float) : sizeof (double);
      if (!tg_in_list_ (nulls, p[i].name))
	continue;
      named++;
      if ((p[i].kind != TG_FLOAT && p[i].kind != TG_DOUBLE && !ptr)
	  || p[i].role == TG_INOUT || p[i].role == TG_UNUSED)
	{
	  fprintf (stderr, "%s:%d: FAIL: %s: '%s' has no shadow that may be "
		   "NULL here\n", file, line, expr, p[i].name);
	  ok = 0;
	}
      if (ptr && p[i].role == TG_IN && count[i] > 0)
	{
	  saved[i] = malloc (count[i] * es);
	  if (!saved[i])
	    abort ();
	  memcpy (saved[i], args[i], count[i] * es);
	}
      p[i].role = TG_UNUSED;
    }
  if (nulls && named != tg_words_ (nulls))
    {
      fprintf (stderr, "%s:%d: FAIL: %s: a name in \"%s\" is not a "
	       "parameter\n", file, line, expr, nulls);
      ok = 0;
    }
  status = tg_gradcheck (&kk, args, &o, &r);
  for (int s = 0; s < r.nshadows; s++)
    tg_checks += r.shadows[s].count;
  if (status != 0)
    ok = 0;
  for (int i = 0; i < k->nparams; i++)
    if (saved[i])
      {
	size_t es = p[i].kind == TG_PTR_FLOAT ? sizeof (float) : sizeof (double);
	tg_checks++;
	if (memcmp (saved[i], args[i], count[i] * es) != 0)
	  {
	    fprintf (stderr, "%s:%d: FAIL: %s: input '%s' was written\n", file,
		     line, expr, p[i].name);
	    ok = 0;
	  }
	free (saved[i]);
      }
  if (!ok)
    {
      tg_report_failure ();
      fprintf (stderr, "%s:%d: FAIL: %s\n", file, line, expr);
      tg_report_print (stderr, &r);
    }
  else if (getenv ("TG_VERBOSE"))
    tg_report_print (stdout, &r);
  tg_report_free (&r);
  free (p);
  free (count);
  free (saved);
  return ok;
}

/* Each declares the descriptor f_gradcheck (TG_DECLARE_GRADCHECK) in a
   block of its own, so a test need not.  A kernel without one (the dump
   says "no descriptor") fails the link: undefined reference to
   f_gradcheck.  The plugin defines a declared descriptor with the
   declaration's linkage, so a static kernel's becomes global (its
   gradient stays static).  */
#define TG_GRADCHECK_(f, opts, nulls, expr, ...)                              \
  __extension__ ({                                                            \
    TG_DECLARE_GRADCHECK (f);                                                 \
    tg_gradcheck_ok_ (&f##_gradcheck, TG_ARGS (__VA_ARGS__), (opts), (nulls), \
		      expr, __FILE__, __LINE__);                              \
  })
#define TG_GRADCHECK(f, ...)                                                  \
  TG_GRADCHECK_ (f, NULL, NULL, "TG_GRADCHECK (" #f ", " #__VA_ARGS__ ")",    \
		 __VA_ARGS__)
#define TG_GRADCHECK_OPTS(f, opts, ...)                                       \
  TG_GRADCHECK_ (f, opts, NULL,                                               \
		 "TG_GRADCHECK_OPTS (" #f ", " #opts ", " #__VA_ARGS__ ")",   \
		 __VA_ARGS__)
#define TG_GRADCHECK_NULL(f, nulls, ...)                                      \
  TG_GRADCHECK_ (f, NULL, nulls,                                              \
		 "TG_GRADCHECK_NULL (" #f ", " #nulls ", " #__VA_ARGS__ ")",  \
		 __VA_ARGS__)

#endif /* TG_TEST_H */

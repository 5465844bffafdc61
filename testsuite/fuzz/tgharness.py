"""tgharness -- the C test program tgfuzz links with each compiled kernel.

The harness (harness.c) holds the kernel's double-precision reference
(the same text, renamed ref_*, compiled without the plugin), the data,
and the checks of the gradient ABI; it is compiled once per kernel and
linked with each object the plugin made.  It exits 0 when every check
passed, 1 when one failed (each failure a line "FAIL ..." on stdout).

-DTG_PLANT=K plants a wrong gradient after the main call of f_grad, so
that the self-test sees the same checks catch it:
  1  one component of an input shadow's gradient scaled by 1.001
  2  the pre-fill subtracted: the gradient overwrote the shadow (= for +=)
  3  an output adjoint modified by the gradient
  4  the shadow of an optional input written while that input is NULL

An optional input (a parameter with "opt", read behind a NULL test) runs
the checks twice: with the array, then with NULL for it (OPTNULL, the
failures' "/optnull"), its shadow given and pre-filled: the gradient must
leave the shadow as it was, and central differences see no dependence.
"""

import random

import tggen

PRELUDE = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
enum { P_INT, P_SCAL, P_IN, P_OUT, P_INOUT, P_IDX };
#define GUARD 3
static int nfail, nchk, nskip;
/* 1 in the round where the optional inputs are passed as NULL.  */
static int optnull;
/* The tolerances' factor: 1, or argv[1] (tgfuzz gives 100 for
   -ffast-math, which changes the rounding and near-ties of max).  */
static double tolx = 1;
static void
fail (const char *what, const char *p, long i, double got, double want)
{
  nfail++;
  if (nfail <= 12)
    printf ("FAIL %s%s %s[%ld]: got %.12g want %.12g\n", what,
	    optnull ? "/optnull" : "", p, i, got, want);
}
"""

MAIN = r"""
static real *SNAP[NP];
static double *XD[NP], *G[NP], *GZ[NP], *FD[NP];
static double call_ref_last;
static const real SENT = (real) 1234.5;

static real *
ralloc (long n)
{
  real *p = malloc ((n + GUARD) * sizeof (real));
  for (long i = 0; i < n + GUARD; i++)
    p[i] = SENT;
  return p;
}

static double *
dalloc (long n)
{
  return calloc (n + 1, sizeof (double));
}

static int
active (int p)
{
  return kind[p] == P_SCAL || kind[p] == P_IN || kind[p] == P_OUT
	 || kind[p] == P_INOUT;
}

static int
wrt (int p)
{
  return kind[p] == P_SCAL || kind[p] == P_IN || kind[p] == P_INOUT;
}

/* Guards after every array, integer arrays as they were.  */
static void
check_memory (const char *when)
{
  char what[64];
  for (int p = 0; p < NP; p++)
    {
      if (kind[p] == P_IDX)
	for (long i = 0; i < len[p]; i++)
	  if (IW[p][i] != IX[p][i])
	    {
	      snprintf (what, sizeof what, "index-array-written(%s)", when);
	      fail (what, pname[p], i, IW[p][i], IX[p][i]);
	    }
      if (kind[p] == P_INT || kind[p] == P_IDX)
	continue;
      for (long i = len[p]; i < len[p] + GUARD; i++)
	{
	  if (A[p][i] != SENT)
	    {
	      snprintf (what, sizeof what, "written-past-end(%s)", when);
	      fail (what, pname[p], i, A[p][i], SENT);
	    }
	  if (S[p] && S[p][i] != SENT)
	    {
	      snprintf (what, sizeof what, "shadow-written-past-end(%s)", when);
	      fail (what, pname[p], i, S[p][i], SENT);
	    }
	}
    }
}

/* The loss of the reference at the entry values XD: sum c * outputs
   (+ c_ret * result).  */
static double
loss (void)
{
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_OUT)
      memset (W[p], 0, len[p] * sizeof (double));
    else if (kind[p] == P_INOUT || kind[p] == P_IN || kind[p] == P_SCAL)
      memcpy (W[p], XD[p], len[p] * sizeof (double));
  double r = call_ref ();
  call_ref_last = r;
  double l = HAS_RET ? CRET * r : 0;
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_OUT || kind[p] == P_INOUT)
      for (long i = 0; i < len[p]; i++)
	l += C[p][i] * W[p][i];
  return l;
}

/* Shadows for a call of f_grad: input shadows pre-filled, output and
   in-out shadows the loss's weights.  */
static void
set_shadows (void)
{
  for (int p = 0; p < NP; p++)
    if (active (p))
      for (long i = 0; i < len[p]; i++)
	S[p][i] = (kind[p] == P_IN || kind[p] == P_SCAL) ? (real) PF[p][i]
							  : (real) C[p][i];
}

/* The gradient a call left in the shadows.  */
static void
analytic (double **g)
{
  for (int p = 0; p < NP; p++)
    if (wrt (p) && S[p])
      for (long i = 0; i < len[p]; i++)
	g[p][i] = kind[p] == P_INOUT ? (double) S[p][i]
				     : (double) S[p][i] - (double) (real) PF[p][i];
}

/* After a call of f_grad: nothing but input and in-out shadows written.  */
static void
check_untouched (const char *when, int skip)
{
  char what[64];
  for (int p = 0; p < NP; p++)
    {
      if (kind[p] == P_INT || kind[p] == P_IDX)
	continue;
      for (long i = 0; i < len[p]; i++)
	if (memcmp (&A[p][i], &SNAP[p][i], sizeof (real)))
	  {
	    snprintf (what, sizeof what, "primal-written(%s)", when);
	    fail (what, pname[p], i, A[p][i], SNAP[p][i]);
	  }
      if (kind[p] == P_OUT && p != skip)
	for (long i = 0; i < len[p]; i++)
	  if (S[p][i] != (real) C[p][i])
	    {
	      snprintf (what, sizeof what, "output-adjoint-modified(%s)", when);
	      fail (what, pname[p], i, S[p][i], (real) C[p][i]);
	    }
    }
  check_memory (when);
}

static int
close_to (double a, double b, double rtol, double atol)
{
  return isfinite (a) && isfinite (b) && fabs (a - b) <= atol + rtol * fabs (b);
}

/* Gradient G against central differences of the reference.  */
static void
check_fd (void)
{
  double scale = 1;
  for (int p = 0; p < NP; p++)
    if (wrt (p))
      for (long i = 0; i < len[p]; i++)
	{
	  double x0 = XD[p][i], h = 1e-5 * fmax (1, fabs (x0));
	  XD[p][i] = x0 + h;
	  double lp = loss ();
	  XD[p][i] = x0 - h;
	  double lm = loss ();
	  XD[p][i] = x0;
	  FD[p][i] = (lp - lm) / (2 * h);
	  if (fabs (FD[p][i]) > scale)
	    scale = fabs (FD[p][i]);
	}
  for (int p = 0; p < NP; p++)
    if (wrt (p))
      for (long i = 0; i < len[p]; i++)
	{
	  nchk++;
	  double g = G[p][i], c = FD[p][i];
	  if (close_to (g, c, RTOL, ATOL * scale))
	    continue;
	  /* A kink within the step: the second difference does not shrink
	     with the step.  */
	  double x0 = XD[p][i], h = 1e-5 * fmax (1, fabs (x0)), l0 = loss ();
	  double d[2];
	  for (int k = 0; k < 2; k++)
	    {
	      double hk = k ? h / 4 : h;
	      XD[p][i] = x0 + hk;
	      double lp = loss ();
	      XD[p][i] = x0 - hk;
	      double lm = loss ();
	      XD[p][i] = x0;
	      d[k] = fabs (lp - 2 * l0 + lm) / hk;
	      if (k == 1 && close_to (g, (lp - lm) / (2 * hk), RTOL, ATOL * scale))
		d[1] = -1;
	    }
	  if (d[1] == -1)
	    continue;
	  if (d[0] > RTOL * fabs (c) + ATOL * scale && d[1] > 0.6 * d[0])
	    {
	      nskip++;
	      continue;
	    }
	  fail ("gradient", pname[p], i, g, c);
	}
}

static void
compare (const char *what, double **got, double **want, int skip)
{
  for (int p = 0; p < NP; p++)
    if (wrt (p) && p != skip)
      for (long i = 0; i < len[p]; i++)
	if (!close_to (got[p][i], want[p][i], NRTOL, NRTOL))
	  fail (what, pname[p], i, got[p][i], want[p][i]);
}

/* Every check, once (the entry values restored first).  */
static void
check_round (double **GN)
{
  for (int p = 0; p < NP; p++)
    if (A[p])
      for (long i = 0; i < len[p]; i++)
	{
	  A[p][i] = kind[p] == P_OUT ? 0 : (real) X0[p][i];
	  XD[p][i] = kind[p] == P_OUT ? 0 : (double) (real) X0[p][i];
	}
  /* The forward: inputs untouched, values as the reference's.  */
  real r = call_f ();
  check_memory ("forward");
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_IN || kind[p] == P_SCAL)
      for (long i = 0; i < len[p]; i++)
	if (A[p][i] != (real) X0[p][i])
	  fail ("input-written-by-forward", pname[p], i, A[p][i], X0[p][i]);
  loss ();
  double rr = call_ref_last;
  double fscale = 1;
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_OUT || kind[p] == P_INOUT)
      for (long i = 0; i < len[p]; i++)
	fscale = fmax (fscale, fabs (W[p][i]));
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_OUT || kind[p] == P_INOUT)
      for (long i = 0; i < len[p]; i++)
	if (!close_to (A[p][i], W[p][i], FRTOL, FRTOL * fscale))
	  fail ("forward", pname[p], i, A[p][i], W[p][i]);
  if (HAS_RET && !close_to (r, rr, FRTOL, FRTOL * fmax (1, fabs (rr))))
    fail ("forward", "return", 0, r, rr);
  for (int p = 0; p < NP; p++)
    if (A[p])
      {
	if (!SNAP[p])
	  SNAP[p] = ralloc (len[p]);
	memcpy (SNAP[p], A[p], len[p] * sizeof (real));
      }

  /* The gradient with every shadow.  */
  set_shadows ();
  call_grad ((real) CRET);
#if TG_PLANT == 1
  {
    int bp = -1;
    long bi = 0;
    double best = -1;
    analytic (G);
    for (int p = 0; p < NP; p++)
      if (wrt (p))
	for (long i = 0; i < len[p]; i++)
	  if (fabs (G[p][i]) > best)
	    best = fabs (G[p][i]), bp = p, bi = i;
    if (bp >= 0)
      S[bp][bi] = kind[bp] == P_INOUT ? S[bp][bi] * 1.001
		  : PF[bp][bi] + (S[bp][bi] - PF[bp][bi]) * 1.001;
  }
#elif TG_PLANT == 2
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_IN || kind[p] == P_SCAL)
      for (long i = 0; i < len[p]; i++)
	S[p][i] -= (real) PF[p][i];
#elif TG_PLANT == 3
  for (int p = 0; p < NP; p++)
    if (kind[p] == P_OUT)
      {
	S[p][0] += 0.5;
	break;
      }
#elif TG_PLANT == 4
  for (int p = 0; p < NP; p++)
    if (opt[p] && optnull)
      {
	S[p][0] += 0.5;
	break;
      }
#endif
  check_untouched ("gradient", -1);
  analytic (G);
  check_fd ();

  /* One shadow NULL at a time: an input's gradient not computed, the
     others unchanged; an output's adjoint taken as zero.  */
  for (int q = 0; q < NP; q++)
    {
      if (!active (q))
	continue;
      double **want = G;
      if (kind[q] == P_OUT || kind[q] == P_INOUT)
	{
	  set_shadows ();
	  for (long i = 0; i < len[q]; i++)
	    S[q][i] = 0;
	  call_grad ((real) CRET);
	  check_untouched ("zero-adjoint", q);
	  analytic (GZ);
	  want = GZ;
	}
      set_shadows ();
      real *keep = S[q];
      S[q] = NULL;
      call_grad ((real) CRET);
      check_untouched ("null-shadow", q);
      analytic (GN);
      S[q] = keep;
      char what[64];
      snprintf (what, sizeof what, "null-shadow(%s)", pname[q]);
      compare (what, GN, want, q);
    }
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    tolx = atof (argv[1]);
  double **GN = calloc (NP, sizeof (double *));
  for (int p = 0; p < NP; p++)
    {
      if (kind[p] == P_INT)
	continue;
      if (kind[p] == P_IDX)
	{
	  IW[p] = malloc (len[p] * sizeof (int));
	  memcpy (IW[p], IX[p], len[p] * sizeof (int));
	  continue;
	}
      A[p] = ralloc (len[p]);
      S[p] = ralloc (len[p]);
      W[p] = dalloc (len[p]);
      XD[p] = dalloc (len[p]);
      G[p] = dalloc (len[p]);
      GZ[p] = dalloc (len[p]);
      GN[p] = dalloc (len[p]);
      FD[p] = dalloc (len[p]);
    }
  for (optnull = 0; optnull <= HAS_OPT; optnull++)
    check_round (GN);
  printf ("checked %d components, %d skipped at kinks, %d failures\n", nchk,
	  nskip, nfail);
  return nfail ? 1 : 0;
}
"""


def values(rng, p):
    """Deterministic distinct values for parameter P."""
    n = p["n"]
    lo, hi = p["lo"], p["hi"]
    perm = list(range(n))
    rng.shuffle(perm)
    return [lo + (hi - lo) * (perm[i] + 0.5 + 0.4 * (rng.random() - 0.5)) / n
            for i in range(n)]


def weights(rng, n):
    return [(0.25 + 0.75 * rng.random()) * rng.choice([-1, 1])
            for _ in range(n)]


def cnum(v):
    return repr(float(v))


def harness(k, seed_text):
    """The C text of K's harness; the data drawn from SEED_TEXT."""
    rng = random.Random("data:" + seed_text)
    real = k.real
    out = ["typedef %s real;" % real, PRELUDE]
    np_ = len(k.params)
    kinds = {"int": "P_INT", "scal": "P_SCAL", "in": "P_IN", "out": "P_OUT",
             "inout": "P_INOUT", "idx": "P_IDX"}
    out.append("#define NP %d" % np_)
    out.append("#define HAS_RET %d" % (k.ret is not None))
    out.append("#define HAS_OPT %d" % any(p.get("opt") for p in k.params))
    cret = weights(rng, 1)[0]
    out.append("#define CRET %s" % cnum(cret))
    if real == "double":
        out.append("#define RTOL (1e-6 * tolx)\n#define ATOL (1e-7 * tolx)\n"
                   "#define FRTOL (1e-12 * tolx)\n#define NRTOL (1e-12 * tolx)")
    else:
        out.append("#define RTOL (2e-3 * tolx)\n#define ATOL (5e-4 * tolx)\n"
                   "#define FRTOL (2e-5 * tolx)\n#define NRTOL (1e-5 * tolx)")
    out.append("static const int kind[NP] = {%s};" %
               ", ".join(kinds[p["kind"]] for p in k.params))
    out.append("static const int opt[NP] = {%s};" %
               ", ".join(str(int(bool(p.get("opt")))) for p in k.params))
    out.append("static const long len[NP] = {%s};" %
               ", ".join(str(p.get("n", 0)) for p in k.params))
    out.append("static const char *pname[NP] = {%s};" %
               ", ".join('"%s"' % p["name"] for p in k.params))
    x0, cw, pf, ix = [], [], [], []
    for j, p in enumerate(k.params):
        kd = p["kind"]
        x0.append("0")
        cw.append("0")
        pf.append("0")
        ix.append("0")
        if kd in ("in", "inout", "scal"):
            if kd == "scal":
                v = [p["lo"] + (p["hi"] - p["lo"]) * (0.1 + 0.8 *
                                                      rng.random())]
            else:
                v = values(rng, p)
            out.append("static const double X0_%d[] = {%s};" %
                       (j, ", ".join(map(cnum, v))))
            x0[-1] = "X0_%d" % j
        if kd in ("out", "inout"):
            out.append("static const double C_%d[] = {%s};" %
                       (j, ", ".join(map(cnum, weights(rng, p["n"])))))
            cw[-1] = "C_%d" % j
        if kd in ("in", "scal"):
            out.append("static const double PF_%d[] = {%s};" %
                       (j, ", ".join(cnum(rng.uniform(-1, 1))
                                     for _ in range(p["n"]))))
            pf[-1] = "PF_%d" % j
        if kd == "idx":
            V, n = p["V"], p["n"]
            v = [rng.randrange(V) for _ in range(n)]
            if n >= 2:
                v[rng.randrange(n)] = v[0]          # a repeated index
            out.append("static const int IX_%d[] = {%s};" %
                       (j, ", ".join(map(str, v))))
            ix[-1] = "IX_%d" % j
    out.append("static const double *X0[NP] = {%s};" % ", ".join(x0))
    out.append("static const double *C[NP] = {%s};" % ", ".join(cw))
    out.append("static const double *PF[NP] = {%s};" % ", ".join(pf))
    out.append("static const int *IX[NP] = {%s};" % ", ".join(ix))
    # the reference
    out.append(tggen.render(tggen.kernel_text(k), "double", ref=True))
    # prototypes of the kernel and its gradient
    rt, sig = tggen.signature(k, flat_arrays=True)
    proto = tggen.render(rt + " " + sig, real)
    out.append(proto + ";")
    shadows = ["real *d_" + p["name"] for p in k.params
               if p["kind"] in ("scal", "in", "out", "inout")]
    if k.ret is not None:
        shadows.append("real d_return")
    gsig = tggen.render(sig.replace("$K%s(" % k.name, "$K%s_grad(" % k.name),
                        real)
    gsig = gsig[:-1] + (", " if shadows and gsig[-2] != "(" else "") + \
        ", ".join(shadows) + ")"
    out.append("void " + gsig + ";")

    def args(src, ints_from):
        a = []
        for j, p in enumerate(k.params):
            kd = p["kind"]
            if kd == "int":
                a.append(str(p["v"]))
            elif kd == "idx":
                a.append("IW[%d]" % j)
            elif kd == "scal":
                a.append("%s[%d][0]" % (src, j))
            elif p.get("opt"):
                a.append("(optnull ? NULL : (void *) %s[%d])" % (src, j))
            else:
                a.append("(void *) %s[%d]" % (src, j))
        return a
    fa = ", ".join(args("A", None))
    ra = ", ".join(args("W", None))
    sh = ["S[%d]" % j for j, p in enumerate(k.params)
          if p["kind"] in ("scal", "in", "out", "inout")]
    if k.ret is not None:
        sh.append("dret")
    ga = ", ".join(args("A", None) + sh)
    out.append("static real *A[NP], *S[NP];")
    out.append("static double *W[NP];")
    out.append("static int *IW[NP];")
    if k.ret is not None:
        out.append("static real call_f (void) { return %s(%s); }" %
                   (k.name, fa))
        out.append("static double call_ref (void) { return ref_%s(%s); }" %
                   (k.name, ra))
    else:
        out.append("static real call_f (void) { %s(%s); return 0; }" %
                   (k.name, fa))
        out.append("static double call_ref (void) { ref_%s(%s); return 0; }"
                   % (k.name, ra))
    out.append("static void call_grad (real dret) { (void) dret; %s_grad(%s); }"
               % (k.name, ga))
    return "\n".join(out) + "\n" + MAIN

/* char_rnn.c -- a character-level RNN trained with gradients from tensorgrad.

   The model reads a text one character at a time and predicts the next:
     h_{t+1} = tanh (Wxh[c_t] + Whh h_t + bh)      (a tanh RNN cell)
     z_t     = Why h_{t+1} + by                     (logits over the V chars)
     loss    = mean_t (log sum_v exp z_t[v] - z_t[c_{t+1}])
   over a window of T characters (softmax cross-entropy).  Wxh[c] is the
   row of the character c: a one-hot input times Wxh, read as a gather.
   The loss is written once, as plain loops in rnn_loss below; the plugin
   writes its gradient, rnn_loss_grad, and the trainer in plain C calls
   it on consecutive windows of examples/char_rnn.txt (truncated
   backpropagation through time: the state is carried from one window to
   the next, the gradient stops at the window's start) and updates the
   weights with Adam.  At the end it prints text sampled from the model.

   Usage: char_rnn [--steps N] [--lr X] [--seed S] [--csv FILE] [--check]
		   [--text FILE] [--every N] [--sample N] [--temp X] [--help]

   Build and run from the build tree: make examples (make examples-plot
   also draws the loss curve).  By hand, after make install:

     gcc -O2 -fplugin=tensorgrad -o char_rnn char_rnn.c -lm
     ./char_rnn --text char_rnn.txt  */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The text read when --text is not given; make passes the source tree's.  */
#ifndef CHAR_RNN_TEXT
#define CHAR_RNN_TEXT "char_rnn.txt"
#endif

enum
{
  HIDDEN = 64, /* hidden units */
  WINDOW = 25, /* characters per window */
  MAXV = 256   /* distinct characters at most (bytes) */
};

/* The loss of one window.  TOK holds T + 1 characters (indices below V):
   the inputs TOK[0..T-1] and, one ahead, the targets TOK[1..T].  H0 is
   the state the window starts from.  Every state is stored in the output
   HS, (T + 1) * H numbers, HS[t*H..] the state before input t, so the
   state after the window is HS[T*H..].  The logits are kept for the
   whole window in the local Z, a row per position.

   The states go to HS, and the logits to a row per position of Z.  The
   form written first, an array h[H] that the time loop updates (computed
   into hn[H] and copied back, the final state copied to an output) and
   a row z[V] reused for every position and read at the target, is
   accepted as well, with the same values: tensorgrad gives h a tape and
   z a copy per position (README, "An example that learns";
   testsuite/tensorgrad.exec/char-rnn-first-1.c).  */
__attribute__ ((differentiable))
double
rnn_loss (int T, int V, int H, const int *tok, const double *h0,
	  const double *Wxh, const double *Whh, const double *bh,
	  const double *Why, const double *by, double *hs)
{
  for (int j = 0; j < H; j++)
    hs[j] = h0[j];
  for (int t = 0; t < T; t++)
    for (int j = 0; j < H; j++)
      {
	double s = bh[j] + Wxh[tok[t] * H + j];
	for (int k = 0; k < H; k++)
	  s += Whh[j * H + k] * hs[t * H + k];
	hs[(t + 1) * H + j] = tanh (s);
      }
  double z[T * V];
  double loss = 0;
  for (int t = 0; t < T; t++)
    {
      for (int v = 0; v < V; v++)
	{
	  double a = by[v];
	  for (int j = 0; j < H; j++)
	    a += Why[v * H + j] * hs[(t + 1) * H + j];
	  z[t * V + v] = a;
	}
      double mx = z[t * V];
      for (int v = 1; v < V; v++)
	mx = fmax (mx, z[t * V + v]);
      double se = 0;
      for (int v = 0; v < V; v++)
	se += exp (z[t * V + v] - mx);
      loss += mx + log (se) - z[t * V + tok[t + 1]];
    }
  return loss / T;
}

/* The gradient the plugin defines, by the ABI: every parameter, then one
   shadow per floating array (h0, Wxh, Whh, bh, Why, by, hs), then the
   adjoint of the result.  The input shadows accumulate, so the caller
   zeroes them; d_hs is the adjoint of the stored states (NULL: zero, only
   the loss matters).  */
void rnn_loss_grad (int T, int V, int H, const int *tok, const double *h0,
		    const double *Wxh, const double *Whh, const double *bh,
		    const double *Why, const double *by, double *hs,
		    double *d_h0, double *d_Wxh, double *d_Whh, double *d_bh,
		    double *d_Why, double *d_by, double *d_hs, double d_return);

/* The weights, one block of NP numbers so that the optimizer is one loop;
   the named pointers point into it.  */
struct model
{
  int V;
  size_t np;
  double *p;
  double *Wxh, *Whh, *bh, *Why, *by;
};

/* Point the named weights of M into BASE, laid out as in struct model.  */
static void
model_views (const struct model *m, double *base, double **Wxh, double **Whh,
	     double **bh, double **Why, double **by)
{
  *Wxh = base;
  *Whh = *Wxh + (size_t) m->V * HIDDEN;
  *bh = *Whh + (size_t) HIDDEN * HIDDEN;
  *Why = *bh + HIDDEN;
  *by = *Why + (size_t) m->V * HIDDEN;
}

/* A small, seedable random number generator (splitmix64) with its state
   in *S, so that a seed gives the same run everywhere.  */
static uint64_t
rng_next (uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1), from the generator *S.  */
static double
rng_uniform (uint64_t *s)
{
  return (rng_next (s) >> 11) * 0x1p-53;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Allocate N doubles set to zero, or exit.  */
static double *
zalloc (size_t n)
{
  double *p = calloc (n ? n : 1, sizeof *p);
  if (!p)
    {
      fprintf (stderr, "char_rnn: out of memory\n");
      exit (1);
    }
  return p;
}

/* Initialize M for V characters from the generator *RNG: the weights
   uniform in +-1/sqrt(fan-in) (+-0.2 for the rows of Wxh, whose input is
   one-hot), the biases zero.  */
static void
model_init (struct model *m, int V, uint64_t *rng)
{
  m->V = V;
  m->np = (size_t) V * HIDDEN + (size_t) HIDDEN * HIDDEN + HIDDEN
	  + (size_t) V * HIDDEN + V;
  m->p = zalloc (m->np);
  model_views (m, m->p, &m->Wxh, &m->Whh, &m->bh, &m->Why, &m->by);
  for (int i = 0; i < V * HIDDEN; i++)
    m->Wxh[i] = 0.2 * (2 * rng_uniform (rng) - 1);
  for (int i = 0; i < HIDDEN * HIDDEN; i++)
    m->Whh[i] = (2 * rng_uniform (rng) - 1) / sqrt (HIDDEN);
  for (int i = 0; i < V * HIDDEN; i++)
    m->Why[i] = (2 * rng_uniform (rng) - 1) / sqrt (HIDDEN);
}

/* The text as character indices.  */
struct text
{
  int n;                     /* characters */
  int *tok;                  /* n indices below V */
  int V;                     /* distinct characters */
  unsigned char chars[MAXV]; /* index -> byte */
};

/* Read FILE into TX; return 0, or -1 after a message.  */
static int
text_read (const char *file, struct text *tx)
{
  FILE *f = fopen (file, "rb");
  if (!f)
    {
      fprintf (stderr, "char_rnn: %s: %s\n", file, strerror (errno));
      return -1;
    }
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc (cap);
  int c;
  while (buf && (c = getc (f)) != EOF)
    {
      if (n == cap)
	{
	  unsigned char *more = realloc (buf, cap *= 2);
	  if (!more)
	    free (buf);
	  buf = more;
	  if (!buf)
	    break;
	}
      buf[n++] = (unsigned char) c;
    }
  fclose (f);
  if (!buf)
    {
      fprintf (stderr, "char_rnn: out of memory\n");
      return -1;
    }
  if (n < WINDOW + 2)
    {
      fprintf (stderr, "char_rnn: %s: too short, %zu bytes (at least %d)\n",
	       file, n, WINDOW + 2);
      free (buf);
      return -1;
    }
  int index[MAXV];
  memset (index, 0, sizeof index);
  for (size_t i = 0; i < n; i++)
    index[buf[i]] = 1;
  tx->V = 0;
  for (int b = 0; b < MAXV; b++)
    if (index[b])
      {
	tx->chars[tx->V] = (unsigned char) b;
	index[b] = tx->V++;
      }
  tx->n = (int) n;
  tx->tok = malloc (n * sizeof *tx->tok);
  if (!tx->tok)
    {
      fprintf (stderr, "char_rnn: out of memory\n");
      free (buf);
      return -1;
    }
  for (size_t i = 0; i < n; i++)
    tx->tok[i] = index[buf[i]];
  free (buf);
  return 0;
}

/* One step of the model for sampling, in plain C (no gradient needed):
   H becomes the state after input character C; return the next
   character, drawn with the generator *RNG from the softmax of the
   logits divided by TEMP.  */
static int
sample_step (const struct model *m, double *h, int c, double temp,
	     uint64_t *rng)
{
  double hn[HIDDEN], z[MAXV], mx = -INFINITY, se = 0;
  for (int j = 0; j < HIDDEN; j++)
    {
      double s = m->bh[j] + m->Wxh[c * HIDDEN + j];
      for (int k = 0; k < HIDDEN; k++)
	s += m->Whh[j * HIDDEN + k] * h[k];
      hn[j] = tanh (s);
    }
  memcpy (h, hn, sizeof hn);
  for (int v = 0; v < m->V; v++)
    {
      double a = m->by[v];
      for (int j = 0; j < HIDDEN; j++)
	a += m->Why[v * HIDDEN + j] * h[j];
      z[v] = a / temp;
      mx = fmax (mx, z[v]);
    }
  for (int v = 0; v < m->V; v++)
    se += z[v] = exp (z[v] - mx);
  double r = rng_uniform (rng) * se;
  for (int v = 0; v < m->V; v++)
    if ((r -= z[v]) < 0)
      return v;
  return m->V - 1;
}

/* The loss of M on the window TOK from the state H0 (HS: scratch).  */
static double
window_loss (const struct model *m, const int *tok, const double *h0,
	     double *hs)
{
  return rnn_loss (WINDOW, m->V, HIDDEN, tok, h0, m->Wxh, m->Whh, m->bh, m->Why,
		   m->by, hs);
}

/* Compare the synthesized gradient of the loss with central differences
   on a few components of every weight and of the initial state, on the
   window of TX at POS from the state H0, the components drawn with the
   generator *RNG.  Print each comparison; return the number of
   disagreements.  */
static int
check_gradient (struct model *m, const struct text *tx, int pos,
		const double *h0_in, uint64_t *rng)
{
  const int *tok = tx->tok + pos;
  double *g = zalloc (m->np), *hs = zalloc ((WINDOW + 1) * HIDDEN);
  double h0[HIDDEN], d_h0[HIDDEN] = { 0 };
  double *gWxh, *gWhh, *gbh, *gWhy, *gby;
  memcpy (h0, h0_in, sizeof h0);
  model_views (m, g, &gWxh, &gWhh, &gbh, &gWhy, &gby);
  window_loss (m, tok, h0, hs);
  rnn_loss_grad (WINDOW, m->V, HIDDEN, tok, h0, m->Wxh, m->Whh, m->bh, m->Why,
		 m->by, hs, d_h0, gWxh, gWhh, gbh, gWhy, gby, NULL, 1.0);
#ifdef CHAR_RNN_SPOIL_CHECK
  /* For the testsuite: a wrong component, which the check must find.  */
  gWhh[HIDDEN + 1] = gWhh[HIDDEN + 1] * 1.001 + 1e-6;
#endif

  /* Four components of each array, one from each quarter: of Wxh, rows of
     characters the window reads (the others have no gradient); the first
     of Whh a fixed one.  */
  struct
  {
    const char *name;
    double *x, *g;
    int n;
  } arrays[] = {
    { "h0", h0, d_h0, HIDDEN },
    { "Wxh", m->Wxh, gWxh, m->V * HIDDEN },
    { "Whh", m->Whh, gWhh, HIDDEN * HIDDEN },
    { "bh", m->bh, gbh, HIDDEN },
    { "Why", m->Why, gWhy, m->V * HIDDEN },
    { "by", m->by, gby, m->V },
  };
  int bad = 0, count = 0;
  double worst = 0;
  printf ("check: the synthesized gradient against central differences\n");
  printf ("check: %-10s %16s %16s %9s\n", "component", "synthesized",
	  "difference", "rel. err");
  for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
    for (int k = 0; k < 4; k++)
      {
	int n = arrays[a].n, lo = k * n / 4, hi = (k + 1) * n / 4;
	int i = lo + (int) (rng_next (rng) % (uint64_t) (hi - lo));
	if (arrays[a].x == m->Wxh)
	  {
	    int t = k * WINDOW / 4
		    + (int) (rng_next (rng) % (uint64_t) (WINDOW / 4));
	    i = tok[t] * HIDDEN + (int) (rng_next (rng) % HIDDEN);
	  }
	if (arrays[a].x == m->Whh && k == 0)
	  i = HIDDEN + 1;
	double x = arrays[a].x[i], step = 1e-5 * fmax (1, fabs (x));
	arrays[a].x[i] = x + step;
	double lp = window_loss (m, tok, h0, hs);
	arrays[a].x[i] = x - step;
	double lm = window_loss (m, tok, h0, hs);
	arrays[a].x[i] = x;
	double fd = (lp - lm) / (2 * step), an = arrays[a].g[i];
	double err = fabs (an - fd), scale = fmax (fabs (an), fabs (fd));
	int wrong = !(err <= 1e-8 + 1e-5 * scale);
	char name[32];
	snprintf (name, sizeof name, "%s[%d]", arrays[a].name, i);
	printf ("check: %-10s %16.9e %16.9e %9.1e%s\n", name, an, fd,
		scale > 0 ? err / scale : 0.0, wrong ? "  MISMATCH" : "");
	if (scale > 0)
	  worst = fmax (worst, err / scale);
	bad += wrong;
	count++;
      }
  if (bad)
    printf ("check: FAILED: %d of %d components disagree\n", bad, count);
  else
    printf ("check: ok, %d components agree (largest relative error "
	    "%.1e)\n",
	    count, worst);
  free (g);
  free (hs);
  return bad;
}

/* One Adam step on the NP weights P with gradient G (clipped to +-5 first),
   moments M1 and M2, step number STEP (from 1), learning rate LR.  */
static void
adam (size_t np, double *p, const double *g, double *m1, double *m2, long step,
      double lr)
{
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  double c1 = 1 - pow (b1, step), c2 = 1 - pow (b2, step);
  for (size_t i = 0; i < np; i++)
    {
      double gi = fmin (5, fmax (-5, g[i]));
      m1[i] = b1 * m1[i] + (1 - b1) * gi;
      m2[i] = b2 * m2[i] + (1 - b2) * gi * gi;
      p[i] -= lr * (m1[i] / c1) / (sqrt (m2[i] / c2) + eps);
    }
}

static void
usage (FILE *f)
{
  fprintf (f,
	   "Usage: char_rnn [OPTION]...\n"
	   "Train a character-level RNN on a text with the gradient "
	   "tensorgrad synthesized,\n"
	   "then print a sample of generated text.\n"
	   "\n"
	   "  --steps N     training steps, one window of %d characters each "
	   "(default 4000)\n"
	   "  --lr X        Adam's learning rate (default 0.005)\n"
	   "  --seed S      seed of the weights and of the sample (default 1)\n"
	   "  --csv FILE    write step,loss,smooth for every step to FILE\n"
	   "  --check       compare the gradient with central differences "
	   "before and\n"
	   "                after training; exit with status 1 on a mismatch\n"
	   "  --text FILE   the text to learn (default %s)\n"
	   "  --every N     print the loss every N steps (default 250)\n"
	   "  --sample N    characters of text to generate at the end "
	   "(default 400)\n"
	   "  --temp X      temperature of the sample (default 0.6)\n"
	   "  --help        print this help and exit\n"
	   "\n"
	   "loss is the window's mean cross-entropy in nats per character, "
	   "smooth its\n"
	   "exponential moving average (0.99); ln V is what a uniform guess "
	   "scores.\n",
	   WINDOW, CHAR_RNN_TEXT);
}

/* The options.  */
struct options
{
  long steps, every, sample;
  double lr, temp;
  unsigned long long seed;
  const char *csv, *text;
  int check;
};

/* Parse ARG, the value of option OPT, into the integer at L (when L is
   not NULL) or else the number at D; it must be at least MIN.  Return 0,
   or -1 after a message.  */
static int
parse_number (const char *opt, const char *arg, long *l, double *d, double min)
{
  char *end;
  errno = 0;
  double v = l ? (double) strtol (arg, &end, 10) : strtod (arg, &end);
  if (end == arg || *end || errno || !(v >= min) || !isfinite (v))
    {
      fprintf (stderr, "char_rnn: %s: '%s' is not %s of at least %g\n", opt,
	       arg, l ? "an integer" : "a number", min);
      return -1;
    }
  if (l)
    *l = strtol (arg, NULL, 10);
  else
    *d = v;
  return 0;
}

/* Parse ARGC/ARGV into O; return 0 to go on, 1 to exit successfully
   (--help), -1 on an error (after a message).  */
static int
parse_options (int argc, char **argv, struct options *o)
{
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *eq = strchr (a, '=');
      char name[32];
      size_t len = eq ? (size_t) (eq - a) : strlen (a);
      if (len >= sizeof name)
	len = sizeof name - 1;
      memcpy (name, a, len);
      name[len] = 0;
      if (!strcmp (name, "--help") && !eq)
	return 1;
      if (!strcmp (name, "--check") && !eq)
	{
	  o->check = 1;
	  continue;
	}
      static const char *const valued[]
	  = { "--steps", "--lr",    "--seed",   "--csv",
	      "--text",  "--every", "--sample", "--temp" };
      int known = 0;
      for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
	known |= !strcmp (name, valued[k]);
      if (!known)
	{
	  fprintf (stderr, "char_rnn: unknown option '%s'\n", a);
	  return -1;
	}
      const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
      if (!v)
	{
	  fprintf (stderr, "char_rnn: %s needs a value\n", name);
	  return -1;
	}
      long seed;
      if ((!strcmp (name, "--steps")
	   && parse_number (name, v, &o->steps, NULL, 0))
	  || (!strcmp (name, "--every")
	      && parse_number (name, v, &o->every, NULL, 1))
	  || (!strcmp (name, "--sample")
	      && parse_number (name, v, &o->sample, NULL, 0))
	  || (!strcmp (name, "--lr") && parse_number (name, v, NULL, &o->lr, 0))
	  || (!strcmp (name, "--temp")
	      && parse_number (name, v, NULL, &o->temp, 1e-3)))
	return -1;
      if (!strcmp (name, "--seed"))
	{
	  if (parse_number (name, v, &seed, NULL, 0))
	    return -1;
	  o->seed = (unsigned long long) seed;
	}
      if (!strcmp (name, "--csv"))
	o->csv = v;
      if (!strcmp (name, "--text"))
	o->text = v;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  struct options o = { 4000, 250, 400, 0.005, 0.6, 1, NULL, CHAR_RNN_TEXT, 0 };
  int r = parse_options (argc, argv, &o);
  if (r)
    {
      if (r > 0)
	usage (stdout);
      else
	fprintf (stderr, "Try 'char_rnn --help' for more information.\n");
      return r > 0 ? 0 : 2;
    }

  struct text tx;
  if (text_read (o.text, &tx))
    return 1;
  /* The weights and the sample from the seed; the check's own generator,
     so that --check does not change the run.  */
  uint64_t rng = o.seed, check_rng = o.seed ^ 0x636865636bu;
  struct model m;
  model_init (&m, tx.V, &rng);
  FILE *csv = NULL;
  if (o.csv && !(csv = fopen (o.csv, "w")))
    {
      fprintf (stderr, "char_rnn: %s: %s\n", o.csv, strerror (errno));
      return 1;
    }
  printf ("char_rnn: %s, %d characters, V = %d distinct (ln V = %.3f); "
	  "H = %d, T = %d, %zu weights\n",
	  o.text, tx.n, tx.V, log (tx.V), HIDDEN, WINDOW, m.np);

  double *g = zalloc (m.np), *m1 = zalloc (m.np), *m2 = zalloc (m.np);
  double *hs = zalloc ((WINDOW + 1) * HIDDEN), h[HIDDEN] = { 0 };
  double *gWxh, *gWhh, *gbh, *gWhy, *gby;
  model_views (&m, g, &gWxh, &gWhh, &gbh, &gWhy, &gby);
  int bad = 0;
  if (o.check)
    {
      double h0[HIDDEN];
      for (int j = 0; j < HIDDEN; j++)
	h0[j] = 0.5 * (2 * rng_uniform (&check_rng) - 1);
      bad += check_gradient (&m, &tx, 0, h0, &check_rng);
    }

  /* Training: window after window, the state carried across them, both
     back to the start at the end of the text.  */
  if (csv)
    fprintf (csv, "step,loss,smooth\n");
  double first = 0, smooth = 0, loss = 0, t_fwd = 0, t_grad = 0;
  double t_start = now (), t_mark = t_start;
  long mark = 0;
  int pos = 0;
  for (long step = 1; step <= o.steps; step++)
    {
      if (pos + WINDOW + 1 > tx.n)
	{
	  pos = 0;
	  memset (h, 0, sizeof h);
	}
      const int *tok = tx.tok + pos;
      double t0 = now ();
      loss = window_loss (&m, tok, h, hs);
      double t1 = now ();
      memset (g, 0, m.np * sizeof *g);
      /* d_h0 and d_hs NULL: the gradient stops at the window's start, and
	 only the loss is differentiated.  */
      rnn_loss_grad (WINDOW, m.V, HIDDEN, tok, h, m.Wxh, m.Whh, m.bh, m.Why,
		     m.by, hs, NULL, gWxh, gWhh, gbh, gWhy, gby, NULL, 1.0);
      double t2 = now ();
      t_fwd += t1 - t0;
      t_grad += t2 - t1;
      adam (m.np, m.p, g, m1, m2, step, o.lr);
      memcpy (h, hs + WINDOW * HIDDEN, sizeof h);
      pos += WINDOW;

      if (step == 1)
	first = smooth = loss;
      smooth = 0.99 * smooth + 0.01 * loss;
      if (csv)
	fprintf (csv, "%ld,%.6f,%.6f\n", step, loss, smooth);
      if (step == 1 || step % o.every == 0 || step == o.steps)
	{
	  double t = now ();
	  double rate = (step - mark) * WINDOW / fmax (t - t_mark, 1e-9);
	  printf ("step %6ld  loss %7.4f  smooth %7.4f  %9.0f chars/s\n", step,
		  loss, smooth, rate);
	  fflush (stdout);
	  t_mark = t;
	  mark = step;
	}
    }
  double elapsed = now () - t_start;
  if (csv && fclose (csv))
    {
      fprintf (stderr, "char_rnn: %s: %s\n", o.csv, strerror (errno));
      return 1;
    }
  if (o.steps > 0)
    {
      printf ("loss %.4f -> %.4f (smoothed) in %ld steps, %.2f s, %.0f "
	      "chars/s\n",
	      first, smooth, o.steps, elapsed, o.steps * WINDOW / elapsed);
      printf ("per step: forward %.1f us, gradient %.1f us (%.2fx the "
	      "forward)\n",
	      1e6 * t_fwd / o.steps, 1e6 * t_grad / o.steps,
	      t_grad / fmax (t_fwd, 1e-12));
    }
  if (o.check && o.steps > 0)
    bad += check_gradient (&m, &tx, pos + WINDOW + 1 > tx.n ? 0 : pos, h,
			   &check_rng);

  if (o.sample > 0)
    {
      /* From the text's first character and a zero state.  */
      double hsamp[HIDDEN] = { 0 };
      int c = tx.tok[0];
      printf ("sample (temperature %g):\n%c", o.temp, tx.chars[c]);
      for (long i = 1; i < o.sample; i++)
	{
	  c = sample_step (&m, hsamp, c, o.temp, &rng);
	  putchar (tx.chars[c]);
	}
      putchar ('\n');
    }
  free (g);
  free (m1);
  free (m2);
  free (hs);
  free (m.p);
  free (tx.tok);
  return bad ? 1 : 0;
}

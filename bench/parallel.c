/* parallel.c -- make bench-parallel: gradients on OpenMP threads.

   dense, conv2d, layernorm and attention, each built with -fopenmp: the
   forward runs its outer loops under the pragma in its file; the
   generated gradient is the plugin's from that pragma (README, Parallel
   gradients); the hand-written backward (<name>_ref.c) runs its own
   pragmas.  For each, the time of one call on 1 and on 2 threads
   (omp_set_num_threads), the speed-up, generated over hand-written on 2
   threads, and the largest difference between the two gradients on 2
   threads relative to the hand-written one's largest element.  Times in
   milliseconds: the median of 9 calls after one warm-up call, or of as
   many as take about 100 ms (up to 1001) for a quicker kernel; with
   --fastest, the fastest of them (what a quiet moment of a shared
   machine gives).  The load
   average is printed before and after: other processes make the times
   of two threads on two cores noisy.  */

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCALLS 9
#define MAXCALLS 1001

void dense (int, int, int, const float *, const float *, const float *,
            float *);
void dense_grad (int, int, int, const float *, const float *, const float *,
                 float *, float *, float *, float *, float *);
void dense_grad_ref (int, int, int, const float *, const float *,
                     const float *, float *, float *, float *, float *,
                     float *);
void conv2d (int, int, int, int, int, const float *, const float *,
             const float *, float *);
void conv2d_grad (int, int, int, int, int, const float *, const float *,
                  const float *, float *, float *, float *, float *, float *);
void conv2d_grad_ref (int, int, int, int, int, const float *, const float *,
                      const float *, float *, float *, float *, float *,
                      float *);
void layernorm (int, int, const float *, const float *, const float *,
                float *);
void layernorm_grad (int, int, const float *, const float *, const float *,
                     float *, float *, float *, float *, float *);
void layernorm_grad_ref (int, int, const float *, const float *,
                         const float *, float *, float *, float *, float *,
                         float *);
void attention (int, int, int, int, const float *, float *, float *,
                float *);
void attention_grad (int, int, int, int, const float *, float *, float *,
                     float *, float *, float *, float *, float *);
void attention_grad_ref (int, int, int, int, const float *, float *, float *,
                         float *, float *, float *, float *, float *);

/* Up to 4 inputs, 4 outputs and their shadows of one kernel.  */
struct bufs
{
  float *in[4], *out[4], *d_in[4], *d_out[4];
  size_t nin[4], nout[4];
  int ni, no;
};

static unsigned long long seed = 12345;

static float *
filled (size_t n, float lo, float hi)
{
  float *a = malloc (n * sizeof *a);
  if (!a)
    {
      fprintf (stderr, "tg-bench-parallel: out of memory\n");
      exit (1);
    }
  for (size_t i = 0; i < n; i++)
    {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      a[i] = lo + (hi - lo) * (float) ((seed >> 40) / (double) (1 << 24));
    }
  return a;
}

static void
add_in (struct bufs *b, size_t n, float lo, float hi)
{
  b->nin[b->ni] = n;
  b->in[b->ni] = filled (n, lo, hi);
  b->d_in[b->ni] = calloc (n, sizeof (float));
  b->ni++;
}

static void
add_out (struct bufs *b, size_t n)
{
  b->nout[b->no] = n;
  b->out[b->no] = calloc (n, sizeof (float));
  b->d_out[b->no] = filled (n, -1, 1);
  b->no++;
}

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

enum { FWD, GEN, REF };

struct kernel
{
  const char *name;
  void (*setup) (struct bufs *);
  void (*run) (int what, struct bufs *);
};

/* ---- the kernels, at the sizes of make bench --------------------------- */

enum { DN = 256, DK = 512, DM = 512 };
static void
dense_setup (struct bufs *b)
{
  add_in (b, (size_t) DN * DK, -1, 1);
  add_in (b, (size_t) DK * DM, -0.05f, 0.05f);
  add_in (b, DM, -0.5f, 0.5f);
  add_out (b, (size_t) DN * DM);
}
static void
dense_run (int what, struct bufs *b)
{
  float **i = b->in, **d = b->d_in;
  if (what == FWD)
    dense (DN, DK, DM, i[0], i[1], i[2], b->out[0]);
  else
    (what == GEN ? dense_grad : dense_grad_ref) (DN, DK, DM, i[0], i[1], i[2],
                                                 b->out[0], d[0], d[1], d[2],
                                                 b->d_out[0]);
}

enum { CN = 8, CC = 32, CH = 32, CW = 32, CF = 32 };
static void
conv2d_setup (struct bufs *b)
{
  add_in (b, (size_t) CN * CC * CH * CW, -1, 1);
  add_in (b, (size_t) CF * CC * 9, -0.1f, 0.1f);
  add_in (b, CF, -0.5f, 0.5f);
  add_out (b, (size_t) CN * CF * CH * CW);
}
static void
conv2d_run (int what, struct bufs *b)
{
  float **i = b->in, **d = b->d_in;
  if (what == FWD)
    conv2d (CN, CC, CH, CW, CF, i[0], i[1], i[2], b->out[0]);
  else
    (what == GEN ? conv2d_grad : conv2d_grad_ref) (
        CN, CC, CH, CW, CF, i[0], i[1], i[2], b->out[0], d[0], d[1], d[2],
        b->d_out[0]);
}

enum { LN = 256, LM = 1024 };
static void
layernorm_setup (struct bufs *b)
{
  add_in (b, (size_t) LN * LM, -2, 2);
  add_in (b, LM, 0.5f, 1.5f);
  add_in (b, LM, -0.5f, 0.5f);
  add_out (b, (size_t) LN * LM);
}
static void
layernorm_run (int what, struct bufs *b)
{
  float **i = b->in, **d = b->d_in;
  if (what == FWD)
    layernorm (LN, LM, i[0], i[1], i[2], b->out[0]);
  else
    (what == GEN ? layernorm_grad : layernorm_grad_ref) (
        LN, LM, i[0], i[1], i[2], b->out[0], d[0], d[1], d[2], b->d_out[0]);
}

enum { AB = 4, AT = 64, AC = 768, ANH = 12 };
static void
attention_setup (struct bufs *b)
{
  add_in (b, (size_t) AB * AT * 3 * AC, -1, 1);
  add_out (b, (size_t) AB * ANH * AT * AT);
  add_out (b, (size_t) AB * ANH * AT * AT);
  add_out (b, (size_t) AB * AT * AC);
}
static void
attention_run (int what, struct bufs *b)
{
  float **o = b->out, **g = b->d_out;
  if (what == FWD)
    attention (AB, AT, AC, ANH, b->in[0], o[0], o[1], o[2]);
  else
    (what == GEN ? attention_grad : attention_grad_ref) (
        AB, AT, AC, ANH, b->in[0], o[0], o[1], o[2], b->d_in[0], g[0], g[1],
        g[2]);
}

static const struct kernel kernels[] = {
  { "dense", dense_setup, dense_run },
  { "conv2d", conv2d_setup, conv2d_run },
  { "layernorm", layernorm_setup, layernorm_run },
  { "attention", attention_setup, attention_run },
};

/* ---- measuring ---------------------------------------------------------- */

/* Report the fastest call rather than the median (--fastest).  */
static int fastest;

/* The median time of WHAT on NTH threads: of NCALLS calls, or of as many
   as take about 100 ms (at most MAXCALLS) when one call is quicker, so
   that a kernel of 0.2 ms is not timed by 9 calls that one interruption
   can move.  */
static double
timed (const struct kernel *k, int what, struct bufs *b, int nth)
{
  static double t[MAXCALLS];
  omp_set_num_threads (nth);
  double t0 = now_ms ();
  k->run (what, b);
  double first = now_ms () - t0;
  int n = NCALLS;
  if (first > 0 && 100.0 / first > n)
    n = 100.0 / first < MAXCALLS ? (int) (100.0 / first) | 1 : MAXCALLS;
  for (int i = 0; i < n; i++)
    {
      t0 = now_ms ();
      k->run (what, b);
      t[i] = now_ms () - t0;
    }
  qsort (t, n, sizeof *t, cmp);
  return fastest ? t[0] : t[n / 2];
}

/* max |gen - ref| / max |ref| over the input shadows, from zero, on
   NTH threads.  */
static double
reldiff (const struct kernel *k, struct bufs *b, int nth)
{
  omp_set_num_threads (nth);
  float *gen[4];
  for (int j = 0; j < b->ni; j++)
    {
      memset (b->d_in[j], 0, b->nin[j] * sizeof (float));
    }
  k->run (GEN, b);
  for (int j = 0; j < b->ni; j++)
    {
      gen[j] = malloc (b->nin[j] * sizeof (float));
      memcpy (gen[j], b->d_in[j], b->nin[j] * sizeof (float));
      memset (b->d_in[j], 0, b->nin[j] * sizeof (float));
    }
  k->run (REF, b);
  double diff = 0, big = 0;
  for (int j = 0; j < b->ni; j++)
    {
      for (size_t i = 0; i < b->nin[j]; i++)
        {
          diff = fmax (diff, fabs ((double) gen[j][i] - b->d_in[j][i]));
          big = fmax (big, fabs ((double) b->d_in[j][i]));
        }
      free (gen[j]);
    }
  return big > 0 ? diff / big : diff;
}

static void
print_load (const char *when)
{
  double l[3];
  FILE *f = fopen ("/proc/loadavg", "r");
  if (f && fscanf (f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
    printf ("load average %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
  if (f)
    fclose (f);
}

int
main (int argc, char **argv)
{
  fastest = argc > 1 && !strcmp (argv[1], "--fastest");
  printf ("tensorgrad bench-parallel: -O2 -fopenmp, %d processors, %s\n",
          omp_get_num_procs (),
          fastest ? "the fastest call" : "the median call");
  print_load ("before");
  printf ("%-10s %8s %8s %5s  %8s %8s %5s  %8s %8s %5s  %8s %8s\n",
          "kernel", "fwd 1T", "fwd 2T", "x", "gen 1T", "gen 2T", "x",
          "hand 1T", "hand 2T", "x", "gen/hand", "reldiff");
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    {
      const struct kernel *k = &kernels[i];
      struct bufs b;
      memset (&b, 0, sizeof b);
      k->setup (&b);
      omp_set_num_threads (1);
      k->run (FWD, &b);
      double rd = reldiff (k, &b, 2);
      double t[3][2];
      for (int w = FWD; w <= REF; w++)
        for (int nth = 1; nth <= 2; nth++)
          t[w][nth - 1] = timed (k, w, &b, nth);
      printf ("%-10s %8.2f %8.2f %5.2f  %8.2f %8.2f %5.2f  %8.2f %8.2f %5.2f"
              "  %8.2f %8.1e\n",
              k->name, t[FWD][0], t[FWD][1], t[FWD][0] / t[FWD][1], t[GEN][0],
              t[GEN][1], t[GEN][0] / t[GEN][1], t[REF][0], t[REF][1],
              t[REF][0] / t[REF][1], t[GEN][1] / t[REF][1], rd);
      for (int j = 0; j < b.ni; j++)
        free (b.in[j]), free (b.d_in[j]);
      for (int j = 0; j < b.no; j++)
        free (b.out[j]), free (b.d_out[j]);
    }
  print_load ("after");
  return 0;
}

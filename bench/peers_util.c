/* peers_util.c -- helpers of make bench-peers (bench/peers.py), built
   into a shared object the script loads with ctypes, linked with the
   CBLAS configure found (when it found one).

   peers_fill       deterministic random values, the same for the
                    tensorgrad and the PyTorch side of one kernel
   peers_dgemm_gflops
                    the machine's peak as the BLAS sees it: GFLOP/s of
                    an N by N by N cblas_dgemm, the best of REPS calls  */

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Fill A[0..N) with values uniform in [LO, HI), from SEED.  */
void
peers_fill (float *a, long n, float lo, float hi, unsigned long long seed)
{
  unsigned long long s = 0x9E3779B97F4A7C15ULL ^ seed;
  for (long e = 0; e < n; e++)
    {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      a[e] = lo + (hi - lo) * (float) ((s >> 11) * (1.0 / 9007199254740992.0));
    }
}

/* Fill int array A[0..N) with values in [0, MAX), from SEED.  */
void
peers_fill_int (int *a, long n, int max, unsigned long long seed)
{
  unsigned long long s = 0x9E3779B97F4A7C15ULL ^ seed;
  for (long e = 0; e < n; e++)
    {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      a[e] = (int) ((s >> 11) % (unsigned long long) max);
    }
}

#ifdef PEERS_CBLAS
/* The row-major dgemm of <cblas.h>, declared here so no header is
   needed (CblasRowMajor 101, CblasNoTrans 111).  */
void cblas_dgemm (int, int, int, int, int, int, double, const double *, int,
                  const double *, int, double, double *, int);

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* GFLOP/s (2 N^3 per call) of the fastest of REPS calls after one warm
   up; 0 when out of memory.  */
double
peers_dgemm_gflops (int n, int reps)
{
  size_t e = (size_t) n * n;
  double *a = malloc (e * sizeof *a), *b = malloc (e * sizeof *b),
         *c = calloc (e, sizeof *c);
  if (!a || !b || !c)
    return 0;
  for (size_t i = 0; i < e; i++)
    a[i] = 1.0 / (1 + i % 7), b[i] = 1.0 / (1 + i % 5);
  double best = 1e30;
  for (int r = -1; r < reps; r++)
    {
      double t0 = now ();
      cblas_dgemm (101, 111, 111, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
      double t = now () - t0;
      if (r >= 0 && t < best)
        best = t;
    }
  free (a);
  free (b);
  free (c);
  return 2.0 * n * n * (double) n / best * 1e-9;
}
#endif

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-vector-forward -fplugin-arg-tensorgrad-dump" } */
/* -fplugin-arg-tensorgrad-vector-forward takes fmax and fmin out of
   calls (plugin/forward.cc, forward_minmax) so GCC can vectorize them,
   with fmax's values, NaNs included: a row maximum (mx = fmaxf (mx,
   x[j]), its start a NaN, a NaN inside, every element a NaN, all
   -INFINITY, an INFINITY), a row minimum in double with the call's
   arguments the other way round and its result read after the loop
   and inside the next one, a ReLU (fmaxf (x, 0): a NaN gives 0) and the
   maximum of two arrays; and the running maximum and minimum written
   as a branch, as llm.c does (if (x[j] > mx) mx = x[j]: a NaN start
   stays, a NaN element is skipped), which become reductions too.  Each against the same loops built without
   the plugin's options (the reference functions here are no kernels:
   their calls stay libm's), bit for bit; the gradients against central
   differences on finite data.  */

#include <math.h>
#include "tg-test.h"

/* Each kernel and its reference from one body: KIND is the kernel's
   attribute, or static for the reference.  */
#define ROWMAX(KIND, NAME)                                                   \
  KIND void NAME (int n, int m, const float *x, float *y)                    \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        float mx = x[i * m];                                                 \
        for (int j = 1; j < m; j++)                                          \
          mx = fmaxf (mx, x[i * m + j]);                                     \
        y[i] = mx;                                                           \
      }                                                                      \
  }
ROWMAX (__attribute__ ((differentiable)), rowmax)
ROWMAX (static, rowmax_ref)

#define ROWMIN_SHIFT(KIND, NAME)                                             \
  KIND void NAME (int n, int m, const double *x, double *y)                  \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        double mn = INFINITY;                                                \
        for (int j = 0; j < m; j++)                                          \
          mn = fmin (x[i * m + j], mn);                                      \
        for (int j = 0; j < m; j++)                                          \
          y[i * m + j] = x[i * m + j] - mn;                                  \
      }                                                                      \
  }
ROWMIN_SHIFT (__attribute__ ((differentiable)), rowmin_shift)
ROWMIN_SHIFT (static, rowmin_shift_ref)

#define RELU_MAX(KIND, NAME)                                                 \
  KIND void NAME (int n, const float *a, const float *b, float *r, float *s)  \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        r[i] = fmaxf (a[i], 0.0f);                                           \
        s[i] = fmaxf (a[i], b[i]) + fminf (b[i], a[i]);                      \
      }                                                                      \
  }
RELU_MAX (__attribute__ ((differentiable)), relu_max)
RELU_MAX (static, relu_max_ref)

/* The same written as llm.c writes them: a branch, its row loaded
   again in it; a local value and mn >= v for a minimum.  */
#define ROWMAX_IF(KIND, NAME)                                                \
  KIND void NAME (int n, int m, const float *x, float *y)                    \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        float mx = x[i * m];                                                 \
        for (int j = 0; j < m; j++)                                          \
          if (x[i * m + j] > mx)                                             \
            mx = x[i * m + j];                                               \
        y[i] = mx;                                                           \
      }                                                                      \
  }
ROWMAX_IF (__attribute__ ((differentiable)), rowmax_if)
ROWMAX_IF (static, rowmax_if_ref)

#define ROWMIN_IF(KIND, NAME)                                                \
  KIND void NAME (int n, int m, const double *x, double *y)                  \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        double mn = 1e300;                                                   \
        for (int j = 0; j < m; j++)                                          \
          {                                                                  \
            double v = x[i * m + j];                                         \
            if (mn >= v)                                                     \
              mn = v;                                                        \
          }                                                                  \
        for (int j = 0; j < m; j++)                                          \
          y[i * m + j] = x[i * m + j] - mn;                                  \
      }                                                                      \
  }
ROWMIN_IF (__attribute__ ((differentiable)), rowmin_if)
ROWMIN_IF (static, rowmin_if_ref)

/* A branch that sets another variable too is no running maximum
   alone: left as it is (seen = 1 is a statement of the branch, which
   then does more than the maximum's load: dead_without; were it a
   constant of the join's PHI, the check of the join's other PHIs).  */
#define ROWMAX_SEEN(KIND, NAME)                                              \
  KIND void NAME (int n, int m, const float *x, float *y)                    \
  {                                                                          \
    for (int i = 0; i < n; i++)                                              \
      {                                                                      \
        float mx = 0.5f, seen = 0.0f;                                        \
        for (int j = 0; j < m; j++)                                          \
          if (x[i * m + j] > mx)                                             \
            {                                                                \
              mx = x[i * m + j];                                             \
              seen = 1.0f;                                                   \
            }                                                                \
        y[i] = mx + seen;                                                    \
      }                                                                      \
  }
ROWMAX_SEEN (__attribute__ ((differentiable)), rowmax_seen)
ROWMAX_SEEN (static, rowmax_seen_ref)

/* Equal, a NaN to a NaN.  */
static int
same_f (float a, float b)
{
  return (isnan (a) && isnan (b)) || a == b;
}

enum { N = 9, M = 37 };

int
main (void)
{
  float x[N * M], y[N], want[N];
  tg_fill_f (x, N * M, 1, -3, 3);
  x[0] = NAN;                         /* row 0: its start */
  x[1 * M + 17] = NAN;                /* row 1: inside */
  x[1 * M + 30] = 5.0f;
  for (int j = 0; j < M; j++)
    {
      x[2 * M + j] = NAN;             /* row 2: all NaN */
      x[3 * M + j] = -INFINITY;       /* row 3: all -INFINITY */
    }
  x[3 * M + 5] = NAN;
  x[4 * M + 36] = INFINITY;           /* row 4: the last, INFINITY */
  for (int j = 0; j < M - 1; j++)
    x[5 * M + j] = NAN;               /* row 5: the last alone */
  rowmax (N, M, x, y);
  rowmax_ref (N, M, x, want);
  for (int i = 0; i < N; i++)
    CHECK (same_f (y[i], want[i]));
  CHECK (isnan (y[2]) && y[3] == -INFINITY && y[4] == INFINITY
         && y[1] == 5.0f);
  /* The branch keeps a NaN start and skips a NaN element.  */
  rowmax_if (N, M, x, y);
  rowmax_if_ref (N, M, x, want);
  for (int i = 0; i < N; i++)
    CHECK (same_f (y[i], want[i]));
  CHECK (isnan (y[0]) && y[1] == 5.0f && y[4] == INFINITY);
  rowmax_seen (N, M, x, y);
  rowmax_seen_ref (N, M, x, want);
  for (int i = 0; i < N; i++)
    CHECK (same_f (y[i], want[i]));
  CHECK (y[1] == 6.0f);

  double xd[N * M], yd[N * M], wd[N * M];
  tg_fill (xd, N * M, 2, -3, 3);
  xd[0] = NAN;
  for (int j = 0; j < M; j++)
    xd[2 * M + j] = NAN;
  xd[3 * M + 3] = -INFINITY;
  rowmin_shift (N, M, xd, yd);
  rowmin_shift_ref (N, M, xd, wd);
  for (int e = 0; e < N * M; e++)
    CHECK ((isnan (yd[e]) && isnan (wd[e])) || yd[e] == wd[e]);
  rowmin_if (N, M, xd, yd);
  rowmin_if_ref (N, M, xd, wd);
  for (int e = 0; e < N * M; e++)
    CHECK ((isnan (yd[e]) && isnan (wd[e])) || yd[e] == wd[e]);

  float a[M], b[M], r[M], s[M], wr[M], ws[M];
  tg_fill_f (a, M, 3, -1, 1);
  tg_fill_f (b, M, 4, -1, 1);
  a[3] = NAN, b[4] = NAN, a[5] = b[5] = NAN, b[6] = INFINITY;
  a[7] = -INFINITY;
  relu_max (M, a, b, r, s);
  relu_max_ref (M, a, b, wr, ws);
  for (int e = 0; e < M; e++)
    CHECK (same_f (r[e], wr[e]) && same_f (s[e], ws[e]));
  CHECK (r[3] == 0.0f && isnan (s[5]) && !isnan (s[3]));

  /* The gradients, at finite points away from ties.  */
  int n = N, m = M;
  tg_fill_f (x, N * M, 5, -3, 3);
  TG_GRADCHECK (rowmax, &n, &m, x, y);
  TG_GRADCHECK (rowmax_if, &n, &m, x, y);
  TG_GRADCHECK (rowmax_seen, &n, &m, x, y);
  tg_fill (xd, N * M, 6, -3, 3);
  TG_GRADCHECK (rowmin_shift, &n, &m, xd, yd);
  TG_GRADCHECK (rowmin_if, &n, &m, xd, yd);
  tg_fill_f (a, M, 7, 0.1, 1);
  for (int e = 0; e < M; e++)
    {
      b[e] = a[e] + (e % 2 ? 0.5f : -0.5f);
      if (e % 3 == 0)
        a[e] = -a[e];
    }
  TG_GRADCHECK (relu_max, &m, a, b, r, s);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "vector-forward: 1 calls of fmax or fmin inline" } } */
/* { dg-final { scan-tensorgrad-dump "vector-forward: 3 calls of fmax or fmin inline" } } */
/* { dg-final { scan-tensorgrad-dump-times "vector-forward: 1 running maxima or minima of a branch as reductions" 2 } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-parallel-min=1000 -fplugin-arg-tensorgrad-dump -Wl,--wrap=GOMP_parallel" } */
/* A gradient nest on OpenMP threads gets a team of one thread when it
   does little (plugin/emit.cc's parallel_nest, lib/passes/parallel.c
   step 4): below parallel-min statement runs, waking the other threads
   costs more than they save.  GOMP_parallel, which every region GCC
   lowers calls, is wrapped (the link's --wrap) to record the team each
   of the gradients' regions asks for: one thread at 3 x 5, all of
   OpenMP's at 40 x 30 (each gradient runs its statements 2 n m times,
   the dump says).  Two kernels: one whose gradient sums d_g per thread
   (a partial), one with rows only (no partial: the team size is then a
   clause the region had none of).  Every gradient is checked against
   central differences, and the threads' against one thread's.  */

#include <math.h>
#include <string.h>
#include <omp.h>
#include "tg-test.h"

#ifndef TG_THREADS
#define TG_THREADS 2
#endif

/* y[i][j] = tanh (x[i][j] g[j]): d_g[j] sums over the rows.  */
__attribute__ ((differentiable))
void
scale_cols (int n, int m, const double *x, const double *g, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = tanh (x[i * m + j] * g[j]);
}

/* y[i][j] = sin (x[i][j]) c[i]: every array in rows.  */
__attribute__ ((differentiable))
void
scale_rows (int n, int m, const double *x, const double *c, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] = sin (x[i * m + j]) * c[i];
}

void __real_GOMP_parallel (void (*) (void *), void *, unsigned, unsigned);

/* The team sizes the regions asked for while RECORDING.  */
static int recording, nteams;
static unsigned teams[16];

void
__wrap_GOMP_parallel (void (*fn) (void *), void *data, unsigned nth,
                      unsigned flags)
{
  if (recording && nteams < 16)
    teams[nteams++] = nth;
  __real_GOMP_parallel (fn, data, nth, flags);
}

typedef void (*kernel_fn) (int, int, const double *, const double *,
                           double *);
typedef void (*grad_fn) (int, int, const double *, const double *,
                         double *, double *, double *, double *);

struct ctx { kernel_fn f; int n, m, nv; double *x, *v; const double *gy; };

static double
loss (void *p)
{
  struct ctx *k = p;
  double y[k->n * k->m];
  k->f (k->n, k->m, k->x, k->v, y);
  return tg_dot (k->gy, y, k->n * k->m);
}

/* Kernel F (gradient G, the second input NV elements) at N x M: the
   gradient's regions ask for a team of WANT (0: any, as a region
   without the clause), its result is the finite differences', and on
   one thread the same up to the order of the partials' sums.  */
static void
check (kernel_fn f, grad_fn g, int n, int m, int nv, unsigned want)
{
  int ny = n * m;
  double *x = tg_alloc (ny), *v = tg_alloc (nv), *y = tg_alloc (ny);
  double *gy = tg_alloc (ny), *dx = tg_alloc (ny), *dv = tg_alloc (nv);
  double *dx1 = tg_alloc (ny), *dv1 = tg_alloc (nv);
  tg_fill (x, ny, 21, -1, 1);
  tg_fill (v, nv, 22, -1, 1);
  tg_fill (gy, ny, 23, -1, 1);
  f (n, m, x, v, y);
  recording = 1;
  nteams = 0;
  g (n, m, x, v, y, dx, dv, gy);
  recording = 0;
  CHECK (nteams >= 1);
  for (int t = 0; t < nteams; t++)
    CHECK_AT (teams[t] == want, t);
  struct ctx k = { f, n, m, nv, x, v, gy };
  tg_fd_check ("x", x, ny, loss, &k, dx, TG_RTOL, TG_ATOL);
  tg_fd_check ("v", v, nv, loss, &k, dv, TG_RTOL, TG_ATOL);
  omp_set_num_threads (1);
  g (n, m, x, v, y, dx1, dv1, gy);
  omp_set_num_threads (TG_THREADS);
  for (int i = 0; i < ny; i++)
    CHECK_NEAR_AT (dx1[i], dx[i], 1e-12, 1e-14, i);
  for (int i = 0; i < nv; i++)
    CHECK_NEAR_AT (dv1[i], dv[i], 1e-12, 1e-14, i);
  free (x), free (v), free (y), free (gy), free (dx), free (dv);
  free (dx1), free (dv1);
}

int
main (void)
{
  omp_set_num_threads (TG_THREADS);
  check (scale_cols, scale_cols_grad, 3, 5, 5, 1);
  check (scale_cols, scale_cols_grad, 40, 30, 30, TG_THREADS);
  check (scale_rows, scale_rows_grad, 3, 5, 3, 1);
  check (scale_rows, scale_rows_grad, 40, 30, 40, TG_THREADS);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump-times "parallel: one thread there where m \\* \\(n \\* 2\\) is below parallel-min" 2 } } */

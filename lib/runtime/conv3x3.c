/* conv3x3.c -- libtensorgrad's 3x3 convolutions by Winograd's F(2x2, 3x3)
   (-fplugin-arg-tensorgrad-winograd): tg_conv3x3_f32 and _f64, and their
   gradients, which the code the plugin makes calls in place of a kernel's
   convolution (NCHW, 3x3 filters, stride 1, zero padding 1, a bias per
   filter, or none: the _nobias_ functions) and of its gradient.

     y[n][o][oh][ow] = b[o] + sum over ci, kh, kw where the input is
       inside of x[n][ci][oh + kh - 1][ow + kw - 1] wt[o][ci][kh][kw]

   Forward, one image at a time, the images split over OpenMP's threads
   when libtensorgrad was built with OpenMP (configure's AC_OPENMP:
   OMP_NUM_THREADS, one team inside another region): U = G g G^T for
   each filter pair (4 x 4), V = B^T d B for each 4 x 4 input tile d
   (rows 2 ty - 1 .. 2 ty + 2,
   zeros outside), one product per point xi of the 16: M[xi] (f x tiles)
   = U[xi] (f x c) V[xi] (c x tiles), then y = A^T M A + b per 2 x 2
   output tile: 2.25 times fewer multiplications than the direct sum.
   The gradient is the adjoint of those steps: dM = A d_y A^T,
   d_U[xi] += dM[xi] V[xi]^T, dV[xi] = U[xi]^T dM[xi], d_x += B dV B^T
   over the overlapping tiles, d_wt += G^T d_U G, d_b += the sum of d_y.
   Each thread has its workspace and a partial d_U, which are added in
   the order of the threads (so d_wt depends on their number, not on
   timing).  The gradient ABI: d_x, d_wt and d_b accumulate, any may be
   NULL (not wanted), d_y is read (NULL: a zero adjoint, nothing to
   add).

   The products call the gemm the caller passes (the code the plugin makes
   passes the CBLAS's cblas_sgemm or cblas_dgemm: the option implies
   blas, whose calls link a CBLAS), or these loops when it passes NULL;
   libtensorgrad links no CBLAS of its own.  The 16 points' slices
   of V and M lie PAD elements more than their sizes apart: at a
   multiple of 4 KB apart (bench/conv2d.c's 32 x 256 floats) the
   transforms' 16 streams meet in one set of the cache, which took the
   gradient from 2.8 ms to 5.0 (bench/conv2d_winograd.c, one thread).
   The workspace is the calling thread's, kept for its next call
   (workspace, below).  When it cannot be allocated, a size passes the
   CBLAS's int
   or the image is wider than MAX_WIDTH, the direct sums run instead (the
   same results up to rounding).

   The order of summation differs from the direct form's: the
   transforms' additions and the products' (measured on bench/conv2d.c's
   sizes in float: relative differences from the direct form in double
   2.3e-7 to 2.6e-7, where the direct form's own are about 1e-7).  */

#ifdef HAVE_CONFIG_H
#include "tg-config.h"
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tensorgrad.h"

/* Elements between the 16 points' slices beyond their size.  */
#define PAD 32
/* The widest image the transforms take: their rows live on the stack
   (in_adjoint's 16 of half a row and 6 of a row: 0.8 MB in double).  */
#define MAX_WIDTH 8192

/* CBLAS's row-major order and transposition codes.  */
#define ROW_MAJOR 101
#define NO_TRANS 111
#define TRANS 112

/* The transforms' loops vectorize with -O3's cost model (bench/conv2d.c's
   gradient 3.19 ms at -O2, 2.53 at -O3, one thread): whatever CFLAGS
   say.  */
#pragma GCC optimize ("O3")

/* Each calling thread keeps its largest workspace for its next call,
   freed when the thread ends (a tss destructor; the main thread's at the
   process's exit): a call per training step would otherwise map and
   unmap it every time, bench/conv2d.c's gradient 3.1 ms instead of 2.6
   (its workspace about 2 MB at two threads).  */
static thread_local void *ws_block;
static thread_local size_t ws_bytes;
static tss_t ws_tss;
static int ws_tss_ok;
static once_flag ws_once = ONCE_FLAG_INIT;

static void
make_ws_tss (void)
{
  ws_tss_ok = tss_create (&ws_tss, free) == thrd_success;
}

/* At least BYTES of the calling thread's workspace, or NULL.  */
static void *
workspace (size_t bytes)
{
  if (bytes <= ws_bytes)
    return ws_block;
  call_once (&ws_once, make_ws_tss);
  free (ws_block);
  ws_block = malloc (bytes);
  ws_bytes = ws_block ? bytes : 0;
  if (ws_tss_ok)
    tss_set (ws_tss, ws_block);
  return ws_block;
}

/* N elements of SIZE bytes, rounded up to 64 bytes: the workspace's
   parts each start on a cache line.  */
static size_t
part (long n, size_t size)
{
  return ((size_t) n * size + 63) / 64 * 64;
}

/* Threads for NB images: OpenMP's (omp_get_max_threads, at most NB) when
   libtensorgrad was built with it, else one.  */
static int
threads_for (long nb)
{
#ifdef _OPENMP
  int nt = omp_get_max_threads ();
  return nt < 1 ? 1 : nt > nb ? (int) nb : nt;
#else
  (void) nb;
  return 1;
#endif
}

/* The calling thread's number in its team, and the team's size (one
   inside another region, where OpenMP gives no more).  */
static int
thread_id (void)
{
#ifdef _OPENMP
  return omp_get_thread_num ();
#else
  return 0;
#endif
}

static int
team_size (void)
{
#ifdef _OPENMP
  return omp_get_num_threads ();
#else
  return 1;
#endif
}

#define T float
#define SUFFIX(name) name##_f32
#define CONV tg_conv3x3_f32
#define CONV_GRAD tg_conv3x3_f32_grad
#define CONV_NOBIAS tg_conv3x3_nobias_f32
#define CONV_NOBIAS_GRAD tg_conv3x3_nobias_f32_grad
#define GEMM_FN tg_sgemm_fn
#include "conv3x3-impl.h"
#undef T
#undef SUFFIX
#undef CONV
#undef CONV_GRAD
#undef CONV_NOBIAS
#undef CONV_NOBIAS_GRAD
#undef GEMM_FN

#define T double
#define SUFFIX(name) name##_f64
#define CONV tg_conv3x3_f64
#define CONV_GRAD tg_conv3x3_f64_grad
#define CONV_NOBIAS tg_conv3x3_nobias_f64
#define CONV_NOBIAS_GRAD tg_conv3x3_nobias_f64_grad
#define GEMM_FN tg_dgemm_fn
#include "conv3x3-impl.h"

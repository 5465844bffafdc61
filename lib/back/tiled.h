/* tiled.h -- a matrix product without a library: the cache-tiled,
   register-blocked nest the back ends run for a blas stage (te_stage.blas,
   lib/ir/gemm.h) when -fplugin-arg-tensorgrad-blas is not given, and
   for a kernel's own products under -fplugin-arg-tensorgrad-tiled-forward
   (plugin/forward.cc) (te_program.tiled).

   Each back end emits, once per object (plugin/tiled.cc as GENERIC,
   lib/back/cgen-tiled.c as C), a static function per element type

       void tg_tiled_f64 (long m, long n, long k, double alpha,
			  const double *a, long sai, long sap,
			  const double *b, long sbp, long sbj,
			  double *c, long ldc, long set)

   computing C(i, j) += alpha * sum_p A(i, p) B(p, j) for i < M, j < N,
   p < K (with SET nonzero, C(i, j) = ...: its old value is not read,
   lib/back/lower.c step 6c), with A(i, p) = a[i*sai + p*sap],
   B(p, j) = b[p*sbp + j*sbj] and
   C(i, j) = c[i*ldc + j]: a transposed operand is a swap of its strides.
   The stage calls it once per iteration of its batch loops, inside the
   statement's NULL tests, when the sizes pass te_tiled's test below
   (the same in both back ends); otherwise it runs the stage's loops.

   1. For each block of NC columns (jc) and then of KC terms (pc, in
      increasing order): the B block is packed into panels of NR columns,
      each panel row after row (pb[jr*kc + p*NR + j]), zero past N.
   2. For each block of MC rows (ic): the A block is packed into panels
      of MR rows, column after column (pa[ir*kc + p*MR + i]), zero past M.
      Both read their operand along its unit stride: a panel's rows (A)
      or columns (B) one after the other when the stride along p is 1
      (a transposed operand), else p outermost.  Read across the unit
      stride, the panel's NR or MR lines, a multiple of 4 KB apart in
      bench/conv2d.c (d_wt's x.col^T, rows of h w = 1024 floats), share
      one set of the cache: its gradient spent 62% of its time packing
      and took 11.0 ms; read along it, 4.7 ms (-O3 -march=native, one
      thread), where OpenBLAS's sgemm takes 5.6 to 6.0.
   3. For each MR x NR tile: MR * NV vector accumulators (NV vectors of
      the target's preferred width across NR = NV * lanes columns) start
      at zero; for p < kc they add the broadcast A element times B's
      vectors, both panels read in order; then C += alpha * tile (a full
      tile with vector loads and stores, an edge tile through a scratch
      copy, element by element).  C is only added to, never assigned,
      but in the first block of terms (pc = 0) with SET: C = alpha *
      tile.
   4. When the packing buffers cannot be allocated, the same sums without
      packing: for each KC block, each element's partial sum, then
      C += alpha * it (C = with SET, in the first block).
   5. On x86-64 with ifuncs, the function is an ifunc whose resolver
      (__builtin_cpu_init, __builtin_cpu_supports) picks, when the
      program starts, the first of the versions TE_TILED_WIDE the CPU
      runs (AVX-512F, then AVX2 with FMA), else the default: steps 1-4
      with the version's vector width and tile rows, under GCC's target
      attribute, each multiply-add fused (a fused multiply-add also for
      C += alpha * s; the set form's C = alpha * s is a plain multiply,
      one rounding as well).  GCC's target_clones would copy one body, whose
      generic vectors keep the width they were built with (16 bytes at
      the default -march, a version for AVX-512 running them 16 bytes at
      a time), so each version is a body of its own.

   The order of summation: each element of C gets, for each block of KC
   terms in order, the sum of its terms in increasing p (started at
   zero), times alpha.  It depends on KC only, not on the vector width,
   MR, NR, MC or NC, so the GIMPLE (which takes the target's vector
   width) and the dump-c C (16-byte vectors) sum alike, and the result
   is deterministic on a given CPU; it differs from the stage's loops
   (and the MPFR interpreter) by the order of summation, and the wide
   versions (step 5) from the default one by their fused multiply-adds,
   one rounding for each term and for each block's addition into C.
   Measured with bench/peers.py (one thread, -O3 at the default
   -march, tiled-forward, a quiet machine): dense's training step took
   0.93 times PyTorch's time and its gradient 0.97 times, the MLP's 1.29
   and 1.56, conv2d's 2.29 and 2.39 (4.03 4.06, 4.31 6.05 and 5.07 4.89
   in a run the day before, SSE2 only); on bench/mlp.c's gradient the
   AVX-512 version ran its float products at about 78 GFLOP/s (a loaded
   machine, 4-row tiles, 77% of the gradient's time in perf).

   The tile sizes were measured by hand on the bench's dense product
   (float, 256 x 512 x 512, no -march): 4 x 12 floats at 16-byte vectors ran at
   25-30 GFLOP/s at -O2 and -O3 alike (4 x 8: 25, 3 x 16: 29-30, 8 x 4: 19);
   register blocks left as arrays (not unrolled) ran at 7-14 at -O2.  In the
   plugin (the dense gradient's two products, CPU time, a loaded
   machine): 4 x 3 vectors 35-36 GFLOP/s at -O2 and -O3 though GCC keeps
   one accumulator on the stack with SSE's two-operand instructions (17
   registers); 6 x 2 and 5 x 2, which fit, 32-33.  The loops it replaces
   ran at 15 (-O2) and 23 (-O3) on that product.  Small products: at
   64 x 64 x 64 the loops were as fast at -O2 and faster at -O3 (41
   against 32 GFLOP/s, in L1), at 64 x 128 x 64 and 96^3 slower (28
   against 38, 32 against 50 at -O3); below the threshold the two are
   alike.  */

#ifndef TG_TILED_H
#define TG_TILED_H

/* Rows of a register tile; vectors across one.  */
#define TE_TILED_MR 4
/* The most rows of any version's tile (TE_TILED_WIDE).  */
#define TE_TILED_MR_MAX 8
#define TE_TILED_NV 3
/* Terms per block of the sum (sets the order of summation), rows per
   packed A block, NR-column panels per packed B block.  KC 64, not 256:
   the same speed on the bench's dense and MLP gradients, and a float
   MLP gradient's error against double 6.0e-7 instead of 7.3e-7 (the
   expert's, summing in order, 7.0e-7): 64 terms in order, then the
   blocks' sums.  */
#define TE_TILED_KC 64
#define TE_TILED_MC 64
#define TE_TILED_NC_PANELS 64

/* The sizes for which a stage runs tiled: M >= 4, N >= 8, K >= 8 and
   M N K >= 32768 (tested as M N >= 32768 / K, no overflow); smaller
   products run the stage's loops, which pack nothing.  */
#define TE_TILED_MIN_M 4
#define TE_TILED_MIN_N 8
#define TE_TILED_MIN_K 8
#define TE_TILED_MIN_MNK 32768

/* The versions for wider vector units, chosen at run time on x86-64
   where the target has ifuncs (plugin/tiled.cc; in dump-c's C under
   #if defined (__x86_64__) && defined (__ELF__)), widest first: the
   suffix of the function's name, GCC's target attribute, the vector
   width in bytes and the rows of a register tile (vectors across one:
   TE_TILED_NV).  Their sums multiply and add in one rounding (fused
   multiply-add, also where they add a tile into C), the default
   version's in two (unless GCC contracts them, -ffp-contract=fast and a
   -march with FMA); the order of the terms is the same (KC).  AVX-512's
   tile has 8 rows (24 of its 32 registers accumulate): measured against
   4 rows at the default -march, three runs each on a quiet machine,
   bench/conv2d.c's gradient 5.60-5.71 ms against 5.85-6.31, bench/mlp.c's
   1.75-1.87 against 1.96-2.06.  AVX2's 4 x 3 vectors fill its 16.  */
#define TE_TILED_NWIDE 2
#define TE_TILED_WIDE                                                          \
  {                                                                            \
    { "avx512", "avx512f", 64, 8 }, { "avx2", "avx2,fma", 32, 4 }              \
  }

typedef struct te_tiled_wide
{
  const char *suffix, *target;
  int vbytes, mr;
} te_tiled_wide;

#include "ir/te.h"

struct sbuf;

/* The C of tg_tiled_f32 (TYPE TE_F32) or tg_tiled_f64, in an #ifndef of
   its own (a dump-c file holds the gradients of several kernels), into
   OUT (cgen-tiled.c).  */
void cg_tiled_function (te_type type, struct sbuf *out);

#endif /* TG_TILED_H */

/* tensorgrad.h -- public header of tensorgrad, a GCC plugin that
   synthesizes reverse-mode gradients, and of its runtime library
   libtensorgrad.

   Including this header is optional: the plugin itself needs nothing
   from it.  It gives

     TG_DIFFERENTIABLE   marks a kernel; always expands to
			 __attribute__((differentiable)).  Without
			 -fplugin=tensorgrad, GCC ignores the attribute
			 with a -Wattributes warning and no <name>_grad
			 is defined.

   and the declarations of libtensorgrad (link with -ltensorgrad): the
   runtime gradient checker tg_gradcheck, below, tg_keep_product, which
   the code -fplugin-arg-tensorgrad-keep-products makes calls, and the
   convolutions -fplugin-arg-tensorgrad-winograd's calls.

   The gradient ABI, in short: for a kernel `R f (P1, ..., Pn)' the plugin
   defines `void f_grad (P1, ..., Pn, S1, ..., Sm [, R d_return])' with
   one shadow Si per float or double pointer or scalar parameter, in
   parameter order; input shadows accumulate (the caller zeroes them),
   output shadows hold the incoming adjoint; no two pointer arguments may
   overlap.  See README for the whole contract.  */

#ifndef TENSORGRAD_H
#define TENSORGRAD_H

#include <stdio.h>
#ifdef __cplusplus
#include <initializer_list>
#endif

#define TG_DIFFERENTIABLE __attribute__ ((differentiable))

#ifdef __cplusplus
extern "C" {
#endif

/* The version of libtensorgrad, e.g. "0.1.0".  */
const char *tg_version (void);

/* ---- The runtime gradient checker ------------------------------------

   tg_gradcheck checks a forward/backward pair that follows the gradient
   ABI -- a <name>_grad the plugin generated, or a hand-written one -- on
   the caller's inputs, by central differences.

   The pair is described by a tg_kernel: its parameters (name, kind,
   role), its return type and three small functions ("trampolines") that
   call the forward and the backward with an argument vector and give the
   number of elements behind each floating pointer.  For a generated
   gradient the plugin defines the descriptor `<name>_gradcheck'; for a
   hand-written pair the user writes it (see the example below).

   The argument vector ARGS has one entry per parameter: the address of
   the value for a scalar (`&n', `&alpha'), the pointer itself for a
   pointer parameter (`x').  Shadows, likewise one entry per active
   parameter in ABI order, are always pointers: the array shadow, or the
   address of a scalar's shadow (the ABI's `T *d_a').

   What is checked.  With deterministic pseudo-random weights c (exactly
   representable in the output's type), the loss is

     L = sum_k c_k * out_k  (+ c_ret * ret)

   over every element of every output and in-out parameter.  The backward
   is called once with the output shadows set to c, the in-out shadows to
   c (the adjoint of the final value), the input shadows to 0 and
   d_return = c_ret; its input shadows and returned in-out shadows are
   the analytic gradient.  For each element x_i of each input, in-out
   (entry value) and floating scalar, the numeric gradient is

     (L (x_i + h) - L (x_i - h)) / ((x_i + h) - (x_i - h))

   with x_i +- h rounded to the element's type and the denominator formed
   from the values actually stored.  h = r * max (1, |x_i|), with r the
   cube root of the machine epsilon of the kernel's precision (about
   6.1e-6 for double, 4.9e-3 for float), which balances truncation
   (O(h^2)) against rounding (O(eps/h)).  The two sums of products are
   accumulated exactly in MPFR, so outputs x_i does not affect cancel
   exactly and the only rounding left is the kernel's own.  Before each
   evaluation every floating array is reset to its entry value (so in-out
   and output arrays start from what the caller passed); the caller's own
   arrays are never written: the checker works on private copies.

   An element passes when, as torch.allclose (analytic, numeric) tests,

     |analytic - numeric| <= atol + rtol * |numeric|

   and both are finite.  A kernel computes in float ("float precision")
   when any floating parameter or its result is float; then its step and
   tolerances are float's.  Defaults, next to PyTorch's gradcheck:

		      tensorgrad double   tensorgrad float   PyTorch gradcheck
     step             6.1e-6*max(1,|x|)   4.9e-3*max(1,|x|)  eps = 1e-6 (absolute)
     atol             1e-6                1e-3               1e-5
     rtol             1e-5                1e-2               1e-3

   The double defaults are tighter than PyTorch's because the step is
   scaled per element and the loss sums are exact; PyTorch gives no float
   defaults (it asks for double inputs).  Loosen them with tg_check_opts
   for badly conditioned kernels or large fan-out.

   Besides the values, the checker tests the ABI: the forward writes no
   input; the backward writes nothing but the input and in-out shadows
   (inputs, outputs and output shadows are unchanged) and adds to input
   shadows rather than overwriting them (a second call with the input
   shadows pre-filled with 1).  A violation counts in
   tg_report.abi_errors and fails the check.

   Integer parameters (sizes, index arrays) are passed through untouched;
   a parameter the kernel never accesses (TG_UNUSED) gets a NULL shadow.
   The cost is two forward calls per checked element: use small inputs.

   Example, a hand-written pair y = A x (A is m x n):

     void mv (int m, int n, const double *a, const double *x, double *y);
     void mv_grad (int m, int n, const double *a, const double *x,
		   double *y, double *d_a, double *d_x, double *d_y);

     static void
     mv_fwd (void *const *a, void *ret)
     {
       mv (TG_ARG (int, a, 0), TG_ARG (int, a, 1), TG_PTR (double, a, 2),
	   TG_PTR (double, a, 3), TG_PTR (double, a, 4));
     }

     static void
     mv_bwd (void *const *a, void *const *s, const void *d_return)
     {
       mv_grad (TG_ARG (int, a, 0), TG_ARG (int, a, 1),
		TG_PTR (double, a, 2), TG_PTR (double, a, 3),
		TG_PTR (double, a, 4), TG_PTR (double, s, 0),
		TG_PTR (double, s, 1), TG_PTR (double, s, 2));
     }

     static void
     mv_ext (void *const *a, long *count)
     {
       long m = TG_ARG (int, a, 0), n = TG_ARG (int, a, 1);
       count[2] = m * n, count[3] = n, count[4] = m;
     }

     static const tg_param mv_params[] = {
       { "m", TG_INT, TG_IN },  { "n", TG_INT, TG_IN },
       { "a", TG_PTR_DOUBLE, TG_IN }, { "x", TG_PTR_DOUBLE, TG_IN },
       { "y", TG_PTR_DOUBLE, TG_OUT },
     };
     static const tg_kernel mv_kernel
       = TG_KERNEL ("mv", mv_params, TG_VOID, mv_fwd, mv_bwd, mv_ext);

     tg_report r;
     int bad = tg_gradcheck (&mv_kernel, TG_ARGS (&m, &n, a, x, y), NULL, &r);
     tg_report_print (stderr, &r);
     tg_report_free (&r);

   With a generated gradient the descriptor exists already:

     bad = tg_gradcheck (&mv_gradcheck, TG_ARGS (&m, &n, a, x, y), NULL, &r);

   (In another translation unit than the kernel's, declare it with
   TG_DECLARE_GRADCHECK (mv).)  */

/* What a parameter (or, for `ret', the result) is.  Values of the int
   fields `kind' below.  */
enum tg_kind
{
  TG_VOID,	  /* only as a result: the kernel returns nothing */
  TG_INT,	  /* an integer scalar of any integer type: passed through */
  TG_PTR_INT,	  /* a pointer to integers (an index array): passed through */
  TG_FLOAT,	  /* a float by value: active, perturbed */
  TG_DOUBLE,	  /* a double by value: active, perturbed */
  TG_PTR_FLOAT,	  /* a pointer (or VLA) to float: active */
  TG_PTR_DOUBLE	  /* a pointer (or VLA) to double: active */
};

/* What the kernel does with an active parameter (DESIGN.md section 2).
   Values of the int fields `role'; ignored for integer parameters, and a
   by-value scalar is always TG_IN.  */
enum tg_role
{
  TG_IN,	  /* reads its entry values, never writes: checked */
  TG_OUT,	  /* writes it, reads only what it wrote: weighted in L */
  TG_INOUT,	  /* reads its entry values and writes: both */
  TG_UNUSED	  /* never accessed: NULL shadow, not checked */
};

/* One parameter of a kernel.  The fields are ints, not enums, so that
   the layout does not depend on -fshort-enums: the plugin emits these.  */
typedef struct tg_param
{
  const char *name; /* the parameter's name; its shadow is d_<name> */
  int kind;	    /* an enum tg_kind other than TG_VOID */
  int role;	    /* an enum tg_role */
} tg_param;

/* The layout version of tg_kernel; tg_gradcheck refuses another.  */
#define TG_KERNEL_VERSION 1

/* A forward/backward pair following the gradient ABI.  */
typedef struct tg_kernel
{
  int version;		  /* TG_KERNEL_VERSION */
  const char *name;	  /* the forward's name, for the report */
  int nparams;		  /* number of parameters of the forward */
  const tg_param *params; /* its parameters, in order */
  int ret;		  /* TG_VOID, TG_FLOAT or TG_DOUBLE */
  /* Call the forward with ARGS (see above); store its result at RET
     (a float or double) unless it returns void.  */
  void (*forward) (void *const *args, void *ret);
  /* Call <name>_grad with ARGS, the shadows SHADOWS[0..m-1] (m = the
     number of active parameters) and, for a floating result, the value
     at D_RETURN as d_return.  */
  void (*backward) (void *const *args, void *const *shadows,
		    const void *d_return);
  /* Set COUNT[i] to the number of elements the forward may access
     through pointer parameter i (1 + the largest index), for each
     TG_PTR_FLOAT or TG_PTR_DOUBLE parameter that is not TG_UNUSED;
     other entries may be left alone.  May be NULL when there is no such
     parameter.  */
  void (*extents) (void *const *args, long *count);
} tg_kernel;

/* An initializer for a tg_kernel, PARAMS being an array.  */
#define TG_KERNEL(name, params, ret, forward, backward, extents)             \
  {                                                                         \
    TG_KERNEL_VERSION, (name), (int) (sizeof (params) / sizeof (params)[0]), \
      (params), (ret), (forward), (backward), (extents)                     \
  }

/* In a trampoline: the value of scalar argument I of type TYPE, and
   argument (or shadow) I as a pointer to TYPE.  */
#define TG_ARG(type, args, i) (*(type *) (args)[i])
#define TG_PTR(type, args, i) ((type *) (args)[i])

/* The argument vector of a call, as a compound literal (C99):
   TG_ARGS (&n, x, y).  In C++, which has no array compound literals,
   the array of an initializer list, which lives until the end of the
   full expression (the call it is an argument of).  */
#ifdef __cplusplus
#define TG_ARGS(...)                                                          \
  (::std::initializer_list<const void *> ({ __VA_ARGS__ }).begin ())
#else
#define TG_ARGS(...) ((const void *const[]){ __VA_ARGS__ })
#endif

/* Declare the descriptor the plugin defines for kernel NAME.  */
#define TG_DECLARE_GRADCHECK(name) extern const tg_kernel name##_gradcheck

/* Options; a zero field takes its default.  */
typedef struct tg_check_opts
{
  double rtol;	      /* relative tolerance; 1e-5 (double), 1e-2 (float) */
  double atol;	      /* absolute tolerance; 1e-6 (double), 1e-3 (float) */
  double step;	      /* relative step r, h = r * max (1, |x|); cube root
			 of the precision's epsilon */
  unsigned long seed; /* of the weights c; 0 means 1 */
  int flags;	      /* TG_CHECK_* below, or 0 */
} tg_check_opts;

/* Skip the ABI checks (writes outside the shadows, accumulation).  */
#define TG_CHECK_NO_ABI 1

/* What the check found for one shadow.  */
typedef struct tg_shadow_report
{
  const char *name; /* the parameter's name; the shadow is d_<name> */
  int param;	    /* the parameter's index */
  int role;	    /* its enum tg_role */
  long count;	    /* elements compared; 0 for TG_OUT and TG_UNUSED */
  long nfail;	    /* elements that failed, non-finite ones included */
  long nonfinite;   /* elements whose analytic or numeric value is not
		       finite */
  double max_abs;   /* the largest |analytic - numeric| */
  long max_abs_at;  /* its element index, -1 if none */
  double max_rel;   /* the largest |analytic - numeric| / |numeric| */
  long max_rel_at;  /* its element index, -1 if none */
  long worst_at;    /* the element farthest outside the tolerance (the
		       first non-finite one, if any), -1 if all passed */
  double worst_x;   /* there: the element's value */
  double worst_analytic;
  double worst_numeric;
} tg_shadow_report;

/* What tg_gradcheck found.  tg_gradcheck fills every field; release
   with tg_report_free.  */
typedef struct tg_report
{
  const char *kernel; /* the descriptor's name */
  int status;	      /* what tg_gradcheck returned */
  int is_float;	      /* the kernel's precision is float */
  double rtol, atol, step; /* as used */
  long abi_errors;    /* ABI violations found */
  char message[256];  /* the first ABI violation or argument error */
  int nshadows;	      /* one per active parameter, in ABI order */
  tg_shadow_report *shadows;
} tg_report;

/* Check kernel K at arguments ARGS (one per parameter, see above) with
   OPTS (NULL: defaults); fill REPORT unless it is NULL.  Returns 0 when
   every element passed and the ABI was kept, 1 when not, -1 when K or
   ARGS are invalid (REPORT->message says why), -2 when memory ran out.
   Never writes the caller's arrays.  */
int tg_gradcheck (const tg_kernel *k, const void *const *args,
		  const tg_check_opts *opts, tg_report *report);

/* Print REPORT readably to F: one line per shadow with the largest
   absolute and relative errors and where, the failing elements.  */
void tg_report_print (FILE *f, const tg_report *report);

/* Release what tg_gradcheck allocated in REPORT.  */
void tg_report_free (tg_report *report);

/* -fplugin-arg-tensorgrad-keep-products: the calls the plugin makes
   around a matrix product, C = alpha op (A) op (B) + beta C (row-major,
   FLAGS: 1 A transposed, 2 B transposed, 4 double elements, else
   float), into a local array of kernel KEY's ("kernel/array"):
   TG_KEEP_OPERANDS before the kernel computes it and TG_KEEP_RESULT
   after keep, for the calling thread, copies of the elements the
   product reads of A, B and (beta nonzero) C, and of those it writes;
   TG_KEEP_TAKE, in the
   gradient, copies the kept result into C and returns 1 when the kept
   product had the same sizes, strides, flags, alpha and beta and its
   operands held the same bytes, else returns 0 (the gradient computes
   it).  A thread keeps one product per KEY until it ends.  */
enum { TG_KEEP_OPERANDS, TG_KEEP_RESULT, TG_KEEP_TAKE };
int tg_keep_product (const char *key, int step, int flags, long m, long n,
		     long k, const void *a, long lda, const void *b,
		     long ldb, void *c, long ldc, double alpha,
		     double beta);

/* -fplugin-arg-tensorgrad-winograd: the convolutions the code calls in
   place of a kernel's 3x3 one (NCHW, stride 1, zero padding 1, a bias
   per filter; y[n][o][oh][ow] = b[o] + sum over ci, kh, kw inside the
   image of x[n][ci][oh+kh-1][ow+kw-1] wt[o][ci][kh][kw]) and of its
   gradient, by Winograd's F(2x2, 3x3), the products by GEMM (the code
   passes the CBLAS's cblas_sgemm or cblas_dgemm; NULL: loops of
   libtensorgrad's own).  The gradients follow the gradient ABI for the
   parameters before GEMM: d_x, d_wt and d_b accumulate, any may be
   NULL, d_y is the adjoint of y, read.  A NULL b is no bias; the
   _nobias_ functions are those without one (a convolution whose sum
   starts at 0).  The images run on OpenMP's threads
   (OMP_NUM_THREADS).  */
typedef void tg_sgemm_fn (int order, int trans_a, int trans_b, int m, int n,
			  int k, float alpha, const float *a, int lda,
			  const float *b, int ldb, float beta, float *c,
			  int ldc);
typedef void tg_dgemm_fn (int order, int trans_a, int trans_b, int m, int n,
			  int k, double alpha, const double *a, int lda,
			  const double *b, int ldb, double beta, double *c,
			  int ldc);
void tg_conv3x3_f32 (long nb, long c, long h, long w, long f, const float *x,
		     const float *wt, const float *b, float *y,
		     tg_sgemm_fn *gemm);
void tg_conv3x3_f32_grad (long nb, long c, long h, long w, long f,
			  const float *x, const float *wt, const float *b,
			  float *y, float *d_x, float *d_wt, float *d_b,
			  float *d_y, tg_sgemm_fn *gemm);
void tg_conv3x3_f64 (long nb, long c, long h, long w, long f,
		     const double *x, const double *wt, const double *b,
		     double *y, tg_dgemm_fn *gemm);
void tg_conv3x3_f64_grad (long nb, long c, long h, long w, long f,
			  const double *x, const double *wt, const double *b,
			  double *y, double *d_x, double *d_wt, double *d_b,
			  double *d_y, tg_dgemm_fn *gemm);
void tg_conv3x3_nobias_f32 (long nb, long c, long h, long w, long f,
			    const float *x, const float *wt, float *y,
			    tg_sgemm_fn *gemm);
void tg_conv3x3_nobias_f32_grad (long nb, long c, long h, long w, long f,
				 const float *x, const float *wt, float *y,
				 float *d_x, float *d_wt, float *d_y,
				 tg_sgemm_fn *gemm);
void tg_conv3x3_nobias_f64 (long nb, long c, long h, long w, long f,
			    const double *x, const double *wt, double *y,
			    tg_dgemm_fn *gemm);
void tg_conv3x3_nobias_f64_grad (long nb, long c, long h, long w, long f,
				 const double *x, const double *wt, double *y,
				 double *d_x, double *d_wt, double *d_y,
				 tg_dgemm_fn *gemm);

#ifdef __cplusplus
}
#endif

#endif /* TENSORGRAD_H */

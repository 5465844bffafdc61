/* driver.c -- the tensorgrad benchmark: generated gradients against
   hand-written backward passes.  See README in this directory.

   build.sh compiles every kernel at each optimization level under
   level-specific names (dense.c at -O2 defines dense_O2 without the
   plugin, dense_O2_gen and dense_O2_gen_grad with it, and
   dense_O2_noopt_grad with the plugin's no-opt option, and, for the
   kernels with matrix products when configure found a CBLAS,
   dense_O2_blas_grad with -fplugin-arg-tensorgrad-blas; dense_ref.c
   defines dense_O2_grad_ref) and links them all into this one program.
   The generated gradients are weak references: a kernel the plugin
   rejected leaves its symbol null, and its row says why, from the status
   file build.sh wrote.

   tg-bench --dir DIR [--flags TEXT] [--plugin PATH] [--only KERNEL]
                                                        the timing table
                                                        (of one kernel)
   tg-bench --dir DIR --check                           the self-test:
     every hand-written backward (and every generated gradient that was
     built) against central finite differences of the forward at small
     sizes; exit status 1 if a hand-written one disagrees.

   The float kernels' gradients are also measured against the same
   kernel in double: build.sh compiles each once more, at -O2 through
   the plugin, with float as double and the float math functions as
   their double forms (dense_dbl and dense_dbl_grad); the driver runs
   that forward and gradient on the benchmark inputs widened to double
   and gives the error of the hand-written and of the generated float
   gradient against it.  */

#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*fn_t) (void);

/* ---- The kernels' symbols, per level.  ---- */

#define DECL(K, L, R, P, G)						\
  R K##_##L P;								\
  void K##_##L##_grad_ref G;						\
  void K##_##L##_gen_grad G __attribute__ ((weak));			\
  void K##_##L##_noopt_grad G __attribute__ ((weak));			\
  void K##_##L##_blas_grad G __attribute__ ((weak));

#define DENSE_P (int, int, int, const float *, const float *, const float *, \
		 float *)
#define DENSE_G (int, int, int, const float *, const float *, const float *, \
		 float *, float *, float *, float *, float *)
#define CONV_P (int, int, int, int, int, const float *, const float *,	\
		const float *, float *)
#define CONV_G (int, int, int, int, int, const float *, const float *,	\
		const float *, float *, float *, float *, float *, float *)
#define SMAX_P (int, int, const float *, float *)
#define SMAX_G (int, int, const float *, float *, float *, float *)
#define NORM_P (int, int, const float *, const float *, const float *, float *)
#define NORM_G (int, int, const float *, const float *, const float *, \
		float *, float *, float *, float *, float *)
#define TANH_P (int, float, float, float, const float *, float *)
#define TANH_G (int, float, float, float, const float *, float *,	\
		float *, float *, float *, float *, float *)
#define MLP_P (int, int, int, int, const float *, const float *,	\
	       const float *, const float *, const float *, const int *)
#define MLP_G (int, int, int, int, const float *, const float *,	\
	       const float *, const float *, const float *, const int *,	\
	       float *, float *, float *, float *, float *, double)
#define RNN_P (int, int, int, const float *, const float *, const float *, \
	       const float *, const float *, float *)
#define RNN_G (int, int, int, const float *, const float *, const float *, \
	       const float *, const float *, float *, float *, float *,	\
	       float *, float *, float *, float *)
#define ATT_P (int, int, int, int, const float *, float *, float *, float *)
#define ATT_G (int, int, int, int, const float *, float *, float *, float *, \
	       float *, float *, float *, float *)
#define LNS_P (int, int, const float *, const float *, const float *, \
	       float *, float *, float *)
#define LNS_G (int, int, const float *, const float *, const float *, \
	       float *, float *, float *, float *, float *, float *, float *, \
	       float *, float *)
#define XENT_P (int, int, int, const float *, const int *, float *, float *)
#define XENT_G (int, int, int, const float *, const int *, float *, float *, \
		float *, float *, float *)

#define DECL_ALL(L)					\
  DECL (dense, L, void, DENSE_P, DENSE_G)		\
  DECL (conv2d, L, void, CONV_P, CONV_G)		\
  DECL (softmax, L, void, SMAX_P, SMAX_G)		\
  DECL (layernorm, L, void, NORM_P, NORM_G)		\
  DECL (batchnorm, L, void, NORM_P, NORM_G)		\
  DECL (layernorm_stats, L, void, LNS_P, LNS_G)		\
  DECL (tanhchain, L, void, TANH_P, TANH_G)		\
  DECL (mlp, L, double, MLP_P, MLP_G)			\
  DECL (rnn, L, void, RNN_P, RNN_G)			\
  DECL (attention, L, void, ATT_P, ATT_G)		\
  DECL (crossent_padded, L, void, XENT_P, XENT_G)

DECL_ALL (O2)
DECL_ALL (O3)

/* The double builds: float is double there, so the float signatures
   above do not apply; the callers below pass double arrays through
   them (a pointer is a pointer), tanhchain's scalars by callers of
   their own.  */
#define DECL_DBL(K)						\
  void K##_dbl (void) __attribute__ ((weak));			\
  void K##_dbl_grad (void) __attribute__ ((weak));

DECL_DBL (dense)
DECL_DBL (conv2d)
DECL_DBL (softmax)
DECL_DBL (layernorm)
DECL_DBL (batchnorm)
DECL_DBL (layernorm_stats)
DECL_DBL (tanhchain)
DECL_DBL (mlp)
DECL_DBL (rnn)
DECL_DBL (attention)
DECL_DBL (crossent_padded)

/* ---- A kernel instance: its sizes, arrays, scalars.  ---- */

enum role { IN, OUT };

#define MAXA 8
#define MAXS 4

struct arr
{
  const char *name;
  size_t len;
  int role;
  float lo, hi;			/* range of the random values */
  float *v;			/* the values */
  float *d;			/* the shadow */
};

struct inst
{
  int dim[8];
  int na;
  struct arr a[MAXA];
  int ns;
  const char *sname[MAXS];
  float s[MAXS], ds[MAXS];
  double s_dbl[MAXS], ds_dbl[MAXS]; /* the scalars of a double run */
  int *idx;			/* mlp's labels, crossent_padded's targets */
  size_t nidx;
  int idxmax;
  int has_ret;
  double ret, d_ret;
};

#define D(i) (s->dim[i])
#define A(i) (s->a[i].v)
#define G(i) (s->a[i].d)

static void
add_arr (struct inst *s, const char *name, size_t len, int role, float lo,
	 float hi)
{
  struct arr *a = &s->a[s->na++];
  a->name = name;
  a->len = len;
  a->role = role;
  a->lo = lo;
  a->hi = hi;
}

static void
add_scalar (struct inst *s, const char *name, float v)
{
  s->sname[s->ns] = name;
  s->s[s->ns++] = v;
}

/* dense */
static void
dense_setup (struct inst *s, int small)
{
  int n = small ? 3 : 256, k = small ? 4 : 512, m = small ? 5 : 512;
  float r = 1.0f / sqrtf ((float) k);
  s->dim[0] = n, s->dim[1] = k, s->dim[2] = m;
  add_arr (s, "x", (size_t) n * k, IN, -1, 1);
  add_arr (s, "w", (size_t) k * m, IN, -r, r);
  add_arr (s, "b", m, IN, -1, 1);
  add_arr (s, "y", (size_t) n * m, OUT, 0, 0);
}
static void
dense_fwd (fn_t f, struct inst *s)
{
  ((void (*) DENSE_P) f) (D (0), D (1), D (2), A (0), A (1), A (2), A (3));
}
static void
dense_grad (fn_t f, struct inst *s)
{
  ((void (*) DENSE_G) f) (D (0), D (1), D (2), A (0), A (1), A (2), A (3),
			  G (0), G (1), G (2), G (3));
}

/* conv2d */
static void
conv_setup (struct inst *s, int small)
{
  int nb = small ? 2 : 8, c = small ? 2 : 32, h = small ? 5 : 32,
    w = small ? 4 : 32, f = small ? 3 : 32;
  float r = 1.0f / sqrtf (9.0f * c);
  s->dim[0] = nb, s->dim[1] = c, s->dim[2] = h, s->dim[3] = w, s->dim[4] = f;
  add_arr (s, "x", (size_t) nb * c * h * w, IN, -1, 1);
  add_arr (s, "wt", (size_t) f * c * 9, IN, -r, r);
  add_arr (s, "b", f, IN, -1, 1);
  add_arr (s, "y", (size_t) nb * f * h * w, OUT, 0, 0);
}
static void
conv_fwd (fn_t f, struct inst *s)
{
  ((void (*) CONV_P) f) (D (0), D (1), D (2), D (3), D (4), A (0), A (1),
			 A (2), A (3));
}
static void
conv_grad (fn_t f, struct inst *s)
{
  ((void (*) CONV_G) f) (D (0), D (1), D (2), D (3), D (4), A (0), A (1),
			 A (2), A (3), G (0), G (1), G (2), G (3));
}

/* softmax */
static void
smax_setup (struct inst *s, int small)
{
  int n = small ? 3 : 256, m = small ? 7 : 1024;
  s->dim[0] = n, s->dim[1] = m;
  add_arr (s, "x", (size_t) n * m, IN, -2, 2);
  add_arr (s, "y", (size_t) n * m, OUT, 0, 0);
}
static void
smax_fwd (fn_t f, struct inst *s)
{
  ((void (*) SMAX_P) f) (D (0), D (1), A (0), A (1));
}
static void
smax_grad (fn_t f, struct inst *s)
{
  ((void (*) SMAX_G) f) (D (0), D (1), A (0), A (1), G (0), G (1));
}

/* layernorm, batchnorm: the same signature */
static void
norm_setup (struct inst *s, int small)
{
  int n = small ? 5 : 256, m = small ? 6 : 1024;
  s->dim[0] = n, s->dim[1] = m;
  add_arr (s, "x", (size_t) n * m, IN, -1, 1);
  add_arr (s, "gamma", m, IN, 0.5f, 1.5f);
  add_arr (s, "beta", m, IN, -1, 1);
  add_arr (s, "y", (size_t) n * m, OUT, 0, 0);
}
static void
norm_fwd (fn_t f, struct inst *s)
{
  ((void (*) NORM_P) f) (D (0), D (1), A (0), A (1), A (2), A (3));
}
static void
norm_grad (fn_t f, struct inst *s)
{
  ((void (*) NORM_G) f) (D (0), D (1), A (0), A (1), A (2), A (3),
			 G (0), G (1), G (2), G (3));
}

/* layernorm_stats: layernorm with its statistics as outputs */
static void
lns_setup (struct inst *s, int small)
{
  norm_setup (s, small);
  int n = s->dim[0];
  add_arr (s, "mean", n, OUT, 0, 0);
  add_arr (s, "rstd", n, OUT, 0, 0);
}
static void
lns_fwd (fn_t f, struct inst *s)
{
  ((void (*) LNS_P) f) (D (0), D (1), A (0), A (1), A (2), A (3), A (4),
			A (5));
}
static void
lns_grad (fn_t f, struct inst *s)
{
  ((void (*) LNS_G) f) (D (0), D (1), A (0), A (1), A (2), A (3), A (4),
			A (5), G (0), G (1), G (2), G (3), G (4), G (5));
}

/* tanhchain */
static void
tanh_setup (struct inst *s, int small)
{
  int n = small ? 17 : 1 << 20;
  s->dim[0] = n;
  add_scalar (s, "a", 0.7f);
  add_scalar (s, "b", -0.2f);
  add_scalar (s, "c", 1.3f);
  add_arr (s, "x", n, IN, -2, 2);
  add_arr (s, "y", n, OUT, 0, 0);
}
static void
tanh_fwd (fn_t f, struct inst *s)
{
  ((void (*) TANH_P) f) (D (0), s->s[0], s->s[1], s->s[2], A (0), A (1));
}
static void
tanh_grad (fn_t f, struct inst *s)
{
  ((void (*) TANH_G) f) (D (0), s->s[0], s->s[1], s->s[2], A (0), A (1),
			 &s->ds[0], &s->ds[1], &s->ds[2], G (0), G (1));
}

/* tanhchain in double: its scalars are doubles there.  */
#define TANH_DP (int, double, double, double, const float *, float *)
#define TANH_DG (int, double, double, double, const float *, float *, \
		 double *, double *, double *, float *, float *)
static void
tanh_fwd_dbl (fn_t f, struct inst *s)
{
  ((void (*) TANH_DP) f) (D (0), s->s_dbl[0], s->s_dbl[1], s->s_dbl[2],
			  A (0), A (1));
}
static void
tanh_grad_dbl (fn_t f, struct inst *s)
{
  ((void (*) TANH_DG) f) (D (0), s->s_dbl[0], s->s_dbl[1], s->s_dbl[2],
			  A (0), A (1), &s->ds_dbl[0], &s->ds_dbl[1],
			  &s->ds_dbl[2], G (0), G (1));
}

/* mlp */
static void
mlp_setup (struct inst *s, int small)
{
  int n = small ? 4 : 256, d = small ? 5 : 512, h = small ? 6 : 256,
    c = small ? 3 : 10;
  float r1 = 1.0f / sqrtf ((float) d), r2 = 1.0f / sqrtf ((float) h);
  s->dim[0] = n, s->dim[1] = d, s->dim[2] = h, s->dim[3] = c;
  add_arr (s, "x", (size_t) n * d, IN, -1, 1);
  add_arr (s, "w1", (size_t) d * h, IN, -r1, r1);
  add_arr (s, "b1", h, IN, -0.5f, 0.5f);
  add_arr (s, "w2", (size_t) h * c, IN, -3 * r2, 3 * r2);
  add_arr (s, "b2", c, IN, -0.5f, 0.5f);
  s->nidx = n;
  s->idxmax = c;
  s->has_ret = 1;
}
static void
mlp_fwd (fn_t f, struct inst *s)
{
  s->ret = ((double (*) MLP_P) f) (D (0), D (1), D (2), D (3), A (0), A (1),
				   A (2), A (3), A (4), s->idx);
}
static void
mlp_grad (fn_t f, struct inst *s)
{
  ((void (*) MLP_G) f) (D (0), D (1), D (2), D (3), A (0), A (1), A (2),
			A (3), A (4), s->idx, G (0), G (1), G (2), G (3),
			G (4), s->d_ret);
}

/* rnn */
static void
rnn_setup (struct inst *s, int small)
{
  int t = small ? 3 : 64, h = small ? 4 : 256, d = small ? 3 : 128;
  float rw = 1.0f / sqrtf ((float) h), ru = 1.0f / sqrtf ((float) d);
  s->dim[0] = t, s->dim[1] = h, s->dim[2] = d;
  add_arr (s, "W", (size_t) h * h, IN, -rw, rw);
  add_arr (s, "U", (size_t) h * d, IN, -ru, ru);
  add_arr (s, "b", h, IN, -0.5f, 0.5f);
  add_arr (s, "x", (size_t) t * d, IN, -1, 1);
  add_arr (s, "h0", h, IN, -1, 1);
  add_arr (s, "h", (size_t) (t + 1) * h, OUT, 0, 0);
}
static void
rnn_fwd (fn_t f, struct inst *s)
{
  ((void (*) RNN_P) f) (D (0), D (1), D (2), A (0), A (1), A (2), A (3),
			A (4), A (5));
}
static void
rnn_grad (fn_t f, struct inst *s)
{
  ((void (*) RNN_G) f) (D (0), D (1), D (2), A (0), A (1), A (2), A (3),
			A (4), A (5), G (0), G (1), G (2), G (3), G (4),
			G (5));
}

/* attention: B, T, C, NH; qkv packed (B, T, 3C), the caches preatt and
   att (B, NH, T, T) and out (B, T, C) outputs.  */
static void
att_setup (struct inst *s, int small)
{
  int b = small ? 2 : 4, t = small ? 5 : 64, c = small ? 6 : 768,
    nh = small ? 2 : 12;
  s->dim[0] = b, s->dim[1] = t, s->dim[2] = c, s->dim[3] = nh;
  add_arr (s, "qkv", (size_t) b * t * 3 * c, IN, -1, 1);
  add_arr (s, "preatt", (size_t) b * nh * t * t, OUT, 0, 0);
  add_arr (s, "att", (size_t) b * nh * t * t, OUT, 0, 0);
  add_arr (s, "out", (size_t) b * t * c, OUT, 0, 0);
}
static void
att_fwd (fn_t f, struct inst *s)
{
  ((void (*) ATT_P) f) (D (0), D (1), D (2), D (3), A (0), A (1), A (2),
			A (3));
}
static void
att_grad (fn_t f, struct inst *s)
{
  ((void (*) ATT_G) f) (D (0), D (1), D (2), D (3), A (0), A (1), A (2),
			A (3), G (0), G (1), G (2), G (3));
}

/* crossent_padded: N rows of Vp logits, V of them real; targets in
   [0, V).  */
static void
xent_setup (struct inst *s, int small)
{
  int n = small ? 3 : 32, v = small ? 7 : 50257, vp = small ? 9 : 50304;
  s->dim[0] = n, s->dim[1] = v, s->dim[2] = vp;
  add_arr (s, "logits", (size_t) n * vp, IN, -3, 3);
  add_arr (s, "probs", (size_t) n * vp, OUT, 0, 0);
  add_arr (s, "losses", n, OUT, 0, 0);
  s->nidx = n;
  s->idxmax = v;
}
static void
xent_fwd (fn_t f, struct inst *s)
{
  ((void (*) XENT_P) f) (D (0), D (1), D (2), A (0), s->idx, A (1), A (2));
}
static void
xent_grad (fn_t f, struct inst *s)
{
  ((void (*) XENT_G) f) (D (0), D (1), D (2), A (0), s->idx, A (1), A (2),
			 G (0), G (1), G (2));
}

/* ---- The table of kernels.  ---- */

enum { V_FWD, V_REF, V_GEN, V_NOOPT, V_BLAS, NV };
static const char *const vname[NV] = { "fwd", "ref", "gen", "noopt",
				       "blas" };

#define NLEVELS 2
static const char *const level_name[NLEVELS] = { "O2", "O3" };

struct kernel
{
  const char *name;
  const char *size;
  void (*setup) (struct inst *, int small);
  void (*fwd) (fn_t, struct inst *);
  void (*grad) (fn_t, struct inst *);
  fn_t fn[NLEVELS][NV];
  fn_t dbl_fwd, dbl_grad;	/* the double build, or null */
  void (*fwd_dbl) (fn_t, struct inst *);  /* its callers, or null: */
  void (*grad_dbl) (fn_t, struct inst *); /* FWD and GRAD */
};

#define FNS(K, L) { (fn_t) K##_##L, (fn_t) K##_##L##_grad_ref,		\
		    (fn_t) K##_##L##_gen_grad, (fn_t) K##_##L##_noopt_grad,	\
		    (fn_t) K##_##L##_blas_grad }
#define KERNEL(K, SIZE, PFX) \
  { #K, SIZE, PFX##_setup, PFX##_fwd, PFX##_grad, { FNS (K, O2), FNS (K, O3) }, \
    (fn_t) K##_dbl, (fn_t) K##_dbl_grad, NULL, NULL }

static const struct kernel kernels[] = {
  KERNEL (dense, "256x512 . 512x512", dense),
  KERNEL (conv2d, "8x32x32x32, 32 3x3", conv),
  KERNEL (softmax, "256x1024", smax),
  KERNEL (layernorm, "256x1024", norm),
  KERNEL (batchnorm, "256x1024", norm),
  KERNEL (layernorm_stats, "256x1024", lns),
  { "tanhchain", "1<<20", tanh_setup, tanh_fwd, tanh_grad,
    { FNS (tanhchain, O2), FNS (tanhchain, O3) },
    (fn_t) tanhchain_dbl, (fn_t) tanhchain_dbl_grad, tanh_fwd_dbl,
    tanh_grad_dbl },
  KERNEL (mlp, "256x512-256-10", mlp),
  KERNEL (rnn, "T64 H256 D128", rnn),
  KERNEL (attention, "B4 T64 C768 NH12", att),
  KERNEL (crossent_padded, "32x50304 (V 50257)", xent),
};
#define NK (sizeof kernels / sizeof kernels[0])

/* ---- Instances: allocation and deterministic random values.  ---- */

static unsigned long long rng_state;

static double
rnd (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    {
      fprintf (stderr, "tg-bench: out of memory\n");
      exit (2);
    }
  return p;
}

static void
inst_new (struct inst *s, const struct kernel *k, int small, unsigned seed)
{
  memset (s, 0, sizeof *s);
  k->setup (s, small);
  rng_state = 0x9E3779B97F4A7C15ULL ^ seed;
  for (int i = 0; i < s->na; i++)
    {
      struct arr *a = &s->a[i];
      a->v = xmalloc (a->len * sizeof (float));
      a->d = xmalloc (a->len * sizeof (float));
      for (size_t e = 0; e < a->len; e++)
	{
	  a->v[e] = a->role == IN ? a->lo + (a->hi - a->lo) * rnd () : 0.0f;
	  /* An output's shadow is the incoming adjoint; an input's is
	     set before each gradient call.  */
	  a->d[e] = a->role == OUT ? 2 * rnd () - 1 : 0.0f;
	}
    }
  if (s->nidx)
    {
      s->idx = xmalloc (s->nidx * sizeof (int));
      for (size_t e = 0; e < s->nidx; e++)
	s->idx[e] = (int) (rnd () * s->idxmax) % s->idxmax;
    }
  s->d_ret = s->has_ret ? 0.5 + rnd () : 0.0;
}

static void
inst_free (struct inst *s)
{
  for (int i = 0; i < s->na; i++)
    {
      free (s->a[i].v);
      free (s->a[i].d);
    }
  free (s->idx);
}

/* Set every input shadow (arrays and scalars) to V.  */
static void
fill_in_shadows (struct inst *s, float v)
{
  for (int i = 0; i < s->na; i++)
    if (s->a[i].role == IN)
      for (size_t e = 0; e < s->a[i].len; e++)
	s->a[i].d[e] = v;
  for (int i = 0; i < s->ns; i++)
    s->ds[i] = v;
}

/* A snapshot of every array and shadow, to see what a call wrote.  */
struct snap
{
  float *v[MAXA], *d[MAXA];
};

static void
snap_take (struct snap *p, const struct inst *s)
{
  for (int i = 0; i < s->na; i++)
    {
      size_t b = s->a[i].len * sizeof (float);
      p->v[i] = xmalloc (b);
      p->d[i] = xmalloc (b);
      memcpy (p->v[i], s->a[i].v, b);
      memcpy (p->d[i], s->a[i].d, b);
    }
}

static void
snap_free (struct snap *p, const struct inst *s)
{
  for (int i = 0; i < s->na; i++)
    {
      free (p->v[i]);
      free (p->d[i]);
    }
}

/* After a gradient call: the ABI lets it write only the input shadows.
   Return the name of the first array it changed otherwise, or NULL.  */
static const char *
snap_changed (const struct snap *p, const struct inst *s)
{
  static char buf[64];
  for (int i = 0; i < s->na; i++)
    {
      size_t b = s->a[i].len * sizeof (float);
      if (memcmp (p->v[i], s->a[i].v, b))
	return s->a[i].name;
      if (s->a[i].role == OUT && memcmp (p->d[i], s->a[i].d, b))
	{
	  snprintf (buf, sizeof buf, "d_%s", s->a[i].name);
	  return buf;
	}
    }
  return NULL;
}

/* ---- Timing.  ---- */

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#define NRUNS 11		/* timed calls, after one warm-up call */
#define NRUNS_SLOW 5		/* when one call takes more than SLOW_S */
#define SLOW_S 0.25
#define ONE_RUN_S 1.0		/* a call this slow is timed once */
#define MIN_SAMPLE_S 0.002	/* shorter calls are batched per sample */

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static int any_slow, any_once;

/* The median time of one call, in milliseconds.  FIRST_S is the time
   of a call just made (the warm-up), or negative to make one.  Sets
   *ONCE when the call is so slow that the warm-up call is the only
   sample.  */
static double
time_call (void (*call) (fn_t, struct inst *), fn_t f, struct inst *s,
	   double first_s, int *once)
{
  double t0, t = first_s;
  if (t < 0)
    {
      t0 = now ();
      call (f, s);
      t = now () - t0;
    }
  *once = 0;
  if (t > ONE_RUN_S)
    {
      *once = any_once = 1;
      return 1e3 * t;
    }
  int batch = 1, runs = NRUNS;
  if (t < MIN_SAMPLE_S)
    batch = (int) (MIN_SAMPLE_S / (t > 1e-7 ? t : 1e-7)) + 1;
  if (t > SLOW_S)
    runs = NRUNS_SLOW, any_slow = 1;
  double sample[NRUNS];
  for (int r = 0; r < runs; r++)
    {
      t0 = now ();
      for (int b = 0; b < batch; b++)
	call (f, s);
      sample[r] = (now () - t0) / batch;
    }
  qsort (sample, runs, sizeof sample[0], cmp_double);
  return 1e3 * sample[runs / 2];
}

/* ---- Status files written by build.sh.  ---- */

static const char *dir = ".";
static const char *only;	/* --only: the table of this kernel alone */

/* The first line of DIR/KERNEL-LEVEL-WHAT, or DFLT if there is none.  */
static const char *
read_line (const char *kernel, const char *level, const char *what,
	   const char *dflt, char *buf, size_t n)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s-%s-%s", dir, kernel, level, what);
  FILE *fp = fopen (path, "r");
  if (!fp || !fgets (buf, (int) n, fp))
    {
      if (fp)
	fclose (fp);
      snprintf (buf, n, "%s", dflt);
      return buf;
    }
  fclose (fp);
  buf[strcspn (buf, "\n")] = 0;
  return buf;
}

/* ---- Comparing gradients.  ---- */

/* The largest normwise relative difference between the input shadows
   now in S and those in REF (arrays: max |g - r| / max |r| per array;
   scalars: |g - r| / |r|), over all input shadows.  */
static double
max_rel_diff (const struct inst *s, float *const ref[MAXA],
	      const float ref_s[MAXS], const char **worst)
{
  double worst_v = 0;
  *worst = "";
  for (int i = 0; i < s->na; i++)
    {
      if (s->a[i].role != IN)
	continue;
      double dmax = 0, rmax = 0;
      for (size_t e = 0; e < s->a[i].len; e++)
	{
	  double dd = fabs ((double) s->a[i].d[e] - ref[i][e]);
	  if (!(dd <= dmax))
	    dmax = dd;		/* NaN sticks */
	  if (fabs (ref[i][e]) > rmax)
	    rmax = fabs (ref[i][e]);
	}
      double rel = dmax / (rmax > 0 ? rmax : 1);
      if (!(rel <= worst_v))
	worst_v = rel, *worst = s->a[i].name;
    }
  for (int i = 0; i < s->ns; i++)
    {
      double r = fabs (ref_s[i]);
      double rel = fabs ((double) s->ds[i] - ref_s[i]) / (r > 0 ? r : 1);
      if (!(rel <= worst_v))
	worst_v = rel, *worst = s->sname[i];
    }
  return worst_v;
}

/* ---- Float error against double.  ---- */

/* The input shadows of K's double build at S's inputs (widened to
   double), its forward run first for the outputs a gradient reads, into
   REF (arrays) and REF_S (scalars), which the caller frees; false when
   there is no double build.  */
static bool
double_grad (const struct kernel *k, const struct inst *s,
	     double *ref[MAXA], double ref_s[MAXS])
{
  if (!k->dbl_fwd || !k->dbl_grad)
    return false;
  struct inst w = *s;
  for (int i = 0; i < s->na; i++)
    {
      const struct arr *a = &s->a[i];
      double *v = xmalloc (a->len * sizeof *v);
      double *d = xmalloc (a->len * sizeof *d);
      for (size_t e = 0; e < a->len; e++)
	{
	  v[e] = a->role == IN ? a->v[e] : 0;
	  d[e] = a->role == OUT ? a->d[e] : 0;
	}
      w.a[i].v = (float *) v;
      w.a[i].d = (float *) d;
    }
  for (int i = 0; i < s->ns; i++)
    {
      w.s_dbl[i] = s->s[i];
      w.ds_dbl[i] = 0;
    }
  (k->fwd_dbl ? k->fwd_dbl : k->fwd) (k->dbl_fwd, &w);
  (k->grad_dbl ? k->grad_dbl : k->grad) (k->dbl_grad, &w);
  for (int i = 0; i < s->na; i++)
    {
      free (w.a[i].v);
      ref[i] = (double *) w.a[i].d;
    }
  for (int i = 0; i < s->ns; i++)
    ref_s[i] = w.ds_dbl[i];
  return true;
}

/* The error of the input shadows now in S against the double REF, as
   max_rel_diff measures a difference: per array max |g - r| / max |r|,
   the largest over the shadows.  */
static double
max_rel_err (const struct inst *s, double *const ref[MAXA],
	     const double ref_s[MAXS])
{
  double worst = 0;
  for (int i = 0; i < s->na; i++)
    {
      if (s->a[i].role != IN)
	continue;
      double dmax = 0, rmax = 0;
      for (size_t e = 0; e < s->a[i].len; e++)
	{
	  double dd = fabs (s->a[i].d[e] - ref[i][e]);
	  if (!(dd <= dmax))
	    dmax = dd;
	  if (fabs (ref[i][e]) > rmax)
	    rmax = fabs (ref[i][e]);
	}
      double rel = dmax / (rmax > 0 ? rmax : 1);
      if (!(rel <= worst))
	worst = rel;
    }
  for (int i = 0; i < s->ns; i++)
    {
      double r = fabs (ref_s[i]);
      double rel = fabs (s->ds[i] - ref_s[i]) / (r > 0 ? r : 1);
      if (!(rel <= worst))
	worst = rel;
    }
  return worst;
}

/* Generated against hand-written on the benchmark inputs: float
   kernels, different summation orders, sums of up to 10^6 terms.  */
#define TOL_BENCH 2e-3

/* ---- The timing table.  ---- */

static void
print_rule (void)
{
  printf ("---------------------------------------------------------------"
	  "------------------------------------------------\n");
}

/* Temporary memory: the gradients allocate their temporaries with calloc
   (the driver is linked with -Wl,--wrap=calloc), counted during one call
   of each generated gradient.  */
void *__real_calloc (size_t n, size_t size);
static int counting;
static long long counted;

void *
__wrap_calloc (size_t n, size_t size)
{
  if (counting)
    counted += (long long) n * (long long) size;
  return __real_calloc (n, size);
}

/* Bytes of temporaries by kernel, level and variant; -1 if not measured.  */
static long long temp_bytes[32][NLEVELS][NV];

/* Bytes of each kernel's output arrays (what the caller allocates for
   one forward call), to set the temporaries against.  */
static long long fwd_bytes[32];

/* The gradient column for variant V of K at level L: time it if it was
   built and agrees with the hand-written one; otherwise say why not.
   Returns the time in ms, or -1, with the cell text in CELL.  */
static double
grad_cell (const struct kernel *k, int l, int v, struct inst *s,
	   float *const ref[MAXA], const float ref_s[MAXS], char *cell,
	   size_t n, double *reldiff, int *once)
{
  char st[512];
  char what[32];
  snprintf (what, sizeof what, "%s.status", vname[v]);
  read_line (k->name, level_name[l], what, "not built (no status file)",
	     st, sizeof st);
  fn_t f = k->fn[l][v];
  *reldiff = -1;
  *once = 0;
  if (strcmp (st, "ok") != 0)
    {
      snprintf (cell, n, "%s", st);
      return -1;
    }
  if (!f)
    {
      snprintf (cell, n, "unsupported: %s_%s_%s_grad not linked", k->name,
		level_name[l], vname[v]);
      return -1;
    }
  struct snap sn;
  fill_in_shadows (s, 0.0f);
  snap_take (&sn, s);
  counted = 0;
  counting = 1;
  double t0 = now ();
  k->grad (f, s);
  double t = now () - t0;
  counting = 0;
  temp_bytes[k - kernels][l][v] = counted;
  const char *changed = snap_changed (&sn, s);
  snap_free (&sn, s);
  const char *worst;
  double rd = max_rel_diff (s, ref, ref_s, &worst);
  *reldiff = rd;
  if (changed)
    {
      snprintf (cell, n, "WRONG: the gradient wrote %s", changed);
      return -1;
    }
  if (!(rd <= TOL_BENCH))
    {
      snprintf (cell, n, "WRONG: d_%s differs from hand-written by %.2g "
		"(max relative)", worst, rd);
      return -1;
    }
  return time_call (k->grad, f, s, t, once);
}

/* Format MS; a time from a single call gets a '*'.  */
static void
fmt_ms (char *buf, size_t n, double ms, int once)
{
  const char *mark = once ? "*" : "";
  if (ms < 0)
    snprintf (buf, n, "-");
  else if (ms < 10)
    snprintf (buf, n, "%.3f%s", ms, mark);
  else
    snprintf (buf, n, "%.1f%s", ms, mark);
}

static void
print_load (const char *when)
{
  char buf[128] = "?";
  FILE *fp = fopen ("/proc/loadavg", "r");
  if (fp)
    {
      if (!fgets (buf, sizeof buf, fp))
	snprintf (buf, sizeof buf, "?");
      fclose (fp);
    }
  buf[strcspn (buf, "\n")] = 0;
  printf ("load average %s: %s (other processes on the machine make "
	  "times noisy)\n", when, buf);
}

static int
run_table (const char *flags, const char *plugin)
{
  printf ("tensorgrad bench: gradients generated by the plugin against "
	  "hand-written backward passes\n");
  printf ("compiler flags (every kernel, forward, hand-written and "
	  "generated alike): %s\n", flags);
  if (plugin)
    printf ("plugin: %s\n", plugin);
  printf ("times: per call in ms, median of %d calls after a warm-up call "
	  "(%d when a call takes over %.0f ms;\n"
	  "       calls under %.0f ms are batched and averaged per sample), "
	  "CLOCK_MONOTONIC, one thread\n",
	  NRUNS, NRUNS_SLOW, SLOW_S * 1e3, MIN_SAMPLE_S * 1e3);
  printf ("       (a call over %.0f ms is timed once, marked *)\n",
	  ONE_RUN_S * 1e3);
  printf ("gen/hand, gen/fwd: the generated gradient's time over the "
	  "hand-written backward's, over the forward's\n");
  printf ("reldiff: generated against hand-written gradient on the "
	  "benchmark inputs, max over shadows of\n"
	  "         max|gen - hand| / max|hand|; above %.0e the row says "
	  "WRONG and gets no time\n", TOL_BENCH);
  printf ("gen err, hand err: the generated and the hand-written float "
	  "gradient against the kernel's gradient\n"
	  "         evaluated in double (the kernel built with float as "
	  "double, through the plugin at -O2),\n"
	  "         max over shadows of max|float - double| / max|double|\n");
  print_load ("before");
  printf ("\n");

  print_rule ();
  printf ("%-15s %-3s %9s %9s %9s %8s %8s %9s %8s %8s %8s\n", "kernel",
	  "-O", "fwd ms", "hand ms", "gen ms", "gen/hand", "gen/fwd",
	  "no-opt ms", "reldiff", "gen err", "hand err");
  print_rule ();
  for (size_t ki = 0; ki < NK; ki++)
    for (int l = 0; l < NLEVELS; l++)
      {
	const struct kernel *k = &kernels[ki];
	if (only && strcmp (k->name, only) != 0)
	  continue;
	struct inst s;
	inst_new (&s, k, 0, 1000 + (unsigned) ki);
	fwd_bytes[ki] = 0;
	for (int i = 0; i < s.na; i++)
	  if (s.a[i].role == OUT)
	    fwd_bytes[ki] += (long long) (s.a[i].len * sizeof (float));

	int of, oh, og, on;
	double tf = time_call (k->fwd, k->fn[l][V_FWD], &s, -1, &of);
	/* The outputs as one forward call leaves them.  */
	k->fwd (k->fn[l][V_FWD], &s);

	fill_in_shadows (&s, 0.0f);
	k->grad (k->fn[l][V_REF], &s);
	float *ref[MAXA] = { 0 }, ref_s[MAXS];
	for (int i = 0; i < s.na; i++)
	  {
	    ref[i] = xmalloc (s.a[i].len * sizeof (float));
	    memcpy (ref[i], s.a[i].d, s.a[i].len * sizeof (float));
	  }
	memcpy (ref_s, s.ds, sizeof ref_s);
	double *dref[MAXA] = { 0 }, dref_s[MAXS];
	bool have_dbl = double_grad (k, &s, dref, dref_s);
	double herr = have_dbl ? max_rel_err (&s, dref, dref_s) : -1;
	double th = time_call (k->grad, k->fn[l][V_REF], &s, -1, &oh);

	char gcell[600], ncell[600];
	double rd, rdn;
	double tg = grad_cell (k, l, V_GEN, &s, ref, ref_s, gcell,
			       sizeof gcell, &rd, &og);
	double tn = grad_cell (k, l, V_NOOPT, &s, ref, ref_s, ncell,
			       sizeof ncell, &rdn, &on);
	double gerr = -1;
	if (have_dbl && tg >= 0)
	  {
	    fill_in_shadows (&s, 0.0f);
	    k->grad (k->fn[l][V_GEN], &s);
	    gerr = max_rel_err (&s, dref, dref_s);
	  }
	char ge[32], he[32];
	snprintf (ge, sizeof ge, gerr >= 0 ? "%.1e" : "-", gerr);
	snprintf (he, sizeof he, herr >= 0 ? "%.1e" : "-", herr);

	char a[32], b[32], c[32], d[32];
	fmt_ms (a, sizeof a, tf, of);
	fmt_ms (b, sizeof b, th, oh);
	printf ("%-15s %-3s %9s %9s ", k->name, level_name[l], a, b);
	if (tg >= 0)
	  {
	    fmt_ms (c, sizeof c, tg, og);
	    if (tn >= 0)
	      fmt_ms (d, sizeof d, tn, on);
	    else
	      snprintf (d, sizeof d, "%s",
			strcmp (ncell, "n/a") == 0 ? "n/a" : "(below)");
	    printf ("%9s %8.2f %8.2f %9s %8.1e %8s %8s\n", c, tg / th,
		    tg / tf, d, rd, ge, he);
	  }
	else
	  printf ("%s (hand err %s)\n", gcell, he);
	if (tn < 0 && strcmp (ncell, "n/a") != 0
	    && !(tg < 0 && strcmp (ncell, gcell) == 0))
	  printf ("%-15s %-3s %19s no-opt: %s\n", "", "", "", ncell);
	else if (tn >= 0 && tg < 0)
	  {
	    fmt_ms (d, sizeof d, tn, on);
	    printf ("%-15s %-3s %19s no-opt: %s ms\n", "", "", "", d);
	  }
	/* With -fplugin-arg-tensorgrad-blas (built only for the kernels
	   with matrix products, when configure found a CBLAS).  */
	char bcell[600];
	double rdb;
	int ob;
	double tb = k->fn[l][V_BLAS]
			? grad_cell (k, l, V_BLAS, &s, ref, ref_s, bcell,
				     sizeof bcell, &rdb, &ob)
			: -2;
	if (tb >= 0)
	  {
	    fmt_ms (d, sizeof d, tb, ob);
	    printf ("%-15s %-3s %19s blas: %s ms, blas/hand %.2f, blas/gen "
		    "%.2f, reldiff %.1e\n", "", "", "", d, tb / th,
		    tg >= 0 ? tb / tg : -1.0, rdb);
	  }
	else if (tb == -1)
	  printf ("%-15s %-3s %19s blas: %s\n", "", "", "", bcell);
	fflush (stdout);
	for (int i = 0; i < s.na; i++)
	  {
	    free (ref[i]);
	    free (dref[i]);
	  }
	inst_free (&s);
      }
  print_rule ();
  if (any_slow)
    printf ("calls over %.0f ms got %d timed calls after the warm-up\n",
	    SLOW_S * 1e3, NRUNS_SLOW);
  if (any_once)
    printf ("*: a call over %.0f ms is timed once (its first call)\n",
	    ONE_RUN_S * 1e3);
  print_load ("after");

  printf ("\nTranscendental call sites: static count of call relocations "
	  "to exp, log, tanh, sin, pow, erf\n"
	  "... (and their f forms and libmvec vector variants) in each "
	  "object's machine code (objdump -dr);\n"
	  "for the generated gradient only in <kernel>_grad and its "
	  "clones, with calls to the forward listed as fwd().\n"
	  "Sites, not calls per element: a site in a loop runs once per "
	  "iteration, and -O3 may duplicate sites.\n\n");
  print_rule ();
  printf ("%-15s %-3s %-22s %-22s %-22s %s\n", "kernel", "-O", "forward",
	  "hand-written bwd", "generated bwd", "no-opt bwd");
  print_rule ();
  for (size_t ki = 0; ki < NK; ki++)
    for (int l = 0; l < NLEVELS; l++)
      {
	const struct kernel *k = &kernels[ki];
	char f[256], r[256], g[256], n[256], st[512];
	read_line (k->name, level_name[l], "fwd.calls", "?", f, sizeof f);
	read_line (k->name, level_name[l], "ref.calls", "?", r, sizeof r);
	read_line (k->name, level_name[l], "gen.status", "", st, sizeof st);
	if (strcmp (st, "ok") == 0)
	  read_line (k->name, level_name[l], "gen.calls", "?", g, sizeof g);
	else
	  snprintf (g, sizeof g, "(not built)");
	read_line (k->name, level_name[l], "noopt.status", "", st,
		   sizeof st);
	if (strcmp (st, "ok") == 0)
	  read_line (k->name, level_name[l], "noopt.calls", "?", n,
		     sizeof n);
	else
	  snprintf (n, sizeof n, "%s",
		    strcmp (st, "n/a") == 0 ? "n/a" : "(not built)");
	printf ("%-15s %-3s %-22s %-22s %-22s %s\n", k->name,
		level_name[l], f, r, g, n);
      }
  print_rule ();
  printf ("\nTemporary memory of the generated gradients: bytes calloc'ed "
	  "during one call (measured by\nwrapping calloc), with and "
	  "without the optimizer.  fwd bytes: the forward's output arrays,\n"
	  "what the caller allocates for one forward call (not the "
	  "forward's local arrays; 0 for a kernel\nthat only returns a "
	  "value, like mlp).\n\n");
  print_rule ();
  printf ("%-15s %-3s %14s %22s %22s\n", "kernel", "-O", "fwd bytes",
	  "generated bwd", "no-opt bwd");
  print_rule ();
  for (size_t ki = 0; ki < NK; ki++)
    for (int l = 0; l < NLEVELS; l++)
      {
	char g[64], n[64];
	long long bg = temp_bytes[ki][l][V_GEN];
	long long bn = temp_bytes[ki][l][V_NOOPT];
	snprintf (g, sizeof g, bg >= 0 ? "%lld" : "-", bg);
	snprintf (n, sizeof n, bn >= 0 ? "%lld" : "-", bn);
	printf ("%-15s %-3s %14lld %22s %22s\n", kernels[ki].name,
		level_name[l], fwd_bytes[ki], g, n);
      }
  print_rule ();
  return 0;
}

/* ---- The finite-difference self-test.  ---- */

/* L = sum over outputs of d_out * out (+ d_return * ret), in double.  */
static double
loss (const struct kernel *k, fn_t f, struct inst *s)
{
  k->fwd (f, s);
  double l = s->has_ret ? s->d_ret * s->ret : 0.0;
  for (int i = 0; i < s->na; i++)
    if (s->a[i].role == OUT)
      for (size_t e = 0; e < s->a[i].len; e++)
	l += (double) s->a[i].d[e] * s->a[i].v[e];
  return l;
}

/* The forward is float, so the step is large (curvature error ~h^2,
   rounding ~1e-7/h) and the tolerance loose; a wrong term in a gradient
   is off by far more.  */
#define FD_H 1e-2f
#define FD_RTOL 2e-3
#define FD_ATOL 5e-4
#define SHADOW_INIT 0.25f	/* input shadows start here: += is checked */

static int
fd_component (const char *what, const char *name, long e, double g,
	      double fd, double scale, double *worst)
{
  double err = fabs (g - fd);
  double tol = FD_ATOL * scale + FD_RTOL * fmax (fabs (g), fabs (fd));
  if (err / (tol > 0 ? tol : 1) > *worst)
    *worst = err / (tol > 0 ? tol : 1);
  if (err <= tol)
    return 0;
  if (e >= 0)
    printf ("    MISMATCH %s d_%s[%ld]: gradient %.6g, finite difference "
	    "%.6g\n", what, name, e, g, fd);
  else
    printf ("    MISMATCH %s d_%s: gradient %.6g, finite difference %.6g\n",
	    what, name, g, fd);
  return 1;
}

/* Check gradient F of kernel K at level L against finite differences.
   Returns the number of mismatches (0: pass).  */
static int
fd_check (const struct kernel *k, int l, int v)
{
  fn_t fwd = k->fn[l][V_FWD], f = k->fn[l][v];
  struct inst s;
  inst_new (&s, k, 1, 77);
  char what[128];
  snprintf (what, sizeof what, "%s -%s %s", k->name, level_name[l],
	    v == V_REF ? "hand-written" : vname[v]);

  k->fwd (fwd, &s);
  fill_in_shadows (&s, SHADOW_INIT);
  struct snap sn;
  snap_take (&sn, &s);
  k->grad (f, &s);
  int bad = 0;
  const char *changed = snap_changed (&sn, &s);
  snap_free (&sn, &s);
  if (changed)
    {
      printf ("    MISMATCH %s: the gradient wrote %s\n", what, changed);
      bad++;
    }

  double worst = 0;
  for (int i = 0; i < s.na; i++)
    {
      struct arr *a = &s.a[i];
      if (a->role != IN)
	continue;
      double scale = 0;
      for (size_t e = 0; e < a->len; e++)
	scale = fmax (scale, fabs (a->d[e] - SHADOW_INIT));
      for (size_t e = 0; e < a->len; e++)
	{
	  float save = a->v[e];
	  a->v[e] = save + FD_H;
	  double lp = loss (k, fwd, &s);
	  a->v[e] = save - FD_H;
	  double lm = loss (k, fwd, &s);
	  a->v[e] = save;
	  double fd = (lp - lm) / (2.0 * FD_H);
	  bad += fd_component (what, a->name, (long) e,
			       (double) a->d[e] - SHADOW_INIT, fd, scale,
			       &worst);
	}
    }
  for (int i = 0; i < s.ns; i++)
    {
      float save = s.s[i];
      s.s[i] = save + FD_H;
      double lp = loss (k, fwd, &s);
      s.s[i] = save - FD_H;
      double lm = loss (k, fwd, &s);
      s.s[i] = save;
      double fd = (lp - lm) / (2.0 * FD_H);
      double g = (double) s.ds[i] - SHADOW_INIT;
      bad += fd_component (what, s.sname[i], -1, g, fd, fabs (g), &worst);
    }
  printf ("  %-34s %s  (worst error %.2f of tolerance)\n", what,
	  bad ? "FAIL" : "ok", worst);
  inst_free (&s);
  return bad;
}

static int
run_check (void)
{
  int bad_ref = 0, bad_gen = 0;
  printf ("tensorgrad bench self-test: gradients against central finite "
	  "differences of the forward\n(small sizes, step %g, tolerance "
	  "%g*max|grad| + %g*|value|; input shadows start at %g to check "
	  "+=;\n outputs, inputs and output shadows must be left "
	  "unchanged)\n", FD_H, FD_ATOL, FD_RTOL, SHADOW_INIT);
  for (size_t ki = 0; ki < NK; ki++)
    for (int l = 0; l < NLEVELS; l++)
      {
	const struct kernel *k = &kernels[ki];
	bad_ref += fd_check (k, l, V_REF) != 0;
	for (int v = V_GEN; v < NV; v++)
	  if (k->fn[l][v])
	    bad_gen += fd_check (k, l, v) != 0;
      }
  if (bad_gen)
    printf ("note: %d generated gradient(s) disagree with finite "
	    "differences (a plugin bug; not this test's failure)\n",
	    bad_gen);
  if (bad_ref)
    {
      printf ("FAIL: %d hand-written backward pass(es) disagree with "
	      "finite differences\n", bad_ref);
      return 1;
    }
  printf ("PASS: every hand-written backward pass agrees with finite "
	  "differences\n");
  return 0;
}

/* ---- main: run on a thread with a large stack (tanhchain's forward
   keeps 12 MiB of VLAs, and a generated gradient may keep more).  ---- */

struct args
{
  int check;
  const char *flags, *plugin;
  int status;
};

static void *
body (void *p)
{
  struct args *a = p;
  a->status = a->check ? run_check () : run_table (a->flags, a->plugin);
  return NULL;
}

int
main (int argc, char **argv)
{
  memset (temp_bytes, 0xff, sizeof temp_bytes); /* -1: not measured */
  struct args a = { 0, "(not given)", NULL, 0 };
  for (int i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--check"))
	a.check = 1;
      else if (!strcmp (argv[i], "--dir") && i + 1 < argc)
	dir = argv[++i];
      else if (!strcmp (argv[i], "--flags") && i + 1 < argc)
	a.flags = argv[++i];
      else if (!strcmp (argv[i], "--plugin") && i + 1 < argc)
	a.plugin = argv[++i];
      else if (!strcmp (argv[i], "--only") && i + 1 < argc)
	only = argv[++i];
      else
	{
	  fprintf (stderr, "usage: %s --dir DIR [--check] [--flags TEXT] "
		   "[--plugin PATH] [--only KERNEL]\n", argv[0]);
	  return 2;
	}
    }
  pthread_attr_t attr;
  pthread_t t;
  pthread_attr_init (&attr);
  int e = pthread_attr_setstacksize (&attr, (size_t) 512 << 20);
  if (!e)
    e = pthread_create (&t, &attr, body, &a);
  if (e)
    {
      fprintf (stderr, "tg-bench: cannot start the worker thread: %s\n",
	       strerror (e));
      return 2;
    }
  pthread_join (t, NULL);
  return a.status;
}

/* te.h -- the tensor-expression (TE) IR.

   A kernel is lifted to a te_program: its parameters, the tensors it reads
   and writes, and a sequence of stages.  A stage is a loop nest (each loop
   runs a counter from 0 to an extent that may depend on outer counters and
   integer parameters) and a list of statements T[index] = value or
   T[index] += value.  A forward stage, and a stage marked fused, runs
   every statement in order in each iteration; the statements of any other
   backward stage are independent and each may run as a loop nest of its
   own (emit.cc does so).

       for (i = 0; i < n; i++)            stage 0: loops i0 < n
         y[i*m + j] = tanh (x[i*m+j]);             y[i0*m + i1] = tanh (x[...])

   Expressions form a DAG of te_node, hash-consed inside a te_ctx: building
   a node equal to an existing one returns the existing one, so structural
   equality is pointer equality.  Constructors fold constants and apply
   identities that hold in IEEE arithmetic (x*1, x+0 up to the sign of
   zero) plus one that every AD system applies: 0*x is 0 even for infinite
   or NaN x.  Commutative operands are ordered by node id; a sum or product
   is never reassociated.

   Integer expressions (indices, extents) are 64-bit; a narrower C integer
   type shows as a TE_CAST to TE_I32 or TE_U32, which wraps as C does.  */

#ifndef TG_TE_H
#define TG_TE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/diag.h"

typedef enum te_type
{
  TE_BOOL,
  TE_I32,
  TE_U32,
  TE_I64,
  TE_F32,
  TE_F64
} te_type;

/* Every operation: NAME, printed spelling, number of operands.  */
#define TE_OPS(X)                                                           \
  X (CONST, "const", 0)    /* u.i or u.f */                                 \
  X (PARAM, "param", 0)    /* scalar parameter number u.index; TE_BOOL \
                              of a pointer parameter: it is not NULL */   \
  X (VAR, "var", 0)        /* loop counter number u.index */               \
  X (LOAD, "load", 1)      /* u.tensor[arg0] */                            \
  X (NEG, "-", 1)                                                           \
  X (ADD, "+", 2)                                                           \
  X (SUB, "-", 2)                                                           \
  X (MUL, "*", 2)                                                           \
  X (DIV, "/", 2)          /* integers: C's truncating division */         \
  X (MOD, "%", 2)          /* integers only */                             \
  X (MIN, "min", 2)        /* a < b ? a : b ; ties give a */               \
  X (MAX, "max", 2)        /* a > b ? a : b ; ties give a */               \
  X (CAST, "cast", 1)      /* to the node's type */                        \
  X (LT, "<", 2)                                                            \
  X (LE, "<=", 2)                                                           \
  X (GT, ">", 2)                                                            \
  X (GE, ">=", 2)                                                           \
  X (EQ, "==", 2)                                                           \
  X (NE, "!=", 2)                                                           \
  X (AND, "&&", 2)                                                          \
  X (OR, "||", 2)                                                           \
  X (NOT, "!", 1)                                                           \
  X (SELECT, "select", 3)  /* arg0 ? arg1 : arg2 */                        \
  X (EXP, "exp", 1)                                                         \
  X (EXP2, "exp2", 1)                                                       \
  X (EXPM1, "expm1", 1)                                                     \
  X (LOG, "log", 1)                                                         \
  X (LOG2, "log2", 1)                                                       \
  X (LOG10, "log10", 1)                                                     \
  X (LOG1P, "log1p", 1)                                                     \
  X (SQRT, "sqrt", 1)                                                       \
  X (CBRT, "cbrt", 1)                                                       \
  X (SIN, "sin", 1)                                                         \
  X (COS, "cos", 1)                                                         \
  X (TAN, "tan", 1)                                                         \
  X (ASIN, "asin", 1)                                                       \
  X (ACOS, "acos", 1)                                                       \
  X (ATAN, "atan", 1)                                                       \
  X (SINH, "sinh", 1)                                                       \
  X (COSH, "cosh", 1)                                                       \
  X (TANH, "tanh", 1)                                                       \
  X (ERF, "erf", 1)                                                         \
  X (ERFC, "erfc", 1)                                                       \
  X (FABS, "fabs", 1)                                                       \
  X (FLOOR, "floor", 1)                                                     \
  X (CEIL, "ceil", 1)                                                       \
  X (TRUNC, "trunc", 1)                                                     \
  X (ROUND, "round", 1)                                                     \
  X (POW, "pow", 2)                                                         \
  X (ATAN2, "atan2", 2)                                                     \
  X (HYPOT, "hypot", 2)                                                     \
  X (FMAX, "fmax", 2)      /* NaN-ignoring; ties give arg0 */              \
  X (FMIN, "fmin", 2)                                                       \
  X (REDUCE, "reduce", 2)  /* u.red: init arg0, body arg1 over loops */

typedef enum te_op
{
#define TE_OP_ENUM(name, str, arity) TE_##name,
  TE_OPS (TE_OP_ENUM)
#undef TE_OP_ENUM
  TE_NUM_OPS
} te_op;

/* The functions of the math library among the operations, as the case
   labels of a switch over te_op: `TE_CASE_MATH:'.  (Every switch names
   every case; this names thirty at once.)  */
#define TE_CASE_MATH                                                        \
  case TE_EXP:                                                              \
  case TE_EXP2:                                                             \
  case TE_EXPM1:                                                            \
  case TE_LOG:                                                              \
  case TE_LOG2:                                                             \
  case TE_LOG10:                                                            \
  case TE_LOG1P:                                                            \
  case TE_SQRT:                                                             \
  case TE_CBRT:                                                             \
  case TE_SIN:                                                              \
  case TE_COS:                                                              \
  case TE_TAN:                                                              \
  case TE_ASIN:                                                             \
  case TE_ACOS:                                                             \
  case TE_ATAN:                                                             \
  case TE_SINH:                                                             \
  case TE_COSH:                                                             \
  case TE_TANH:                                                             \
  case TE_ERF:                                                              \
  case TE_ERFC:                                                             \
  case TE_FABS:                                                             \
  case TE_FLOOR:                                                            \
  case TE_CEIL:                                                             \
  case TE_TRUNC:                                                            \
  case TE_ROUND:                                                            \
  case TE_POW:                                                              \
  case TE_ATAN2:                                                            \
  case TE_HYPOT:                                                            \
  case TE_FMAX:                                                             \
  case TE_FMIN

typedef enum te_red_kind
{
  TE_RED_SUM,
  TE_RED_PROD,
  TE_RED_MAX,
  TE_RED_MIN
} te_red_kind;

typedef struct te_node te_node;
typedef struct te_tensor te_tensor;
typedef struct te_ctx te_ctx;

/* One loop: counter VAR runs 0, 1, ..., EXTENT-1 (none if EXTENT <= 0).  */
typedef struct te_loop
{
  int var;
  te_node *extent;
  int lanes;       /* 0, or (lanes.c) the back ends run the loop in blocks
                      of LANES iterations, each an inner loop of LANES
                      (which GCC unrolls and vectorizes), then the rest;
                      a sum reduction over it keeps LANES partial sums */
  te_node *start;  /* NULL: the loop runs from 0; else (clip.c, in a
                      backward program's last pass) its first iteration,
                      an integer of sizes and outer counters: it runs
                      START <= var < EXTENT, none when START >= EXTENT;
                      never on a reversed or parallel loop nor in a
                      reduction */
} te_loop;

/* The loops of a reduction, owned by the context.  */
typedef struct te_reduce
{
  te_red_kind kind;
  int nloops;
  te_loop *loops;
} te_reduce;

struct te_node
{
  te_op op;
  te_type type;
  int id;      /* creation order; unique in its context */
  unsigned hash;
  te_node *args[3];
  union
  {
    int64_t i;   /* integer or boolean CONST */
    double f;    /* floating CONST (exact for TE_F32) */
    int index;   /* PARAM, VAR */
    te_tensor *tensor; /* LOAD */
    te_reduce red;     /* REDUCE */
  } u;
  te_node *chain; /* hash bucket */
  te_ctx *ctx;    /* the context that holds it (for walk statistics) */
};

typedef enum te_tensor_kind
{
  TE_TK_PARAM,  /* pointed to by pointer parameter u.param */
  TE_TK_SCALAR, /* a by-value scalar parameter seen as one element */
  TE_TK_LOCAL,  /* a local array of the kernel or of its gradient */
  TE_TK_RETURN, /* the kernel's return value, one element */
  TE_TK_STATIC  /* a variable of static storage the kernel reads, never
                   writes (a constant table, a global integer): at its
                   own address, the emitter's handle DECL, and without
                   an adjoint */
} te_tensor_kind;

/* What a kernel does with a tensor (DESIGN.md section 2).  */
typedef enum te_role
{
  TE_ROLE_UNUSED,
  TE_ROLE_INPUT,  /* reads its entry values, never writes */
  TE_ROLE_OUTPUT, /* writes it, reads only what it wrote */
  TE_ROLE_INOUT,  /* reads entry values and writes */
  TE_ROLE_TEMP    /* a local array */
} te_role;

struct te_tensor
{
  int id;
  const char *name;
  te_type type;
  te_tensor_kind kind;
  int param;       /* parameter number for TE_TK_PARAM and TE_TK_SCALAR */
  te_node *size;   /* number of elements of a LOCAL, else NULL */
  te_role role;    /* set by te_program_roles */
  te_loc loc;      /* its declaration */
  te_tensor *shadow; /* in a forward program: its adjoint in the backward */
  bool nullable;     /* a shadow the caller may pass as NULL: then writes
                        to it are skipped and reads of it are zero */
  bool read_back;    /* an output that later stages read */
  bool batch_tape;   /* carry.c: the tape of a state a time loop carries
                        inside a loop over a batch, a block per sample */
  int expanded;      /* expand.c: a local array with one copy per
                        iteration of the outermost EXPANDED loops of the
                        nest that writes it, rows that never meet (each
                        as long as the declared array, which a kernel
                        within its bounds writes inside) */
  te_tensor *accum;  /* in a forward program: where the adjoints of reads
                        of it accumulate, if not in ->shadow */
  bool optional;     /* a pointer parameter the kernel tests against NULL
                        (te_nonnull): read only where the test holds, and
                        when it is NULL its shadow is neither read nor
                        written */
  te_tensor *primal; /* in a backward program: the optional tensor whose
                        shadow this is (a statement that writes it is
                        skipped when that tensor is NULL), else NULL */
  /* TE_TK_STATIC.  SIZE is its number of elements (a constant).  INIT,
     when its initializer is visible, holds its SIZE initial elements
     (exactly: a float, or an integer below 2^53), which the interpreter
     reads; NULL when only the running program knows them.  CONSTANT: it
     is read-only, so INIT holds its values for ever (a constant table);
     otherwise the gradient reads the variable as the forward left it.  */
  const double *init;
  bool constant;
  void *decl;        /* also, for a LOCAL that is a local array of the
                        kernel (not one a pass or the lifter made), the
                        lifter's handle of its storage: its VAR_DECL, or
                        the SSA pointer of a variable-length one
                        (plugin/forward.cc passes it to a call); else
                        NULL */
};

typedef enum te_param_kind
{
  TE_PK_INT,       /* integer by value: a size or index */
  TE_PK_FLOAT,     /* float or double by value: active */
  TE_PK_PTR_FLOAT, /* pointer (or VLA) to float or double: active */
  TE_PK_PTR_INT    /* pointer to integers: an index array */
} te_param_kind;

typedef struct te_param
{
  const char *name;
  te_param_kind kind;
  te_type type;        /* the value's or the pointee's element type */
  te_tensor *tensor;   /* the tensor it is, or NULL if never accessed */
  int shadow;          /* in a forward program: number of its shadow
                          parameter in the gradient's list, or -1 */
  te_loc loc;
} te_param;

typedef enum te_store
{
  TE_SET,   /* dst[index] = value */
  TE_ADD_TO /* dst[index] += value */
} te_store;

typedef struct te_stmt
{
  te_tensor *dst;
  te_node *index;
  te_store op;
  te_node *value;
  te_node *guard; /* executed only where true; NULL: always */
  int ninner;     /* loops of its own inside the stage's */
  te_loop *inner;
  bool own_recurrent; /* blocks.c: in a block, its one loop of its own
                     carries a recurrence (it reads an element of its
                     destination an earlier iteration of that loop
                     wrote: a seeded scratch row c[j + 1] = c[j] / 2 +
                     g[j + 1]); ad.c runs its adjoints from that loop's
                     last iteration down */
  te_loc loc;
  unsigned pos;   /* the lifter's program order of the store (GIMPLE
                     uids in an order where a loop's body comes before
                     what follows it); 0 for statements a pass made */
  unsigned pos_first; /* of the first of the stores the lifter merged
                     into this statement (the arms of an if/else), else
                     POS */
  bool lanes_sum; /* lanes.c: its innermost loop runs in lanes, along which
                     its element does not move: the back ends add its
                     values in partial sums, one per lane, and those to
                     the element after the loop */
  int lanes_span; /* lanes.c, with lanes_sum: the partial sums span this
                     many loops of its nest (its own, or its stage's when
                     it has none), the innermost and those directly
                     outside it, along none of which its element moves;
                     each of them keeps its own, added lane by lane into
                     the next one's after each of its runs, and the
                     outermost's reach the element after it.  0 or 1:
                     the innermost only */
  int split;      /* statements that ran as one fused nest until rows.c
                     gave each its loops share this number (nonzero, one
                     per such nest of a stage); lib/back/lower.c may run
                     them as one nest again.  0: no such nest */
} te_stmt;

/* An argument of a call stage, as the callee's parameter takes it.  */
typedef struct te_call_arg
{
  te_param_kind kind;  /* the callee's parameter */
  te_node *value;      /* TE_PK_INT, TE_PK_FLOAT: its value */
  te_tensor *tensor;   /* pointers: the array passed, from element OFFSET;
                          TE_PK_FLOAT: the one-element local array that
                          holds the value, where its adjoint goes */
  te_node *offset;
  bool writes;         /* TE_PK_PTR_FLOAT: the callee writes it */
  te_node *extent;     /* pointers: how many elements from OFFSET the
                          callee may touch (winograd.c's calls), or NULL:
                          it does not say */
  te_tensor *adj;      /* a gradient call: where the adjoints of TENSOR go,
                          from OFFSET on (NULL: pass NULL) */
} te_call_arg;

/* What a call passes last as its gemm (te_call.gemm): nothing; the
   CBLAS's cblas_sgemm (dgemm); the object's tiled product behind a
   CBLAS-like function (plugin/tiled.cc's tiled_gemm_adapter,
   lib/back/tiled.h); NULL, the callee's own loops.  */
typedef enum te_call_gemm
{
  TE_GEMM_NONE,
  TE_GEMM_CBLAS,
  TE_GEMM_TILED,
  TE_GEMM_LOOPS
} te_call_gemm;

/* A call of another kernel whose gradient is a function of its own (one
   the user wrote, or one of another translation unit): a stage with no
   loops and no statements.  In a backward program, GRAD: a call of that
   gradient, with the arguments' adjoints as its shadows.  */
typedef struct te_call
{
  const char *name;   /* the callee ... */
  const char *grad_name; /* ... and its gradient, for dumps */
  const char **ctypes; /* C spelling of the callee's parameter types (for
                          dump-c; a pointer to an array may be NULL) */
  void *fn;           /* the emitter's handles: the callee ... */
  void *grad_fn;      /* ... and its gradient */
  int nargs;
  te_call_arg *args;
  te_tensor *ret;     /* a one-element local array for the result, or NULL */
  bool grad;
  te_node *d_return;  /* GRAD with RET: the result's adjoint */
  te_call_gemm gemm;  /* then (but NONE) the address of a gemm of the
                         first array's type: winograd.c's calls of
                         libtensorgrad, which links no CBLAS of its own */
} te_call;

#define TE_MAX_LOOPS 8

/* How a backward stage runs its outermost loop on OpenMP threads
   (lib/passes/parallel.c): distinct iterations write distinct elements
   of every array, but those of PARTIAL, to which all iterations add,
   and of SCRATCH, local arrays every iteration rewrites before it reads
   them.  Each thread adds to a zeroed partial of SPAN[i] elements from
   element LO[i] of PARTIAL[i], and the partials are added to it in the
   order of the threads after the loop; each thread has a SCRATCH array
   of its own, and a copy of each one-element local of VALUES (a value
   each iteration sets before it reads it).  */
typedef struct te_parallel
{
  int npartial;
  te_tensor **partial;
  te_node **lo, **span;
  /* Of each partial, or NULL: the lowest and highest element one
     iteration adds to, in terms of the outermost counter, neither
     decreasing as it grows; a thread's partial holds FIRST (its first
     iteration) to LAST (its last) only.  */
  te_node **first, **last;
  int nscratch;
  te_tensor **scratch;
  int nvalues;
  te_tensor **values;
  /* How many times one run of the stage runs its statements and the
     terms of their sums, at most (an integer of the parameters; each
     extent at its largest over the loops outside it), or NULL when that
     cannot be told: below the emitter's threshold (the option
     parallel-min) the team is one thread.  */
  te_node *work;
} te_parallel;

typedef struct te_stage
{
  int nloops;
  te_loop loops[TE_MAX_LOOPS]; /* outermost first */
  bool reversed;   /* iterate every loop from its last value down */
  int nest;        /* stages of one source loop nest share this number */
  int loop_ids[TE_MAX_LOOPS]; /* the source loop of each loop (positive),
                                 or 0: stages of one nest share their
                                 outer loops where these agree */
  bool recurrent;  /* reads elements its earlier iterations wrote */
  int block_end;   /* roles.c: this stage begins a block that ends at that
                      stage (a later one of its nest), whose stages run
                      iteration by iteration of the loops they share, as
                      the source does (blocks.c makes it one stage); 0:
                      none */
  bool fused;      /* emit all statements in one loop nest, in order */
  te_parallel *par; /* parallel.c: its outermost loop runs on OpenMP
                      threads; NULL: serially */
  bool team;       /* parallel.c: a tiled product (blas, te_program.tiled)
                      the back ends run on the OpenMP threads, each
                      thread on a block of its columns (emit.cc's
                      tiled_team; the interpreter and dump-c run it in
                      one) */
  bool blas;       /* passes/blas.c: one statement that is a matrix
                      product (ir/gemm.h), which the back ends call the
                      CBLAS for; later passes keep it a stage of its
                      own */
  int group;       /* passes/samples.c: consecutive stages with the same
                      nonzero GROUP run iteration by iteration of their
                      first loop, whose counter they share: the back ends
                      and the interpreter run that loop once around
                      them, each stage's other loops inside; 0: none */
  te_call *call;   /* a call stage: no loops, no statements */
  int nstmts;
  te_stmt *stmts;
  te_loc loc;
} te_stage;

/* A load the lifter read inside a reduction over a source loop that the
   reduction was moved out of (a loss summed over the steps of a time
   loop, lifted after the loop): where in the loop's body it read.
   carry.c tells from it which step of an array the loop carries such a
   load sees.  */
typedef struct te_timed_read
{
  const te_tensor *tensor;
  int var;      /* the counter of the reduction's loop */
  unsigned pos; /* the load's program order (te_stmt's pos) */
  int loop_id;  /* the innermost source loop around the load */
} te_timed_read;

/* What the gradient needs of the sizes it is called with, which the
   kernel does not state: GAP, an integer expression of the integer
   parameters, is not negative (a padded softmax's rows of V entries
   spaced Vp apart do not meet: Vp - V >= 0).  Every back end tests it
   first: f_grad reports WHY on stderr and aborts, the check refuses
   sizes that miss it.  */
typedef struct te_require
{
  te_node *gap;
  const char *why; /* "the rows of 'probs' ... " */
  te_loc loc;
} te_require;

typedef struct te_program
{
  te_ctx *ctx;
  const char *name;
  int nparams;
  te_param *params;
  te_type ret_type;  /* TE_BOOL stands for void */
  te_tensor *ret;    /* TE_TK_RETURN tensor, or NULL */
  int ntensors;
  te_tensor **tensors;
  int nstages;
  te_stage *stages;
  int nvars;
  const char **var_names; /* for printing; may hold NULLs */
  int *var_loops;         /* the source loop of each counter (positive;
                             the lifter's stage loops and reductions),
                             or 0 */
  int nparallel;
  int *parallel_loops;    /* the source loops the forward runs on OpenMP
                             threads (te_program_set_parallel_loop) */
  bool parallel_all;      /* run every loop of the gradient that can on
                             OpenMP threads (the option parallel) */
  bool vect_rest;         /* the compiler vectorizes a loop whose trip
                             count leaves a scalar rest (GCC at -O3, a
                             cost model other than very-cheap): lanes.c
                             runs in lanes only loops that sum in them */
  bool wide_vectors;      /* the compiler's vectors hold 8 floats or more
                             (AVX, or target-clones' versions): with
                             vect_rest lanes.c keeps a sum in 32 lanes,
                             four vectors' worth of partial sums */
  te_call_gemm winograd;  /* but NONE: a 3x3 convolution becomes a call
                             of libtensorgrad's tg_conv3x3, passing that
                             gemm (passes/winograd.c; -fplugin-arg-
                             tensorgrad-winograd) */
  bool tiled;             /* blas stages (te_stage.blas) run as the
                             tiled nest of lib/back/tiled.h, no CBLAS:
                             a backward program made without
                             -fplugin-arg-tensorgrad-blas */
  const struct te_program *forward; /* a backward program's forward
                             (ad.c), whose tensors it shares; else NULL */
  int ntimed;
  te_timed_read *timed;   /* the lifter's (te_program_add_timed_read) */
  int nnotes;
  const char **notes;     /* the optimizer's decisions, for the dump */
  int nrequires;
  te_require *requires;   /* te_program_require */
} te_program;

/* A memo of a walk: a value (a node, or any pointer) per node, keyed by
   node id, growing as the walk makes nodes.  Zero-initialize it; free it
   with te_memo_free.  */
typedef struct te_memo
{
  int *keys;
  void **vals;
  size_t n, cap;
} te_memo;
/* The value stored for N, or NULL.  */
void *te_memo_get (const te_memo *m, const te_node *n);
void te_memo_put (te_memo *m, const te_node *n, void *v);
void te_memo_free (te_memo *m);
/* Boolean results in a memo: non-NULL for both.  */
#define TE_MEMO_TRUE ((void *) 2)
#define TE_MEMO_FALSE ((void *) 1)
/* te_contains for many N and one X: M (zero-initialized, freed with
   te_memo_free) remembers the answers, so the queries of one walk visit
   each node once.  */
bool te_contains_memo (const te_node *n, const te_node *x, te_memo *m);

/* ---- contexts, memory -------------------------------------------------- */

te_ctx *te_ctx_new (void);
void te_ctx_free (te_ctx *ctx);
/* One more than the largest node id of CTX: a table indexed by node id
   (a walk's memo) needs this many slots.  */
int te_ctx_ids (const te_ctx *ctx);
/* What the gradient of the program in CTX requires of its sizes
   (te_program_require), which every later decision may assume: GAP >= 0,
   for at most TE_MAX_ASSUMED of them (more are not assumed).  */
#define TE_MAX_ASSUMED 8
void te_ctx_assume (te_ctx *ctx, te_node *gap);
/* Their number, and them in *GAPS.  */
int te_ctx_assumed (const te_ctx *ctx, te_node *const **gaps);

/* ---- walk statistics ----------------------------------------------------

   Every walk of the IR visits each distinct node of what it walks once
   (a memo or a visited mark keyed by node id), so its cost is linear in
   the DAG, not in the expression tree it stands for (which can be
   exponentially larger).  Each walk counts the nodes it visits, per
   kind, in its context; the dump prints the counts beside the number of
   distinct nodes, and tests compare them.  */
typedef enum te_walk_kind
{
  TE_WALK_QUERY,  /* te_walk and the queries built on it */
  TE_WALK_REWRITE, /* te_replace, te_rename_counters, te_canon_loads */
  TE_WALK_DERIV,  /* ad.c's propagation through local derivatives */
  TE_WALK_LOWER,  /* lib/back/lower.c */
  TE_WALK_EMIT,   /* plugin/emit.cc */
  TE_WALK_PRINT,  /* print.c */
  TE_WALK_CGEN,   /* cgen*.c (dump-c) */
  TE_WALK_INTERP, /* the MPFR interpreter */
  TE_NUM_WALKS
} te_walk_kind;

/* Count N visits of walk KIND in CTX.  */
void te_walk_count (te_ctx *ctx, te_walk_kind kind, long n);
/* The visits of walk KIND counted in CTX so far.  */
long te_walk_visits (const te_ctx *ctx, te_walk_kind kind);
/* The name of KIND as the dump prints it.  */
const char *te_walk_name (te_walk_kind kind);
/* Print the counts of CTX under the heading tests match:
   ";; tensorgrad: LABEL: query N nodes, ..., distinct nodes D" (LABEL
   NULL: "walks").  */
void te_walk_stats_dump (FILE *f, const te_ctx *ctx, const char *label);
/* Start counting again from zero.  */
void te_walk_stats_reset (te_ctx *ctx);

/* The most nodes a context may hold: a kernel whose lifted program or
   gradient would need more is refused (te_ctx_full), never compiled
   for minutes.  Real kernels need a few thousand.  */
#define TE_MAX_NODES 200000
/* Has CTX more than TE_MAX_NODES nodes?  Constructors keep working past
   the limit (lib/ never aborts on a user's input); the passes and the
   plugin test this between steps and refuse the kernel.  */
bool te_ctx_full (const te_ctx *ctx);
/* True if CTX is within the limit; otherwise fill DIAG ("gradient of
   'NAME' too large: ...", at the kernel) and return false.  */
bool te_ctx_within_budget (const te_ctx *ctx, const char *name,
                           te_diag *diag);
/* Zeroed memory that lives as long as CTX.  */
void *te_alloc (te_ctx *ctx, size_t size);
char *te_strdup (te_ctx *ctx, const char *s);

/* ---- programs ---------------------------------------------------------- */

te_program *te_program_new (te_ctx *ctx, const char *name);
int te_program_add_param (te_program *p, const char *name, te_param_kind kind,
                          te_type type, te_loc loc);
te_tensor *te_program_add_tensor (te_program *p, const char *name,
                                  te_type type, te_tensor_kind kind,
                                  int param, te_loc loc);
/* A TE_TK_STATIC tensor of N elements at the emitter's handle DECL, an
   input of P; INIT (N values, copied, or NULL) and CONSTANT as in
   te_tensor.  */
te_tensor *te_program_add_static (te_program *p, const char *name,
                                  te_type type, int64_t n,
                                  const double *init, bool constant,
                                  void *decl, te_loc loc);
/* Is tensor T read anywhere in P: by a statement, an extent, a size, a
   call?  */
bool te_program_reads (const te_program *p, const te_tensor *t);
/* Unlist the static variables of P that nothing reads (a constant whose
   every read was folded), and number P's tensors again from 0: for a
   program being built, before anything keys a table by tensor id.  */
void te_program_drop_unread_statics (te_program *p);
/* List T, a tensor of another program of the same context, in P too.  */
void te_program_share_tensor (te_program *p, te_tensor *t);
/* A new loop counter named NAME (may be NULL); returns its number.  */
int te_program_new_var (te_program *p, const char *name);
/* Are the N loops A and B the same counters over the same extents (the
   back ends' annotation te_loop.lanes aside)?  */
bool te_loops_equal (const te_loop *a, const te_loop *b, int n);
/* The name of counter VAR for notes, "?" if it has none.  */
const char *te_program_var_name (const te_program *p, int var);
/* Record that counter VAR of P runs source loop LOOP_ID (var_loops).  */
void te_program_set_var_loop (te_program *p, int var, int loop_id);
/* Source loop LOOP_ID of P runs on OpenMP threads in the forward (the
   lifter: a worksharing loop of a parallel region).  */
void te_program_set_parallel_loop (te_program *p, int loop_id);
/* Does counter VAR of P count a loop the forward runs on threads?  */
bool te_program_var_parallel (const te_program *p, int var);
/* The source loop of counter VAR, or 0.  */
int te_program_var_loop (const te_program *p, int var);
/* Record a load of T inside a reduction over counter VAR at program
   order POS, inside source loop LOOP_ID (te_timed_read).  */
void te_program_add_timed_read (te_program *p, const te_tensor *t, int var,
                                unsigned pos, int loop_id);
te_stage *te_program_add_stage (te_program *p, te_loc loc);
/* A new empty stage at position AT of P, the stages from AT on moving one
   up; pointers into P->stages are stale after it.  */
te_stage *te_program_insert_stage (te_program *p, int at, te_loc loc);
/* How many stages of P from stage S on run as one group (te_stage.group):
   1 for a stage of none.  */
int te_program_group (const te_program *p, int s);
/* Stage S as the loop of its group runs it: a copy without its first
   loop.  */
te_stage te_stage_in_group (const te_stage *s);
te_stmt *te_stage_add_stmt (te_program *p, te_stage *s, te_tensor *dst,
                            te_node *index, te_store op, te_node *value,
                            te_node *guard, te_loc loc);
void te_stage_add_loop (te_stage *s, int var, te_node *extent);

/* ---- expression constructors (hash-consed, simplifying) ---------------- */

/* A NULL operand (a value the lifter failed to lift, having reported
   why) makes te_load, te_unary, te_binary, te_select and te_cast return
   NULL, so a failure propagates without a check at every use.  */

te_node *te_int (te_ctx *ctx, int64_t v);
te_node *te_bool (te_ctx *ctx, bool v);
te_node *te_float (te_ctx *ctx, te_type type, double v);
te_node *te_param_ref (te_ctx *ctx, te_type type, int param);
/* The test that pointer parameter PARAM is not NULL (a TE_BOOL PARAM):
   a loop-invariant predicate, never differentiated.  */
te_node *te_nonnull (te_ctx *ctx, int param);
/* Is N such a test?  */
bool te_is_nonnull (const te_node *n);
te_node *te_var (te_ctx *ctx, int var);
te_node *te_load (te_ctx *ctx, te_tensor *t, te_node *index);
te_node *te_unary (te_ctx *ctx, te_op op, te_node *a);
te_node *te_binary (te_ctx *ctx, te_op op, te_node *a, te_node *b);
te_node *te_select (te_ctx *ctx, te_node *c, te_node *a, te_node *b);
te_node *te_cast (te_ctx *ctx, te_type type, te_node *a);
te_node *te_reduce_node (te_ctx *ctx, te_red_kind kind, int nloops,
                         const te_loop *loops, te_node *init, te_node *body);

#define te_add(c, a, b) te_binary (c, TE_ADD, a, b)
#define te_sub(c, a, b) te_binary (c, TE_SUB, a, b)
#define te_mul(c, a, b) te_binary (c, TE_MUL, a, b)
#define te_div(c, a, b) te_binary (c, TE_DIV, a, b)
#define te_neg(c, a) te_unary (c, TE_NEG, a)
#define te_not(c, a) te_unary (c, TE_NOT, a)

/* guard.c: A || B for path conditions, simplified so that the conditions
   of structured if/else code collapse ((g && c) || (g && !c) is g).  */
te_node *te_guard_or (te_ctx *ctx, te_node *a, te_node *b);
/* guard.c: can A and B not both hold: does every term of A && B in
   disjunctive normal form hold a condition and its negation (n % 2 != 0
   and !(0 != n % 2), nonnull (b) and !nonnull (b))?  False when the form
   is too large.  */
bool te_guards_exclusive (te_ctx *ctx, te_node *a, te_node *b);

/* guard.c: the optional tensors (te_tensor.optional) of P read where
   their tests may not hold.  A load of an optional tensor T must lie in
   an arm of a select, behind the left operand of && or ||, or in a
   statement's value or index under its guard, such that its test
   (te_nonnull of T's parameter) holds there; a call stage may not pass
   T.  Returns the first tensor read elsewhere, with the location of the
   statement or call in *LOC, or NULL if there is none.  The verifier
   checks this of every program; the pipeline refuses a lifted kernel
   that breaks it.  */
const te_tensor *te_optional_unguarded (const te_program *p, te_loc *loc);

/* ---- queries ----------------------------------------------------------- */

const char *te_op_name (te_op op);
int te_op_arity (te_op op);
const char *te_type_name (te_type t);
bool te_type_is_float (te_type t);
bool te_is_const (const te_node *n, double v);
/* The factors of product N (N itself when it is no product), at most
   MAX of them, into F; their number, or -1 when there are more.  */
int te_factors (te_node *n, te_node **f, int max);
/* Does N (transitively) load from tensor T?  T NULL: from any tensor.  */
bool te_reads (const te_node *n, const te_tensor *t);
/* Does N contain node X?  */
bool te_contains (const te_node *n, const te_node *x);
/* Is N zero wherever tensor T reads as zero (a NULL shadow): a load of
   T, a product or quotient with such a factor, a sum or select of such
   values?  The rule te_lower_skips (lib/back/lower.c) skips a += by.  */
bool te_zero_if_null (const te_node *n, const te_tensor *t);
/* Does N mention loop counter VAR?  */
bool te_uses_var (const te_node *n, int var);
/* Does N use counter VAR freely, not as the counter of a reduction in N?  */
bool te_uses_var_free (const te_node *n, int var);
/* The loop of a reduction in N that binds counter VAR, or NULL.  */
const te_loop *te_binding_loop (const te_node *n, int var);
/* The reduction in N that binds counter VAR, or NULL.  */
te_node *te_binding_reduce (const te_node *n, int var);
/* Does N read tensor T inside a reduction?  */
bool te_reads_in_reduction (const te_node *n, const te_tensor *t);
/* The distinct loads of tensor T in N, at most MAX of them, into LOADS;
   their number, or -1 if there are more.  */
int te_loads_of (te_node *n, const te_tensor *t, te_node **loads, int max);
/* N with operands ARGS (as many as its operation has), through the
   simplifying constructors.  */
te_node *te_rebuild (te_ctx *ctx, te_node *n, te_node **args);
/* Replace, inside N, every occurrence of FROM by TO (pointer identity).  */
te_node *te_replace (te_ctx *ctx, te_node *n, te_node *from, te_node *to);
/* te_replace for many N and one FROM and TO: M (zero-initialized, freed
   with te_memo_free) keeps the rewritten nodes from call to call.  */
te_node *te_replace_memo (te_ctx *ctx, te_node *n, te_node *from,
                          te_node *to, te_memo *m);

/* The tensor of P that pointer parameter Q points to, or NULL.  */
te_tensor *te_param_tensor (const te_program *p, int q);
/* Does stage S write T (a statement, or the call of a call stage)?  */
bool te_stage_writes (const te_stage *s, const te_tensor *t);
/* Does call stage S pass T, to be read (READ) or written (!READ)?  */
bool te_call_passes (const te_stage *s, const te_tensor *t, bool read);
/* The element type of the first array call C passes: its gemm's
   (te_call.gemm).  */
te_type te_call_elem_type (const te_call *c);
/* Does stage S access T: a statement writes it, or a value, index or
   guard reads it, or a call passes it?  */
bool te_stage_accesses (const te_stage *s, const te_tensor *t);
/* Does statement X read T, in its value, index or guard?  */
bool te_stmt_reads (const te_stmt *x, const te_tensor *t);
/* Does the size of a tensor of P read T?  */
bool te_sizes_read (const te_program *p, const te_tensor *t);
/* The number of outer loops stages A and B share: loops of one source
   nest, distributed by the lifter into stages of their own (loop_ids).  */
int te_shared_loops (const te_stage *a, const te_stage *b);
/* The loops of stage S whose counters N uses (of NVARS counters), as a
   mask with bit K for S's loop K; -1 when N uses a counter of none of
   them (a reduction's own).  */
int te_stage_loop_mask (const te_stage *s, const te_node *n, int nvars);
/* Is stage S empty: no statement and no call?  */
bool te_stage_empty (const te_stage *s);
/* Drop P's empty stages.  */
void te_program_drop_empty (te_program *p);
/* P's stages, in memory of its context, their number into *N; P is left
   with none, for a pass that builds them again one by one.  */
te_stage *te_program_take_stages (te_program *p, int *n);
/* Drop the local arrays nothing reads, with their statements.  */
void te_program_drop_unread (te_program *p);
/* Every access of FROM in P (loads, stores, sizes, extents, calls)
   becomes one of TO.  */
void te_program_retarget (te_program *p, te_tensor *from, te_tensor *to);
/* A copy of T, which P lists, that P alone names from now on: a pass that
   changes a tensor of a backward program that the forward program shares
   (a local array the gradient recomputes) changes the copy.  */
te_tensor *te_program_own_copy (te_program *p, te_tensor *t);

/* Call FN on each distinct node of N, operands first (post-order).  */
void te_walk (te_node *n, void (*fn) (te_node *, void *), void *data);

/* Record a decision of the optimizer in P's notes, printf-style (nodes
   are formatted with te_node_string).  */
void te_program_note (te_program *p, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* S with the version suffixes the passes give arrays ('p.v1') dropped,
   in place: a user's message names the array as the kernel does.  */
void te_user_names (char *s);
/* Record that the gradient needs GAP >= 0 (te_require; GAP canonical,
   of the integer parameters), printf-style WHY; once per GAP.  The dump
   notes it ("require: ...").  */
/* The message of R of P when it does not hold, in P's context: "the
   sizes do not meet what WHOSE gradient requires, GAP >= 0: WHY", or,
   when GAP reads an index array (each entry within its row), "the index
   arrays do not meet what WHOSE gradient requires: WHY".  */
const char *te_require_text (const te_program *p, const te_require *r,
                             const char *whose);
void te_program_require (te_program *p, te_node *gap, te_loc loc,
                         const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
/* N printed as in the dump, in memory of P's context.  */
const char *te_node_string (const te_program *p, const te_node *n);

/* simplify.c: N with each product that has a factor J == E ? A : 0 (J a
   counter) as J == E ? X * A : 0, J replaced by E in the other factors
   X (through a sum among them), and with factors Y and A / Y cancelled
   (a division by a stored value multiplied by the same value).  */
te_node *te_simplify_points (te_ctx *ctx, te_node *n);
/* simplify.c: is N such a select, J == E ? A : 0 (also (J == E && C) ?
   A : 0), E free of J?  Sets *VAR (J) and *AT (E).  */
bool te_point_select (const te_node *n, te_node **var, te_node **at);

/* ---- printing ---------------------------------------------------------- */

void te_node_dump (FILE *f, const te_program *p, const te_node *n);
void te_stage_dump (FILE *f, const te_program *p, const te_stage *s);
void te_program_dump (FILE *f, const te_program *p);
/* P's dump without its notes; its notes from number FROM on.  */
void te_program_dump_body (FILE *f, const te_program *p);
void te_program_dump_notes (FILE *f, const te_program *p, int from);

#endif /* TG_TE_H */

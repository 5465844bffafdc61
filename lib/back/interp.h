/* interp.h -- an MPFR interpreter of TE programs.

   Evaluates a te_program (a lifted forward kernel or the backward program
   ad_reverse made of it) on values the caller supplies, in MPFR:

     mp_env *env = mp_env_new (bwd, 256);     bwd's parameters are fwd's
     mp_env_set_int (env, 0, n);              followed by the shadows, so
     mpfr_t *x = mp_env_param_tensor (env, 1, n);   one env serves both
     ... fill x[0..n-1] with mpfr_set_d ...
     mp_run (env, fwd, &diag);                the forward
     mpfr_t *dy = mp_env_tensor (env, y->shadow, n);
     ... seed dy ...
     mp_run (env, bwd, &diag);                the gradient, into d_x ...
     mp_env_free (env);

   An environment holds
   - the values of the scalar parameters, by parameter number: integers as
     int64_t, floating ones as mpfr_t;
   - the elements of every tensor, by te_tensor (programs of one context
     share their tensors), each an array of mpfr_t of the environment's
     precision that the caller asks for with mp_env_tensor and fills.

   The environment belongs to the program given to mp_env_new; mp_run
   accepts that program or any program of the same context whose
   parameters are a prefix of its parameters (the forward of a backward).

   Semantics (te.h, and what plugin/emit.cc emits).  A loop runs its
   counter from 0 to its extent - 1 (from extent - 1 down to 0 in a
   reversed stage; a statement's own inner loops always run upwards),
   the extent evaluated with the outer counters bound.  A stage runs each
   statement, in order, over the whole loop nest (stage loops, then the
   statement's inner loops); a fused or recurrent stage instead runs every
   statement in order in each iteration of its loops.  A guarded statement
   runs only where its guard holds.  Integer nodes are 64-bit, wrapped to
   their type (TE_I32, TE_U32 as C converts); / and % truncate as C's; &&
   and || and selects evaluate only what they need.  Floating nodes are
   computed in MPFR with MPFR's correctly rounded functions: min/max give
   the first operand on ties, fmin/fmax ignore a NaN operand, round rounds
   half away from zero.  A reduction starts from its init and folds the
   body over its loops in lexicographic order: acc + body, acc * body,
   body > acc ? body : acc, body < acc ? body : acc.

   Tensors.
   - TE_TK_PARAM: the caller provides the elements (mp_env_tensor or
     mp_env_param_tensor).  A nullable tensor (a shadow) that has no
     elements is NULL, as a caller of f_grad may pass it, and is read as
     zeros; a statement that writes it is skipped, and so is a += whose
     value is zero wherever it reads as zero (as in the emitted code).  A
     non-nullable tensor without elements is an error when accessed.
   - TE_TK_SCALAR: reads give the value of its by-value parameter.
   - TE_TK_RETURN: one element, allocated (as +0) when the caller did not.
   - TE_TK_LOCAL: t->size elements (an expression of the parameters),
     allocated and zeroed by every mp_run; they live until the next run.
   - TE_TK_STATIC: its initial elements (t->init), unless the caller gave
     it some; without either, an error (TE_DIAG_USER).
   Every access is bounds-checked.

   Numbers.  By default every floating node is computed at the
   environment's precision (256 bits unless told otherwise) and never
   rounded to float or double: a high-precision reference.  With
   mp_env_set_round_to_type, every floating result (constants, loads,
   parameters, every operation, every store and += ) is instead correctly
   rounded to its node's C type, TE_F32 as IEEE binary32 and TE_F64 as
   binary64, overflow, underflow and subnormals included
   (mpfr_subnormalize): the values C would compute with correctly rounded
   math functions, without FMA contraction and without excess precision.

   MPFR state.  MPFR's exponent range and flags are global and shared
   with GCC's constant folding when this runs in the plugin.  mp_run
   widens the exponent range to the largest MPFR allows while it runs and
   restores the range and the flags on return.  The caller must not read
   a value outside the caller's own range (only values beyond about
   2^(2^30) are) with MPFR's functions.

   Errors.  lib/ never aborts: mp_run returns false and fills DIAG for an
   out-of-bounds access, an integer division by zero, a conversion out of
   an integer type's range, a missing parameter value or tensor
   (TE_DIAG_USER), and for an operation it cannot evaluate or an IR
   inconsistency (TE_DIAG_INTERNAL).  Tensor contents are then as the
   statements executed before the error left them.  */

#ifndef TG_INTERP_H
#define TG_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpfr.h>

#include "ir/te.h"

/* The default precision of an environment, in bits.  */
#define MP_DEFAULT_PREC 256

typedef struct mp_env mp_env;

/* A new environment for program P at precision PREC bits (PREC <= 0: the
   default; at least 53 is used).  No parameter has a value and no tensor
   has elements yet.  NULL when memory runs out.  */
mp_env *mp_env_new (const te_program *p, long prec);

/* Free ENV and every array it handed out.  ENV may be NULL.  */
void mp_env_free (mp_env *env);

/* The precision of ENV's tensors and (by default) of its arithmetic.  */
mpfr_prec_t mp_env_prec (const mp_env *env);

/* Round every floating result to its C type (see above) when ON; compute
   at the environment's precision when not (the default).  */
void mp_env_set_round_to_type (mp_env *env, bool on);

/* Give scalar parameter PARAM of ENV's program the value V.  An integer
   parameter takes mp_env_set_int, a floating one the others; false when
   PARAM is not a scalar parameter of that kind.  A floating value is
   stored at the environment's precision (exactly, for a double).  */
bool mp_env_set_int (mp_env *env, int param, int64_t v);
bool mp_env_set_float (mp_env *env, int param, double v);
bool mp_env_set_mpfr (mp_env *env, int param, mpfr_srcptr v);

/* The value of floating parameter PARAM, to read or to set in place;
   NULL when PARAM is not a floating scalar parameter.  Setting it gives
   the parameter a value.  */
mpfr_ptr mp_env_float (mp_env *env, int param);

/* The N elements of tensor T in ENV, each an initialized mpfr_t of the
   environment's precision.  When T has no elements yet, or a number other
   than N, they are (re)allocated as +0; otherwise they are returned as
   they are.  NULL when memory runs out or T is a TE_TK_SCALAR tensor.  The
   array belongs to ENV: valid until mp_env_free, mp_env_tensor_drop or a
   call asking for another size.  */
mpfr_t *mp_env_tensor (mp_env *env, const te_tensor *t, size_t n);

/* mp_env_tensor for the tensor of pointer parameter PARAM of ENV's
   program; NULL when PARAM has none.  */
mpfr_t *mp_env_param_tensor (mp_env *env, int param, size_t n);

/* The elements T has in ENV, their number in *N (if N is not NULL); NULL
   when it has none.  */
mpfr_t *mp_env_tensor_get (const mp_env *env, const te_tensor *t,
                           size_t *n);

/* Release T's elements: a nullable T is then NULL.  */
void mp_env_tensor_drop (mp_env *env, const te_tensor *t);

/* Execute every stage of P in order on ENV.  False, with DIAG filled,
   on an error (see above).  */
bool mp_run (mp_env *env, const te_program *p, te_diag *diag);
/* The first requirement of P's sizes (te_require) that does not hold at
   ENV's integer parameters into *FAILED, or -1 when all hold (mp_run
   fails on such a one before it runs a stage).  False, with DIAG filled,
   on an error.  */
bool mp_requires_failed (mp_env *env, const te_program *p, int *failed,
                         te_diag *diag);

/* ---- probes -------------------------------------------------------------

   A probe runs P's integer parts over its loops without its
   floating-point data and reports every access of a tensor to a
   callback: what the gradient check needs to size the tensors before it
   has any (lib/check/extent.c).  ENV gives the integer parameters; no
   tensor needs elements and none is written.

   It runs as mp_run with these differences.  A floating node is not
   computed: its value is unknown, and so is that of every integer node
   that depends on one, on a reduction, or on a load the callback gives
   no value.  A select, && or || whose condition is unknown evaluates
   every operand, as branches that may not run (the accesses there are
   "unsure"); a statement whose guard is unknown likewise.  Each
   statement runs over the whole nest on its own, counters upwards,
   whatever its stage's fusion and direction, and none is skipped for a
   NULL tensor; locals get no elements.  A node is evaluated once per
   point of the loops around it (again whenever a counter changes).  */

/* One access, as the probe reports it.  */
typedef struct mp_access
{
  const te_tensor *t;
  int64_t index;    /* the element, valid when INDEX_KNOWN */
  bool index_known; /* the index does not depend on floating-point data */
  bool unsure;      /* inside a branch that may not run */
  bool store;       /* a statement's store, else a load */
  /* A load of an integer tensor: the callback may give the element's
     value here (it comes unknown).  */
  int64_t value;
  bool value_known;
} mp_access;

/* Why mp_probe_run stopped.  */
typedef enum mp_probe_stop
{
  MP_PROBE_DONE,         /* every statement ran */
  MP_PROBE_ACCESS,       /* the callback returned false */
  MP_PROBE_FLOAT_EXTENT, /* a loop's extent depends on floating data */
  MP_PROBE_DIVIDE,       /* an integer division or remainder by zero
                            (or INT64_MIN / -1) */
  MP_PROBE_TOO_LONG,     /* more than MAX_OPS node evaluations */
  MP_PROBE_ERROR         /* the interpreter's error, in DIAG */
} mp_probe_stop;

typedef struct mp_probe
{
  /* Called for every access, in the order of evaluation; false stops
     the probe.  */
  bool (*access) (void *data, mp_access *a);
  void *data;
  long max_ops; /* the most node evaluations allowed; 0: no limit */
  long ops;     /* out: the node evaluations of the run */
} mp_probe;

/* Probe P on ENV with PROBE (see above).  DIAG is filled for
   MP_PROBE_ERROR.  */
mp_probe_stop mp_probe_run (mp_env *env, const te_program *p,
                            mp_probe *probe, te_diag *diag);

#endif /* TG_INTERP_H */

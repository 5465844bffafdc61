/* check-int.h -- private to the gradient check (check.h): the state of
   one check and the steps its files share.  gradient.c has step 1 (the
   sizes) and the entry point, extent.c step 2, values.c step 3, diff.c
   steps 4 and 5, compare.c step 6; state.c what they share.  */

#ifndef TG_CHECK_INT_H
#define TG_CHECK_INT_H

#include <mpfr.h>

#include "back/interp.h"
#include "check/check.h"

/* Precision of every run, in bits.  */
#define CK_PREC 256
/* The finite-difference step is 2^-CK_H_BITS times the value.  */
#define CK_H_BITS 40
/* Refuse tensors of more elements than this at the chosen sizes.  */
#define CK_MAX_ELEMS 100000
/* Refuse when the finite differences would evaluate more nodes than
   this (4 forward runs per input element).  */
#define CK_MAX_OPS 40000000L
/* An element whose derivative is zero compares at this fraction of the
   kernel's largest derivative.  */
#define CK_FLOOR 1e-20

/* What the check does with one parameter of the forward.  */
typedef struct ck_param
{
  int64_t n;      /* elements of a pointer parameter (1 for a scalar) */
  mpfr_t *entry;  /* entry values of a floating array or scalar */
  double *c;      /* weights of an output or in-out array */
  int64_t *idx;   /* values of an index array, once chosen */
  bool fd;        /* its gradient is checked */
  bool weighed;   /* its final values are in the loss */
  mpfr_t *grad;   /* the backward's gradient */
  mpfr_t *diff;   /* the finite differences */
} ck_param;

/* The state of one check.  */
typedef struct ck_state
{
  const char *name;
  const te_program *fwd, *bwd;
  const ck_options *opt;
  ck_result *res;  /* AT and WHY are the diagnostics' */
  int64_t *ints;   /* the value of each integer parameter */
  bool named_sizes; /* check-sizes= named some of them */
  ck_param *par;
  double c_ret;
  bool positive;   /* values in [1/8, 1] rather than +-[1/8, 1] */
  bool small_index; /* index arrays hold 0 or 1 (ck_index_value) */
  long ops;        /* nodes one forward run evaluates */
  char sizes[256]; /* "n=3, m=2" */
  te_diag diag;
} ck_state;

/* state.c */
bool ck_refuse (ck_state *ck, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
bool ck_refuse_run (ck_state *ck);
void *ck_alloc (ck_state *ck, size_t n, size_t size);
int64_t ck_index_value (const ck_state *ck, int q, int64_t e);
/* values.c */
bool ck_choose_values (ck_state *ck);
bool ck_load_env (ck_state *ck, mp_env *env);
bool ck_loss (ck_state *ck, mp_env *env, mpfr_ptr l);

/* extent.c: step 2.  */
bool ck_find_extents (ck_state *ck);

/* diff.c: steps 4 and 5.  */
bool ck_run_backward (ck_state *ck);
bool ck_run_differences (ck_state *ck);

/* compare.c: step 6.  */
void ck_compare (ck_state *ck);

#endif /* TG_CHECK_INT_H */

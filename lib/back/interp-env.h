/* interp-env.h -- private to the MPFR interpreter (interp.c,
   interp-env.c, interp-probe.c): what an environment holds, the state of
   one run, and the functions the files share.  */

#ifndef TG_INTERP_ENV_H
#define TG_INTERP_ENV_H

#include "back/interp.h"

/* Nesting of reductions inside one expression.  */
#define MP_MAX_DEPTH 32

/* The value of a scalar parameter.  */
typedef struct param_val
{
  bool has;   /* the caller gave a value */
  bool is_float;
  int64_t i;
  mpfr_t f;   /* initialized when IS_FLOAT */
} param_val;

/* The N elements of tensor T.  */
typedef struct storage
{
  const te_tensor *t;
  size_t n;
  mpfr_t *data;
} storage;

/* An environment (interp.h).  */
struct mp_env
{
  const te_program *prog;
  mpfr_prec_t prec;
  bool round;
  int nparams;
  param_val *params;
  int nstores, capstores;
  storage *stores;
};

/* The value of one node in a run, valid while STAMP is the stamp of an
   open scope (interp.c, step 3).  */
typedef struct slot
{
  uint64_t stamp; /* 0: never computed */
  bool has_f;     /* F is initialized */
  bool known;     /* a probe: I is known */
  int64_t i;
  mpfr_t f;
} slot;

/* The state of one mp_run.  */
typedef struct run
{
  mp_env *env;
  const te_program *p;
  te_diag *diag;
  te_loc loc; /* of the statement or stage running */
  int nslots;
  slot *slots;
  int nvars;
  int64_t *var;
  bool *bound;
  bool *skip; /* per statement of the current stage */
  int *runs;  /* per statement of the current stage: at the first of a
                 run (te_lower_run), how many run as one nest */
  uint64_t tick;
  int depth;
  uint64_t scope[MP_MAX_DEPTH + 1];
  mpfr_t tmp24, tmp53, conv; /* store rounding; int64 to mpfr */
  mp_probe *probe;   /* a probe (interp-probe.c), or NULL */
  const struct ip_probe_hooks *hooks; /* what a probe does instead */
  mp_probe_stop stop;
  int unsure;        /* a probe: inside branches that may not run */
} run;

/* The value of node N in the slots of run R, floating or integer.  */
#define F(n) (r->slots[(n)->id].f)
#define I(n) (r->slots[(n)->id].i)

/* interp.c: a diagnostic at the current location (returns false); the
   evaluation of the operands of a node; the value of parameter Q read by
   node N, into F (floating N) or *IV.  */
bool ip_fail (run *r, te_diag_kind kind, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
bool ip_eval_args (run *r, const te_node *n, bool fl);
bool ip_param_value (run *r, const te_node *n, int q, mpfr_ptr f, int64_t *iv,
                     int *inex);

/* interp.c, for the probe: evaluate N; an integer node N whose operands
   are evaluated; the loops of reduction N (its init evaluated) into S.  */
bool ip_eval (run *r, const te_node *n);
bool ip_eval_int (run *r, const te_node *n, slot *s);
bool ip_reduce_loops (run *r, const te_node *n, slot *s);

/* What a probe (interp-probe.c) does in place of evaluating: node N into
   S; statement ST.  */
typedef struct ip_probe_hooks
{
  bool (*node) (run *r, const te_node *n, slot *s);
  bool (*stmt) (run *r, const te_stmt *st);
} ip_probe_hooks;

/* interp.c: run P on ENV, a probe when PROBE (with HOOKS; the reason it
   stopped in *STOP).  */
bool ip_run_program (mp_env *env, const te_program *p, te_diag *diag,
                     mp_probe *probe, const ip_probe_hooks *hooks,
                     mp_probe_stop *stop);

/* interp-env.c: stop the probe of run R for WHY; returns false.  */
bool ip_probe_stop (run *r, mp_probe_stop why);

/* interp-env.c: a tensor's storage; the slots and counters of run R for
   P (false when memory runs out), and freeing them.  */
storage *ip_find_storage (const mp_env *env, const te_tensor *t);
bool ip_run_alloc (run *r, const te_program *p);
void ip_run_free (run *r);

#endif /* TG_INTERP_ENV_H */

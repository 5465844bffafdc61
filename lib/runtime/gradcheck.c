/* gradcheck.c -- the runtime gradient checker of libtensorgrad.

   Before: a forward f, its backward f_grad following the gradient ABI
   (DESIGN.md section 2), a tg_kernel describing them, the caller's
   arguments.  After: for every shadow, the largest absolute and relative
   error of f_grad against central differences and where, the elements
   outside the tolerance, and any ABI violation.

     void scale (int n, double a, const double *x, double *y)
	 y[i] = a * x[i]
     L = sum_i c_i y_i    d_a = sum_i c_i x_i    d_x[i] = c_i a

   1. Validate the descriptor; ask its extents function how many elements
      each floating pointer covers.
   2. Copy every floating array and scalar (its entry values); integers
      and index arrays pass through, and so does a NULL array that covers
      no elements (an optional input: its shadow is NULL too).  The kernel only ever sees the
      copies ("work"), so the caller's arrays are never written.
   3. The base evaluation: reset the work copies from the entry values,
      run the forward, check it wrote no input; keep the state it left
      (the backward's view, "base").
   4. Draw weights c for every output element and the result, exactly
      representable in their types.
   5. Run the backward with output and in-out shadows c, input shadows 0,
      d_return c_ret: the analytic gradient.  Check that it wrote nothing
      but input and in-out shadows, then run it again with input shadows
      pre-filled with 1 and check that it added to them.
   6. For each element of each input, in-out and scalar: evaluate at
      x + h and x - h (rounded to the element's type), sum
      c_k * out_k(x + h) - c_k * out_k(x - h) exactly in MPFR (products
      of two doubles are exact in 106 bits; mpfr_sum rounds once), and
      divide by the difference of the stored points.  Restore x bit for
      bit.  Compare with the analytic value.
   7. Fill the report.

   Numeric contract: the only rounding in the numeric gradient is the
   kernel's own, the rounding of x +- h to the element's type (accounted
   for by the denominator) and one final rounding to double.

   Limits: two forward calls per checked element, so inputs should be
   small; a kernel whose forward is not deterministic cannot be checked;
   the extents must be right (the checker copies exactly that many
   elements).  */

#ifdef HAVE_CONFIG_H
#include "tg-config.h"
#endif

#include "tensorgrad.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One active (floating) parameter; the slots are in ABI shadow order.  */
typedef struct gc_slot
{
  int param;	    /* the parameter's index */
  const char *name; /* its name */
  int role;	    /* its enum tg_role */
  bool scalar;	    /* passed by value */
  bool is_float;    /* float elements, else double */
  long n;	    /* elements: 1 for a scalar, the extent for an array */
  long out0;	    /* TG_OUT, TG_INOUT: offset of its elements in outv */
  void *entry;	    /* the entry values; one element perturbed at a time */
  void *work;	    /* the copy the kernel is given */
  void *base;	    /* work as the base forward left it */
  void *shadow_buf; /* the shadow the backward is given */
  double *grad;	    /* TG_IN, TG_INOUT: the analytic gradient */
} gc_slot;

/* The state of one tg_gradcheck call.  */
typedef struct gc_ctx
{
  const tg_kernel *k;
  tg_report *rep;
  int ret;	  /* k->ret */
  void **args;	  /* the argument vector the trampolines get */
  void **shadows; /* the shadow vector */
  int nslots;
  gc_slot *slots;
  bool is_float;  /* the kernel's precision is float */
  bool no_abi;	  /* TG_CHECK_NO_ABI */
  double rtol, atol, step;
  long nout;	  /* output and in-out elements, plus 1 for a result */
  double *outv;	  /* their values at the last evaluation */
  double *plus;	  /* their values at x + h */
  double *cw;	  /* their weights */
  char *out_is_float;
  mpfr_t *terms;  /* 2 * nout exact products */
  mpfr_ptr *term_ptrs;
  union
  {
    float f;
    double d;
  } retv;	  /* the forward's result */
} gc_ctx;

/* Precision of the exact products and of the sum (at least 2 * 53).  */
#define GC_PREC 128

/* Release everything CTX allocated.  */
static void
gc_free (gc_ctx *ctx)
{
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      free (sl->entry);
      free (sl->work);
      free (sl->base);
      free (sl->shadow_buf);
      free (sl->grad);
    }
  free (ctx->slots);
  free (ctx->args);
  free (ctx->shadows);
  free (ctx->outv);
  free (ctx->plus);
  free (ctx->cw);
  free (ctx->out_is_float);
  if (ctx->terms)
    {
      for (long t = 0; t < 2 * ctx->nout; t++)
	mpfr_clear (ctx->terms[t]);
      free (ctx->terms);
      free (ctx->term_ptrs);
    }
}

/* Record an argument or ABI problem in CTX's report message (the first
   one wins), printf-style.  */
static void
gc_message (gc_ctx *ctx, const char *fmt, ...)
{
  va_list ap;
  if (ctx->rep->message[0])
    return;
  va_start (ap, fmt);
  vsnprintf (ctx->rep->message, sizeof ctx->rep->message, fmt, ap);
  va_end (ap);
}

/* Count an ABI violation described printf-style.  */
static void
gc_abi_error (gc_ctx *ctx, const char *fmt, ...)
{
  va_list ap;
  ctx->rep->abi_errors++;
  if (ctx->rep->message[0])
    return;
  va_start (ap, fmt);
  vsnprintf (ctx->rep->message, sizeof ctx->rep->message, fmt, ap);
  va_end (ap);
}

/* Element I of the float (IS_FLOAT) or double array P, as a double.  */
static double
gc_get (const void *p, bool is_float, long i)
{
  return is_float ? (double) ((const float *) p)[i] : ((const double *) p)[i];
}

/* Store V into element I of the float or double array P.  */
static void
gc_set (void *p, bool is_float, long i, double v)
{
  if (is_float)
    ((float *) p)[i] = (float) v;
  else
    ((double *) p)[i] = v;
}

static size_t
gc_esize (bool is_float)
{
  return is_float ? sizeof (float) : sizeof (double);
}

/* The next weight of state *S: +-(0.5 .. 1.5), rounded to float when
   IS_FLOAT.  A 64-bit linear congruential generator (Knuth's MMIX).  */
static double
gc_weight (unsigned long long *s, bool is_float)
{
  double u, w;
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  u = (double) (*s >> 11) / 9007199254740992.0;
  w = 0.5 + 2.0 * (u < 0.5 ? u : u - 0.5);
  if (u >= 0.5)
    w = -w;
  return is_float ? (double) (float) w : w;
}

/* Step 1: check descriptor K and arguments ARGS; fill CTX's slots (one
   per active parameter, in ABI order) and argument vector.  Returns 0,
   -1 (message set) or -2.  */
static int
gc_setup_slots (gc_ctx *ctx, const tg_kernel *k, const void *const *args)
{
  int np = k->nparams;
  ctx->args = calloc (np > 0 ? (size_t) np : 1, sizeof (void *));
  ctx->slots = calloc (np > 0 ? (size_t) np : 1, sizeof (gc_slot));
  if (!ctx->args || !ctx->slots)
    return -2;
  for (int i = 0; i < np; i++)
    {
      const tg_param *p = &k->params[i];
      const char *name = p->name ? p->name : "?";
      bool ptr;
      ctx->args[i] = (void *) args[i];
      switch ((enum tg_kind) p->kind)
	{
	case TG_INT:
	case TG_PTR_INT:
	  continue;
	case TG_FLOAT:
	case TG_DOUBLE:
	  ptr = false;
	  break;
	case TG_PTR_FLOAT:
	case TG_PTR_DOUBLE:
	  ptr = true;
	  break;
	case TG_VOID:
	default:
	  gc_message (ctx, "parameter %d ('%s') has an invalid kind %d", i,
		      name, p->kind);
	  return -1;
	}
      if (p->role < TG_IN || p->role > TG_UNUSED
	  || (!ptr && p->role != TG_IN && p->role != TG_UNUSED))
	{
	  gc_message (ctx, "parameter %d ('%s') has an invalid role %d%s", i,
		      name, p->role,
		      ptr ? "" : " (a by-value scalar is TG_IN or TG_UNUSED)");
	  return -1;
	}
      /* A NULL array is an error only if it covers elements: see
	 gc_extents.  */
      if (!args[i] && !ptr)
	{
	  gc_message (ctx, "argument %d ('%s') is NULL: pass the address "
		      "of the scalar", i, name);
	  return -1;
	}
      gc_slot *sl = &ctx->slots[ctx->nslots++];
      sl->param = i;
      sl->name = name;
      sl->role = p->role;
      sl->scalar = !ptr;
      sl->is_float = p->kind == TG_FLOAT || p->kind == TG_PTR_FLOAT;
      sl->n = ptr ? -1 : 1;
      if (sl->is_float && sl->role != TG_UNUSED)
	ctx->is_float = true;
    }
  return 0;
}

/* Step 1, continued: the element counts from K's extents function.  */
static int
gc_extents (gc_ctx *ctx, const tg_kernel *k)
{
  bool need = false;
  long *count;
  for (int s = 0; s < ctx->nslots; s++)
    if (!ctx->slots[s].scalar && ctx->slots[s].role != TG_UNUSED)
      need = true;
  if (!need)
    return 0;
  if (!k->extents)
    {
      gc_message (ctx, "the descriptor has pointer parameters but no "
		  "extents function");
      return -1;
    }
  count = malloc ((size_t) k->nparams * sizeof (long));
  if (!count)
    return -2;
  for (int i = 0; i < k->nparams; i++)
    count[i] = -1;
  k->extents (ctx->args, count);
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      if (sl->scalar || sl->role == TG_UNUSED)
	continue;
      sl->n = count[sl->param];
      if (sl->n < 0)
	{
	  gc_message (ctx, "the extents function gave no element count for "
		      "'%s' (parameter %d)", sl->name, sl->param);
	  free (count);
	  return -1;
	}
      if (sl->n > 0 && !ctx->args[sl->param])
	{
	  gc_message (ctx, "argument %d ('%s') is NULL but covers %ld "
		      "elements", sl->param, sl->name, sl->n);
	  free (count);
	  return -1;
	}
    }
  free (count);
  return 0;
}

/* Step 2 and the buffers of steps 4 to 6: copy the entry values, point
   the arguments and shadows at the copies.  Returns 0 or -2.  */
static int
gc_alloc (gc_ctx *ctx)
{
  long nout = 0;
  ctx->shadows = calloc (ctx->nslots > 0 ? (size_t) ctx->nslots : 1,
			 sizeof (void *));
  if (!ctx->shadows)
    return -2;
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      size_t bytes;
      if (sl->role == TG_UNUSED)
	continue; /* the caller's pointer passes through; NULL shadow */
      if (!ctx->args[sl->param])
	{
	  /* Covers nothing (gc_extents): an optional array passed as
	     NULL stays NULL, and so does its shadow.  */
	  sl->out0 = nout;
	  continue;
	}
      bytes = (size_t) (sl->n > 0 ? sl->n : 1) * gc_esize (sl->is_float);
      sl->entry = malloc (bytes);
      sl->work = malloc (bytes);
      sl->base = malloc (bytes);
      sl->shadow_buf = malloc (bytes);
      sl->grad = calloc ((size_t) (sl->n > 0 ? sl->n : 1), sizeof (double));
      if (!sl->entry || !sl->work || !sl->base || !sl->shadow_buf
	  || !sl->grad)
	return -2;
      if (sl->n > 0)
	memcpy (sl->entry, ctx->args[sl->param],
		(size_t) sl->n * gc_esize (sl->is_float));
      ctx->args[sl->param] = sl->work;
      ctx->shadows[s] = sl->shadow_buf;
      sl->out0 = nout;
      if (sl->role == TG_OUT || sl->role == TG_INOUT)
	nout += sl->n;
    }
  if (ctx->ret != TG_VOID)
    nout++;
  ctx->nout = nout;
  size_t n1 = (size_t) (nout > 0 ? nout : 1);
  ctx->outv = malloc (n1 * sizeof (double));
  ctx->plus = malloc (n1 * sizeof (double));
  ctx->cw = malloc (n1 * sizeof (double));
  ctx->out_is_float = malloc (n1);
  ctx->terms = malloc (2 * n1 * sizeof (mpfr_t));
  ctx->term_ptrs = malloc (2 * n1 * sizeof (mpfr_ptr));
  if (!ctx->outv || !ctx->plus || !ctx->cw || !ctx->out_is_float
      || !ctx->terms || !ctx->term_ptrs)
    {
      free (ctx->terms);
      ctx->terms = NULL;
      return -2;
    }
  for (long t = 0; t < 2 * nout; t++)
    mpfr_init2 (ctx->terms[t], GC_PREC);
  return 0;
}

/* One evaluation: reset every work copy from the entry values, run the
   forward, gather the outputs and the result into CTX->outv.  */
static void
gc_eval (gc_ctx *ctx)
{
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      if (sl->role != TG_UNUSED && sl->n > 0)
	memcpy (sl->work, sl->entry, (size_t) sl->n * gc_esize (sl->is_float));
    }
  memset (&ctx->retv, 0, sizeof ctx->retv);
  ctx->k->forward (ctx->args, ctx->ret != TG_VOID ? (void *) &ctx->retv
						  : NULL);
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      if (sl->role != TG_OUT && sl->role != TG_INOUT)
	continue;
      for (long i = 0; i < sl->n; i++)
	ctx->outv[sl->out0 + i] = gc_get (sl->work, sl->is_float, i);
    }
  if (ctx->ret == TG_FLOAT)
    ctx->outv[ctx->nout - 1] = ctx->retv.f;
  else if (ctx->ret == TG_DOUBLE)
    ctx->outv[ctx->nout - 1] = ctx->retv.d;
}

/* Step 3 and 4: the base evaluation and the weights.  */
static void
gc_base (gc_ctx *ctx, unsigned long seed)
{
  unsigned long long st = seed ? seed : 1;
  gc_eval (ctx);
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      size_t es = gc_esize (sl->is_float);
      if (sl->role == TG_UNUSED)
	continue;
      if (sl->n > 0)
	memcpy (sl->base, sl->work, (size_t) sl->n * es);
      if (sl->role == TG_IN && !ctx->no_abi)
	for (long i = 0; i < sl->n; i++)
	  if (memcmp ((char *) sl->work + i * es, (char *) sl->entry + i * es,
		      es))
	    {
	      gc_abi_error (ctx, "the forward wrote input '%s' at [%ld]: is "
			    "its role TG_IN right?", sl->name, i);
	      break;
	    }
      if (sl->role == TG_OUT || sl->role == TG_INOUT)
	for (long i = 0; i < sl->n; i++)
	  {
	    ctx->cw[sl->out0 + i] = gc_weight (&st, sl->is_float);
	    ctx->out_is_float[sl->out0 + i] = sl->is_float;
	  }
    }
  if (ctx->ret != TG_VOID)
    {
      ctx->cw[ctx->nout - 1] = gc_weight (&st, ctx->ret == TG_FLOAT);
      ctx->out_is_float[ctx->nout - 1] = ctx->ret == TG_FLOAT;
    }
}

/* Step 5: set up the shadows (input shadows to PREFILL, output and in-out
   shadows to the weights), restore the base state, run the backward.  */
static void
gc_backward (gc_ctx *ctx, double prefill)
{
  union
  {
    float f;
    double d;
  } d_ret;
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      if (sl->role == TG_UNUSED)
	continue;
      if (sl->n > 0)
	memcpy (sl->work, sl->base, (size_t) sl->n * gc_esize (sl->is_float));
      for (long i = 0; i < sl->n; i++)
	gc_set (sl->shadow_buf, sl->is_float, i,
		sl->role == TG_IN ? prefill : ctx->cw[sl->out0 + i]);
    }
  if (ctx->ret == TG_FLOAT)
    d_ret.f = (float) ctx->cw[ctx->nout - 1];
  else
    d_ret.d = ctx->ret == TG_DOUBLE ? ctx->cw[ctx->nout - 1] : 0.0;
  ctx->k->backward (ctx->args, ctx->shadows,
		    ctx->ret != TG_VOID ? (const void *) &d_ret : NULL);
}

/* Step 5, the ABI: after a backward call, nothing but input and in-out
   shadows changed.  */
static void
gc_check_writes (gc_ctx *ctx)
{
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      size_t es = gc_esize (sl->is_float);
      if (sl->role == TG_UNUSED)
	continue;
      for (long i = 0; i < sl->n; i++)
	if (memcmp ((char *) sl->work + i * es, (char *) sl->base + i * es,
		    es))
	  {
	    gc_abi_error (ctx, "the backward wrote %s '%s' at [%ld]; it may "
			  "write only the shadows",
			  sl->scalar ? "scalar" : "parameter", sl->name, i);
	    break;
	  }
      if (sl->role != TG_OUT)
	continue;
      for (long i = 0; i < sl->n; i++)
	if (gc_get (sl->shadow_buf, sl->is_float, i) != ctx->cw[sl->out0 + i])
	  {
	    gc_abi_error (ctx, "the backward changed the output shadow "
			  "d_%s at [%ld]; it must leave it unchanged",
			  sl->name, i);
	    break;
	  }
    }
}

/* Whether A and B agree to tolerance RTOL, ATOL (as torch.allclose with
   B the reference); non-finite values never agree.  */
static bool
gc_close (double a, double b, double rtol, double atol)
{
  return isfinite (a) && isfinite (b) && fabs (a - b) <= atol + rtol * fabs (b);
}

/* Step 5: the analytic gradient, then the accumulation check.  */
static void
gc_analytic (gc_ctx *ctx)
{
  bool any_input = false;
  gc_backward (ctx, 0.0);
  if (!ctx->no_abi)
    gc_check_writes (ctx);
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      if (sl->role != TG_IN && sl->role != TG_INOUT)
	continue;
      any_input |= sl->role == TG_IN && sl->n > 0;
      for (long i = 0; i < sl->n; i++)
	sl->grad[i] = gc_get (sl->shadow_buf, sl->is_float, i);
    }
  if (ctx->no_abi || !any_input)
    return;
  gc_backward (ctx, 1.0);
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      double slack = 4 * (sl->is_float ? FLT_EPSILON : DBL_EPSILON);
      if (sl->role != TG_IN)
	continue;
      for (long i = 0; i < sl->n; i++)
	{
	  double g = sl->grad[i];
	  double v = gc_get (sl->shadow_buf, sl->is_float, i) - 1.0;
	  if (isfinite (g)
	      && !gc_close (v, g, ctx->rtol, ctx->atol + slack))
	    {
	      gc_abi_error (ctx, "d_%s[%ld] is overwritten, not accumulated: "
			    "pre-filled with 1 it became 1 + %.17g, not "
			    "1 + %.17g", sl->name, i, v, g);
	      break;
	    }
	}
    }
}

/* Step 6: the exact sum of C_k * PLUS_k - C_k * MINUS_k (MINUS is the
   last evaluation, CTX->outv) divided by XP - XM, rounded to double.  */
static double
gc_quotient (gc_ctx *ctx, double xp, double xm)
{
  long nt = 0;
  mpfr_t sum, den;
  double r;
  for (long k = 0; k < ctx->nout; k++)
    {
      double p = ctx->plus[k], m = ctx->outv[k];
      if (p == m && isfinite (p))
	continue; /* the two terms cancel exactly */
      mpfr_set_d (ctx->terms[nt], ctx->cw[k], MPFR_RNDN);
      mpfr_mul_d (ctx->terms[nt], ctx->terms[nt], p, MPFR_RNDN);
      ctx->term_ptrs[nt] = ctx->terms[nt];
      nt++;
      mpfr_set_d (ctx->terms[nt], -ctx->cw[k], MPFR_RNDN);
      mpfr_mul_d (ctx->terms[nt], ctx->terms[nt], m, MPFR_RNDN);
      ctx->term_ptrs[nt] = ctx->terms[nt];
      nt++;
    }
  mpfr_init2 (sum, GC_PREC);
  mpfr_init2 (den, GC_PREC);
  mpfr_sum (sum, ctx->term_ptrs, (unsigned long) nt, MPFR_RNDN);
  mpfr_set_d (den, xp, MPFR_RNDN);
  mpfr_sub_d (den, den, xm, MPFR_RNDN);
  mpfr_div (sum, sum, den, MPFR_RNDN);
  r = mpfr_get_d (sum, MPFR_RNDN);
  mpfr_clear (sum);
  mpfr_clear (den);
  return r;
}

/* Step 6: the numeric derivative of L with respect to element I of slot
   SL; *X gets the element's value.  The element is restored bit for
   bit.  */
static double
gc_numeric (gc_ctx *ctx, gc_slot *sl, long i, double *x)
{
  size_t es = gc_esize (sl->is_float);
  unsigned char saved[sizeof (double)];
  double x0, h, xp, xm;
  char *elem = (char *) sl->entry + i * es;
  memcpy (saved, elem, es);
  x0 = gc_get (sl->entry, sl->is_float, i);
  *x = x0;
  h = ctx->step * (fabs (x0) > 1 ? fabs (x0) : 1);
  gc_set (sl->entry, sl->is_float, i, x0 + h);
  xp = gc_get (sl->entry, sl->is_float, i);
  gc_eval (ctx);
  memcpy (ctx->plus, ctx->outv, (size_t) ctx->nout * sizeof (double));
  gc_set (sl->entry, sl->is_float, i, x0 - h);
  xm = gc_get (sl->entry, sl->is_float, i);
  gc_eval (ctx);
  memcpy (elem, saved, es);
  if (!isfinite (x0))
    return NAN;
  return gc_quotient (ctx, xp, xm);
}

/* Record in R the comparison of analytic value A with numeric value N at
   element I (value X).  */
static void
gc_record (gc_ctx *ctx, tg_shadow_report *r, long i, double x, double a,
	   double n, double *worst_excess)
{
  double excess;
  r->count++;
  if (!isfinite (a) || !isfinite (n))
    {
      r->nonfinite++;
      r->nfail++;
      excess = INFINITY;
    }
  else
    {
      double abs_err = fabs (a - n);
      double rel_err = n != 0 ? abs_err / fabs (n)
		       : abs_err == 0 ? 0 : INFINITY;
      double tol = ctx->atol + ctx->rtol * fabs (n);
      if (r->max_abs_at < 0 || abs_err > r->max_abs)
	r->max_abs = abs_err, r->max_abs_at = i;
      if (r->max_rel_at < 0 || rel_err > r->max_rel)
	r->max_rel = rel_err, r->max_rel_at = i;
      if (abs_err <= tol)
	return;
      r->nfail++;
      excess = tol > 0 ? abs_err / tol : INFINITY;
    }
  if (r->worst_at < 0 || excess > *worst_excess)
    {
      *worst_excess = excess;
      r->worst_at = i;
      r->worst_x = x;
      r->worst_analytic = a;
      r->worst_numeric = n;
    }
}

/* Step 6 and 7 for every checked slot.  */
static void
gc_compare (gc_ctx *ctx)
{
  for (int s = 0; s < ctx->nslots; s++)
    {
      gc_slot *sl = &ctx->slots[s];
      tg_shadow_report *r = &ctx->rep->shadows[s];
      double worst_excess = 0;
      if (sl->role != TG_IN && sl->role != TG_INOUT)
	continue;
      for (long i = 0; i < sl->n; i++)
	{
	  double x, n = gc_numeric (ctx, sl, i, &x);
	  gc_record (ctx, r, i, x, sl->grad[i], n, &worst_excess);
	}
    }
}

/* Set up REP for CTX's slots.  Returns 0 or -2.  */
static int
gc_report_init (gc_ctx *ctx, tg_report *rep)
{
  rep->nshadows = ctx->nslots;
  rep->shadows = calloc (ctx->nslots > 0 ? (size_t) ctx->nslots : 1,
			 sizeof (tg_shadow_report));
  if (!rep->shadows)
    return -2;
  for (int s = 0; s < ctx->nslots; s++)
    {
      tg_shadow_report *r = &rep->shadows[s];
      r->name = ctx->slots[s].name;
      r->param = ctx->slots[s].param;
      r->role = ctx->slots[s].role;
      r->max_abs_at = r->max_rel_at = r->worst_at = -1;
    }
  return 0;
}

/* Check the descriptor's header fields.  Returns 0 or -1.  */
static int
gc_check_kernel (gc_ctx *ctx, const tg_kernel *k, const void *const *args)
{
  if (!k)
    {
      gc_message (ctx, "no kernel descriptor");
      return -1;
    }
  if (k->version != TG_KERNEL_VERSION)
    {
      gc_message (ctx, "descriptor version %d, this libtensorgrad reads "
		  "version %d", k->version, TG_KERNEL_VERSION);
      return -1;
    }
  if (k->nparams < 0 || (k->nparams > 0 && (!k->params || !args))
      || !k->forward || !k->backward)
    {
      gc_message (ctx, "the descriptor of '%s' lacks its parameters, "
		  "arguments, forward or backward",
		  k->name ? k->name : "?");
      return -1;
    }
  if (k->ret != TG_VOID && k->ret != TG_FLOAT && k->ret != TG_DOUBLE)
    {
      gc_message (ctx, "the result kind %d is not TG_VOID, TG_FLOAT or "
		  "TG_DOUBLE", k->ret);
      return -1;
    }
  return 0;
}

/* Choose the tolerances and the step from OPTS and the precision.  */
static void
gc_options (gc_ctx *ctx, const tg_check_opts *opts)
{
  static const tg_check_opts none;
  if (!opts)
    opts = &none;
  ctx->is_float |= ctx->ret == TG_FLOAT;
  ctx->rtol = opts->rtol > 0 ? opts->rtol : ctx->is_float ? 1e-2 : 1e-5;
  ctx->atol = opts->atol > 0 ? opts->atol : ctx->is_float ? 1e-3 : 1e-6;
  ctx->step = opts->step > 0 ? opts->step
	      : cbrt (ctx->is_float ? FLT_EPSILON : DBL_EPSILON);
  ctx->no_abi = (opts->flags & TG_CHECK_NO_ABI) != 0;
}

int
tg_gradcheck (const tg_kernel *k, const void *const *args,
	      const tg_check_opts *opts, tg_report *report)
{
  tg_report local;
  gc_ctx ctx;
  int status;
  tg_report *rep = report ? report : &local;

  memset (rep, 0, sizeof *rep);
  memset (&ctx, 0, sizeof ctx);
  ctx.rep = rep;
  ctx.k = k;
  status = gc_check_kernel (&ctx, k, args);
  if (status == 0)
    {
      rep->kernel = k->name;
      ctx.ret = k->ret;
      status = gc_setup_slots (&ctx, k, args);
    }
  if (status == 0)
    {
      gc_options (&ctx, opts);
      rep->is_float = ctx.is_float;
      rep->rtol = ctx.rtol;
      rep->atol = ctx.atol;
      rep->step = ctx.step;
      status = gc_extents (&ctx, k);
    }
  if (status == 0)
    status = gc_alloc (&ctx);
  if (status == 0)
    status = gc_report_init (&ctx, rep);
  if (status == 0)
    {
      gc_base (&ctx, opts ? opts->seed : 0);
      gc_analytic (&ctx);
      gc_compare (&ctx);
      for (int s = 0; s < rep->nshadows; s++)
	if (rep->shadows[s].nfail)
	  status = 1;
      if (rep->abi_errors)
	status = 1;
    }
  if (status == -2)
    gc_message (&ctx, "out of memory");
  if (status < 0)
    {
      free (rep->shadows);
      rep->shadows = NULL;
      rep->nshadows = 0;
    }
  rep->status = status;
  gc_free (&ctx);
  if (!report)
    tg_report_free (&local);
  return status;
}

void
tg_report_free (tg_report *report)
{
  if (!report)
    return;
  free (report->shadows);
  report->shadows = NULL;
  report->nshadows = 0;
}

/* The name of ROLE, for the report.  */
static const char *
gc_role_name (int role)
{
  switch ((enum tg_role) role)
    {
    case TG_IN:
      return "input";
    case TG_OUT:
      return "output";
    case TG_INOUT:
      return "in-out";
    case TG_UNUSED:
      return "unused";
    }
  return "?";
}

/* Print the line of shadow R to F.  */
static void
gc_print_shadow (FILE *f, const tg_shadow_report *r)
{
  fprintf (f, "  d_%s (%s", r->name, gc_role_name (r->role));
  if (r->role == TG_OUT)
    {
      fprintf (f, "): not checked, it holds the incoming adjoint\n");
      return;
    }
  if (r->role == TG_UNUSED)
    {
      fprintf (f, "): not checked, passed as NULL\n");
      return;
    }
  fprintf (f, ", %ld element%s): %s", r->count, r->count == 1 ? "" : "s",
	   r->nfail ? "FAIL" : "ok");
  if (r->nfail)
    fprintf (f, ", %ld failed", r->nfail);
  if (r->nonfinite)
    fprintf (f, ", %ld not finite", r->nonfinite);
  if (r->max_abs_at >= 0)
    fprintf (f, "; max abs error %.3g at [%ld], max rel error %.3g at [%ld]",
	     r->max_abs, r->max_abs_at, r->max_rel, r->max_rel_at);
  fprintf (f, "\n");
  if (r->worst_at >= 0)
    fprintf (f, "    worst at d_%s[%ld]: %s = %.17g, analytic %.17g, "
	     "numeric %.17g\n", r->name, r->worst_at, r->name, r->worst_x,
	     r->worst_analytic, r->worst_numeric);
}

void
tg_report_print (FILE *f, const tg_report *report)
{
  const tg_report *r = report;
  const char *kernel = r->kernel ? r->kernel : "?";
  if (r->status < 0)
    {
      fprintf (f, "tg_gradcheck %s: not checked: %s\n", kernel, r->message);
      return;
    }
  fprintf (f, "tg_gradcheck %s: %s (%s precision; h = %.3g * max (1, |x|); "
	   "pass if |analytic - numeric| <= %g + %g * |numeric|)\n", kernel,
	   r->status ? "FAIL" : "ok", r->is_float ? "float" : "double",
	   r->step, r->atol, r->rtol);
  for (int s = 0; s < r->nshadows; s++)
    gc_print_shadow (f, &r->shadows[s]);
  if (r->abi_errors)
    fprintf (f, "  ABI: %ld error%s; first: %s\n", r->abi_errors,
	     r->abi_errors == 1 ? "" : "s", r->message);
}

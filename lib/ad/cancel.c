/* cancel.c -- adjoints that are zero by algebra: shift invariance.

   Before:  mx[i] = max (j < m; x[i*m]; x[i*m + j]);
            s[i] = sum (j < m; 0; exp (x[i*m + j] - mx[i]));
            y[i*m + j] = exp (x[i*m + j] - mx[i]) / s[i];
   The outputs do not change when one element mx[k] moves by any c:
   exp (x - mx) is scaled by e^-c, so is s, and their quotient is not.
   So d_mx is zero, and the reverse sweep computes no contribution to it
   and no adjoint of the max (no argmax).  In floating point the terms of
   d_mx do not cancel exactly; the gradient without them is the exact
   one's rounding.

   1. A candidate C is a floating local array of the forward that one
      statement writes (=) and no call passes.  Perturb one element C[k]
      by c.
   2. Walk the stages in order and give every value a kind: invariant
      (INV, also ZERO for the constant 0), shifted (v + a c) or scaled
      (v e^(a c)), at the element C[A] (A the index, canonical), or
      unknown (TOP).  The rules: C[A] is shifted by 1 at A; x - y of two
      values shifted at one A is shifted by their difference; exp of a
      shifted value is scaled, log of a scaled one shifted; products and
      quotients of scaled values add and subtract their exponents; a sum
      reduction of a scaled body (at an A its loops do not move, init
      ZERO) is scaled; max, min, fmax, fmin and compares of two values of
      one kind keep it (compares become INV: e^(a c) > 0); a select needs
      an INV condition, and its arms are looked at where they are picked
      (arm_kind: u <= t ? e[u] / z : 0 reads e over u <= t only);
      anything else of an INV operand is INV.
   3. A statement T[w] = v makes T's elements of v's kind when A is w
      (then a load T[r] has it at r), INV when v is, else TOP; several
      statements writing T must agree; += keeps only INV.  A recurrent
      stage's tensors must come out INV (assumed so for its own reads,
      which is induction over its iterations).  A guard must be INV.
   4. C is cancelled when every floating output, in-out array and the
      return value is INV.

   Limits: exponents are compared as doubles (they are small integers
   and their sums in practice); only exp and log move between the two
   kinds; a kernel with call stages cancels nothing.  */

#include "ad/ad.h"
#include "ir/index.h"

#include <stdlib.h>
#include <string.h>

typedef enum kclass
{
  K_INV,  /* does not change */
  K_ZERO, /* the constant 0: INV, and also scaled by any factor */
  K_ADD,  /* v + a c */
  K_MUL,  /* v e^(a c) */
  K_TOP   /* unknown */
} kclass;

typedef struct kind
{
  kclass k;
  double a;
  te_node *at; /* K_ADD, K_MUL: the index of the perturbed element */
} kind;

static const kind inv = { K_INV, 0, NULL }, top = { K_TOP, 0, NULL };

/* The kind of a tensor's elements.  SELF: a load T[r] has it at r.
   Else AT is in the counters of the NLOOPS LOOPS of the one statement
   that wrote T, at INDEX, a different element at each iteration: a load
   that reads the element the same iteration wrote (te_same_element) has
   it at AT with the counters renamed.  */
typedef struct tkind
{
  kind k;
  bool self;
  int nloops;
  te_loop loops[2 * TE_MAX_LOOPS];
  te_node *index;
} tkind;

/* A memoized kind and the reduction it was found inside.  */
typedef struct memo_kind
{
  kind k;
  const te_node *in;
} memo_kind;

#define MAX_DEPTH 16

typedef struct walk
{
  te_ctx *ctx;
  const te_program *p;
  const te_tensor *cand;
  const te_node *cand_red; /* or a max or min reduction (its value at
                              one iteration of its free counters) */
  tkind *tk;    /* per tensor of P */
  te_memo memo; /* node -> memo_kind * */
  /* The loops around the node being looked at: the statement's, then
     those of the reductions it is inside.  */
  int nloops;
  te_loop loops[2 * TE_MAX_LOOPS];
  const te_node *reds[MAX_DEPTH];
  int nreds;
  bool deep;    /* too many: TOP */
  bool narrowed; /* inside an arm_kind that narrowed the loops */
} walk;

static int
tensor_pos (const te_program *p, const te_tensor *t)
{
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i] == t)
      return i;
  return -1;
}

static kind
mk (kclass k, double a, te_node *at)
{
  if ((k == K_ADD || k == K_MUL) && a == 0)
    return inv;
  kind r = { k, a, at };
  return r;
}

static bool
is_inv (kind x)
{
  return x.k == K_INV || x.k == K_ZERO;
}

static bool
same_at (kind x, kind y)
{
  return x.at == y.at;
}

/* The kind of X + Y (SIGN 1) or X - Y (SIGN -1).  */
static kind
k_add (kind x, kind y, double sign)
{
  if (x.k == K_ZERO)
    return y.k == K_ADD ? mk (K_ADD, sign * y.a, y.at) : y;
  if (y.k == K_ZERO)
    return x;
  if (is_inv (x) && is_inv (y))
    return inv;
  if (x.k == K_ADD && is_inv (y))
    return x;
  if (y.k == K_ADD && is_inv (x))
    return mk (K_ADD, sign * y.a, y.at);
  if (x.k == K_ADD && y.k == K_ADD && same_at (x, y))
    return mk (K_ADD, x.a + sign * y.a, x.at);
  if (x.k == K_MUL && y.k == K_MUL && same_at (x, y) && x.a == y.a)
    return x;
  return top;
}

/* Two values that must be of one kind (the arms of a select, the
   operands of a max, several writes of one tensor).  */
static kind
k_same (kind x, kind y)
{
  if (x.k == K_ZERO && y.k == K_ZERO)
    return x;
  if (x.k == K_ZERO && (y.k == K_MUL || y.k == K_INV))
    return y;
  if (y.k == K_ZERO && (x.k == K_MUL || x.k == K_INV))
    return x;
  if (x.k == K_INV && y.k == K_INV)
    return inv;
  if (x.k == y.k && (x.k == K_ADD || x.k == K_MUL) && same_at (x, y)
      && x.a == y.a)
    return x;
  return top;
}

/* The kind of X * Y (SIGN 1) or X / Y (SIGN -1); YN is Y's node.  */
static kind
k_mul (kind x, kind y, double sign, const te_node *yn)
{
  if (x.k == K_TOP || y.k == K_TOP)
    return top;
  if (x.k == K_ZERO)
    return x;
  if (y.k == K_ZERO)
    return sign > 0 ? y : top;
  if (x.k == K_INV && y.k == K_INV)
    return inv;
  /* A shifted value times or over a constant.  */
  if (x.k == K_ADD && y.k == K_INV && yn->op == TE_CONST && yn->u.f != 0)
    return mk (K_ADD, sign > 0 ? x.a * yn->u.f : x.a / yn->u.f, x.at);
  if (x.k == K_ADD || y.k == K_ADD)
    return top;
  /* Scaled or INV (scaled by e^0).  */
  if (x.k == K_MUL && y.k == K_MUL && !same_at (x, y))
    return top;
  te_node *at = x.k == K_MUL ? x.at : y.at;
  double ax = x.k == K_MUL ? x.a : 0, ay = y.k == K_MUL ? y.a : 0;
  return mk (K_MUL, ax + sign * ay, at);
}

static kind kind_of (walk *w, te_node *n);

static kind
reduce_kind (walk *w, te_node *n)
{
  kind init = kind_of (w, n->args[0]);
  int nl = w->nloops;
  if (w->nreds == MAX_DEPTH || nl + n->u.red.nloops > 2 * TE_MAX_LOOPS)
    return top;
  for (int k = 0; k < n->u.red.nloops; k++)
    w->loops[w->nloops++] = n->u.red.loops[k];
  w->reds[w->nreds++] = n;
  kind body = kind_of (w, n->args[1]);
  w->nreds--;
  w->nloops = nl;
  if (body.k == K_ADD || body.k == K_MUL)
    for (int k = 0; k < n->u.red.nloops; k++)
      if (te_uses_var_free (body.at, n->u.red.loops[k].var))
        return top;
  switch (n->u.red.kind)
    {
    case TE_RED_SUM:
      if (is_inv (init) && is_inv (body))
        return inv;
      if (body.k == K_MUL && init.k == K_ZERO)
        return body;
      return top;
    case TE_RED_PROD:
      return is_inv (init) && is_inv (body) ? inv : top;
    case TE_RED_MAX:
    case TE_RED_MIN:
      if (init.k == K_ZERO && body.k == K_ZERO)
        return init;
      return k_same (init, body);
    }
  return top;
}

/* The kind of ARM, an operand of a select picked where C holds (NEG:
   where it does not), in W's loops narrowed to the bounds C puts on
   their counters (u <= t: u < t + 1, where that is within the loop), so
   that a load of what a loop over the narrower range wrote (the u <= t
   of a causal row, read by p[u] = u <= t ? e[u] / z : 0 over the whole
   row) finds its element.  The memo is set aside while the loops are
   narrowed; one level deep.  */
static kind
arm_kind (walk *w, te_node *c, bool neg, te_node *arm)
{
  te_ctx *ctx = w->ctx;
  if (w->narrowed)
    return kind_of (w, arm);
  te_loop saved[2 * TE_MAX_LOOPS];
  memcpy (saved, w->loops, w->nloops * sizeof *saved);
  bool any = te_narrow_loops (ctx, c, neg, w->nloops, w->loops) > 0;
  if (!any)
    return kind_of (w, arm);
  te_memo_free (&w->memo);
  w->narrowed = true;
  kind r = kind_of (w, arm);
  te_memo_free (&w->memo);
  w->narrowed = false;
  memcpy (w->loops, saved, w->nloops * sizeof *saved);
  return r;
}

/* Compares of values of one kind are INV (e^(a c) > 0 keeps order).  */
static kind
compare_kind (kind x, kind y)
{
  kind s = k_same (x, y);
  return s.k == K_TOP ? top : inv;
}

static kind
op_kind (walk *w, te_node *n)
{
  kind x = n->args[0] ? kind_of (w, n->args[0]) : inv;
  kind y = n->args[1] ? kind_of (w, n->args[1]) : inv;
  switch (n->op)
    {
    case TE_CONST:
      return te_type_is_float (n->type) && n->u.f == 0
                 ? (kind){ K_ZERO, 0, NULL }
                 : inv;
    case TE_PARAM:
    case TE_VAR:
      return inv;
    case TE_LOAD:
      {
        if (!is_inv (x))
          return top;
        if (n->u.tensor == w->cand)
          return mk (K_ADD, 1, te_canon_int (w->ctx, n->args[0]));
        int i = tensor_pos (w->p, n->u.tensor);
        if (i < 0)
          return top;
        const tkind *tk = &w->tk[i];
        kind t = tk->k;
        if (t.k == K_ZERO)
          t = inv; /* elements no statement wrote may be nonzero */
        if (t.k != K_ADD && t.k != K_MUL)
          return t;
        if (tk->self)
          t.at = te_canon_int (w->ctx, n->args[0]);
        else
          {
            t.at = te_same_element (w->ctx, tk->nloops, tk->loops, tk->index,
                                    t.at, w->nloops, w->loops, n->args[0]);
            if (!t.at)
              return top;
            if (t.at->op != TE_REDUCE)
              t.at = te_canon_int (w->ctx, t.at);
          }
        return t;
      }
    case TE_NEG:
      return x.k == K_ADD ? mk (K_ADD, -x.a, x.at) : x;
    case TE_ADD:
      return k_add (x, y, 1);
    case TE_SUB:
      return k_add (x, y, -1);
    case TE_MUL:
      if (y.k == K_ADD && x.k == K_INV)
        return k_mul (y, x, 1, n->args[0]);
      return k_mul (x, y, 1, n->args[1]);
    case TE_DIV:
      return k_mul (x, y, -1, n->args[1]);
    case TE_MIN:
    case TE_MAX:
    case TE_FMIN:
    case TE_FMAX:
      return k_same (x, y);
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
      return compare_kind (x, y);
    case TE_SELECT:
      if (!is_inv (x))
        return top;
      return k_same (arm_kind (w, n->args[0], false, n->args[1]),
                     arm_kind (w, n->args[0], true, n->args[2]));
    case TE_CAST:
      if (te_type_is_float (n->type) && te_type_is_float (n->args[0]->type))
        return x;
      return is_inv (x) ? inv : top;
    case TE_EXP:
      return x.k == K_ADD ? mk (K_MUL, x.a, x.at) : is_inv (x) ? inv : top;
    case TE_LOG:
      return x.k == K_MUL ? mk (K_ADD, x.a, x.at) : is_inv (x) ? inv : top;
    case TE_SQRT:
      return x.k == K_MUL ? mk (K_MUL, x.a / 2, x.at) : x.k == K_ZERO ? x
             : is_inv (x) ? inv : top;
    case TE_FABS:
      return x.k == K_MUL || x.k == K_ZERO ? x : is_inv (x) ? inv : top;
    case TE_REDUCE:
      if (n == w->cand_red)
        return mk (K_ADD, 1, n);
      return reduce_kind (w, n);
    case TE_NUM_OPS:
      return top;
    case TE_MOD:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    case TE_EXP2:
    case TE_EXPM1:
    case TE_LOG2:
    case TE_LOG10:
    case TE_LOG1P:
    case TE_CBRT:
    case TE_SIN:
    case TE_COS:
    case TE_TAN:
    case TE_ASIN:
    case TE_ACOS:
    case TE_ATAN:
    case TE_SINH:
    case TE_COSH:
    case TE_TANH:
    case TE_ERF:
    case TE_ERFC:
    case TE_FLOOR:
    case TE_CEIL:
    case TE_TRUNC:
    case TE_ROUND:
    case TE_POW:
    case TE_ATAN2:
    case TE_HYPOT:
      {
        bool ok = is_inv (x) && is_inv (y);
        if (te_op_arity (n->op) == 3)
          ok &= is_inv (kind_of (w, n->args[2]));
        return ok ? inv : top;
      }
    }
  return top;
}

/* The kind of N under the tensors' kinds so far (memoized).  */
static kind
kind_of (walk *w, te_node *n)
{
  const te_node *in = w->nreds ? w->reds[w->nreds - 1] : NULL;
  memo_kind *m = te_memo_get (&w->memo, n);
  if (m && m->in == in)
    return m->k;
  kind r = op_kind (w, n);
  if (!m)
    {
      m = te_alloc (w->ctx, sizeof *m);
      te_memo_put (&w->memo, n, m);
    }
  m->k = r;
  m->in = in;
  return r;
}

/* Step 3 for statement ST of stage FS: the kind its writes give its
   destination.  */
static tkind
write_kind (walk *w, const te_stage *fs, const te_stmt *st)
{
  tkind r;
  memset (&r, 0, sizeof r);
  r.k = top;
  r.self = true;
  w->nloops = 0;
  w->nreds = 0;
  for (int k = 0; k < fs->nloops; k++)
    w->loops[w->nloops++] = fs->loops[k];
  for (int k = 0; k < st->ninner && w->nloops < 2 * TE_MAX_LOOPS; k++)
    w->loops[w->nloops++] = st->inner[k];
  if (fs->nloops + st->ninner > 2 * TE_MAX_LOOPS)
    return r;
  kind v = kind_of (w, st->value);
  if (st->guard && !is_inv (kind_of (w, st->guard)))
    return r;
  if (st->op == TE_ADD_TO)
    {
      if (is_inv (v))
        r.k = inv;
      return r;
    }
  r.k = v;
  if ((v.k != K_ADD && v.k != K_MUL)
      || v.at == te_canon_int (w->ctx, st->index))
    return r;
  /* AT as a function of the element: iterations that differ in the
     counters AT uses write different elements (rows apart, the other
     loops inside each row).  */
  te_loop used[2 * TE_MAX_LOOPS], rest[2 * TE_MAX_LOOPS];
  int nu = 0, nrest = 0;
  for (int k = w->nloops - 1; k >= 0; k--) /* innermost first */
    if (te_uses_var_free (v.at, w->loops[k].var))
      used[nu++] = w->loops[k];
    else
      rest[nrest++] = w->loops[k];
  te_node *lo, *span, *index = te_canon_int (w->ctx, st->index);
  const te_loop *in = rest;
  if (!te_rows_apart (w->ctx, nu, used, 1, &index, &nrest, &in, fs, &lo,
                      &span))
    {
      r.k = top;
      return r;
    }
  r.self = false;
  r.nloops = w->nloops;
  memcpy (r.loops, w->loops, w->nloops * sizeof *r.loops);
  r.index = st->index;
  return r;
}

/* Two writes of one tensor.  */
static tkind
tk_same (tkind x, tkind y)
{
  tkind r = x;
  r.k = k_same (x.k, y.k);
  if ((r.k.k == K_ADD || r.k.k == K_MUL) && !(x.self && y.self))
    r.k = top;
  return r;
}

/* Is every active result of W->p unchanged by a shift of one element of
   W->cand?  */
static bool
invariant (walk *w)
{
  const te_program *p = w->p;
  for (int i = 0; i < p->ntensors; i++)
    {
      memset (&w->tk[i], 0, sizeof w->tk[i]);
      w->tk[i].k = inv;
      w->tk[i].self = true;
    }
  bool *written = calloc (p->ntensors, sizeof *written);
  bool ok = written != NULL;
  for (int s = 0; ok && s < p->nstages; s++)
    {
      const te_stage *fs = &p->stages[s];
      if (fs->call)
        ok = false;
      for (int k = 0; ok && k < fs->nstmts; k++)
        {
          const te_stmt *st = &fs->stmts[k];
          if (st->dst == w->cand)
            continue;
          int i = tensor_pos (p, st->dst);
          if (i < 0)
            {
              ok = false;
              break;
            }
          te_memo_free (&w->memo);
          tkind v = write_kind (w, fs, st);
          w->tk[i] = written[i] ? tk_same (w->tk[i], v) : v;
          written[i] = true;
        }
      /* A recurrent stage read its own tensors as INV: sound only if
         they all are (induction over its iterations).  */
      bool all_inv = true;
      for (int k = 0; fs->recurrent && k < fs->nstmts; k++)
        {
          int i = tensor_pos (p, fs->stmts[k].dst);
          all_inv &= i >= 0 && is_inv (w->tk[i].k);
        }
      for (int k = 0; !all_inv && k < fs->nstmts; k++)
        {
          int i = tensor_pos (p, fs->stmts[k].dst);
          if (i >= 0)
            w->tk[i].k = top;
        }
    }
  te_memo_free (&w->memo);
  for (int i = 0; ok && i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      bool active = te_type_is_float (t->type)
                    && (t->role == TE_ROLE_OUTPUT || t->role == TE_ROLE_INOUT
                        || t->kind == TE_TK_RETURN);
      if (active && !is_inv (w->tk[i].k))
        ok = false;
    }
  free (written);
  return ok;
}

/* Is C a candidate (step 1)?  */
static bool
candidate (const te_program *p, const te_tensor *c)
{
  if (c->kind != TE_TK_LOCAL || !te_type_is_float (c->type))
    return false;
  int writes = 0;
  for (int s = 0; s < p->nstages; s++)
    {
      const te_stage *fs = &p->stages[s];
      if (fs->call)
        return false;
      for (int k = 0; k < fs->nstmts; k++)
        if (fs->stmts[k].dst == c)
          {
            if (fs->stmts[k].op != TE_SET || fs->recurrent)
              return false;
            writes++;
          }
    }
  return writes == 1;
}

typedef struct red_set
{
  const te_node **r;
  int n, max;
} red_set;

static void
collect_max (te_node *n, void *data)
{
  red_set *rs = data;
  if (n->op != TE_REDUCE || !te_type_is_float (n->type)
      || (n->u.red.kind != TE_RED_MAX && n->u.red.kind != TE_RED_MIN))
    return;
  for (int i = 0; i < rs->n; i++)
    if (rs->r[i] == n)
      return;
  if (rs->n < rs->max)
    rs->r[rs->n++] = n;
}

int
ad_cancelled_reductions (const te_program *fwd, const te_node **out, int max)
{
  red_set rs = { out, 0, max };
  for (int s = 0; s < fwd->nstages; s++)
    for (int k = 0; k < fwd->stages[s].nstmts; k++)
      {
        const te_stmt *st = &fwd->stages[s].stmts[k];
        if (!fwd->stages[s].recurrent)
          te_walk (st->value, collect_max, &rs);
      }
  walk w;
  memset (&w, 0, sizeof w);
  w.ctx = fwd->ctx;
  w.p = fwd;
  w.tk = calloc (fwd->ntensors + 1, sizeof *w.tk);
  int n = 0;
  for (int i = 0; w.tk && i < rs.n; i++)
    {
      w.cand_red = rs.r[i];
      if (invariant (&w))
        out[n++] = rs.r[i];
    }
  free (w.tk);
  return n;
}

int
ad_cancelled (const te_program *fwd, const te_tensor **out, int max)
{
  walk w;
  memset (&w, 0, sizeof w);
  w.ctx = fwd->ctx;
  w.p = fwd;
  w.tk = calloc (fwd->ntensors + 1, sizeof *w.tk);
  int n = 0;
  for (int i = 0; w.tk && i < fwd->ntensors && n < max; i++)
    {
      w.cand = fwd->tensors[i];
      if (candidate (fwd, w.cand) && invariant (&w))
        out[n++] = w.cand;
    }
  free (w.tk);
  return n;
}

/* index.c -- queries on indices and extents (index.h): the range an
   index covers over a loop nest, whether it grows with every counter,
   whether a read is of the element a write stored, the exact value of an
   index written with 32-bit wrapping arithmetic, the largest value of an
   index clamped at the edges.  */

#include "ir/index.h"

#include <stdint.h>
#include <string.h>

static void
narrow_fn (te_node *n, void *data)
{
  te_node **found = data;
  if (*found || (n->type != TE_I32 && n->type != TE_U32))
    return;
  if (n->op == TE_CONST
      || (n->op == TE_CAST && !te_type_is_float (n->args[0]->type)
          && n->args[0]->type != TE_BOOL))
    *found = n;
}

static void
atom_fn (te_node *n, void *data)
{
  te_node **found = data;
  if (!*found && (n->op == TE_VAR || n->op == TE_PARAM || n->op == TE_LOAD))
    *found = n;
}

/* The constant term of integer polynomial N, or NULL.  */
static te_node *
constant_term (te_ctx *ctx, te_node *n)
{
  n = te_canon_int (ctx, n);
  for (int guard = 0; guard < 64 && n->op != TE_CONST; guard++)
    {
      te_node *a = NULL;
      te_walk (n, atom_fn, &a);
      if (!a)
        return NULL;
      n = te_canon_int (ctx, te_replace (ctx, n, a,
                                         te_cast (ctx, a->type,
                                                  te_int (ctx, 0))));
    }
  return n->op == TE_CONST ? n : NULL;
}

te_node *
te_exact_index (te_ctx *ctx, te_node *n)
{
  for (int guard = 0; guard < 256; guard++)
    {
      te_node *c = NULL;
      te_walk (n, narrow_fn, &c);
      if (!c)
        break;
      /* A 32-bit constant is its signed value, and so is the constant
         term of what is converted: i + 4294967295 in unsigned arithmetic
         is i - 1.  */
      te_node *x = c->op == TE_CONST ? te_int (ctx, (int32_t) c->u.i)
                                     : te_cast (ctx, TE_I64, c->args[0]);
      te_node *k = constant_term (ctx, x);
      if (k && (int64_t) (int32_t) k->u.i != k->u.i)
        x = te_canon_int (ctx, te_add (ctx, te_sub (ctx, x, k),
                                       te_int (ctx, (int32_t) k->u.i)));
      n = te_replace (ctx, n, c, x);
    }
  return n;
}

static bool
poly_negative_1 (const te_node *n, te_memo *m)
{
  switch (n->op)
    {
    case TE_SUB:
    case TE_NEG:
      return true;
    case TE_CONST:
      return n->u.i < 0;
    case TE_ADD:
    case TE_MUL:
      {
        void *known = te_memo_get (m, n);
        if (known)
          return known == TE_MEMO_TRUE;
        te_walk_count (n->ctx, TE_WALK_QUERY, 1);
        bool r = poly_negative_1 (n->args[0], m)
                 || poly_negative_1 (n->args[1], m);
        te_memo_put (m, n, r ? TE_MEMO_TRUE : TE_MEMO_FALSE);
        return r;
      }
    default:
      return false;
    }
}

bool
te_poly_negative (const te_node *n)
{
  te_memo m = { 0 };
  bool r = poly_negative_1 (n, &m);
  te_memo_free (&m);
  return r;
}

int
te_index_step (te_ctx *ctx, te_node *index, int var)
{
  if (!te_uses_var (index, var))
    return 0;
  te_node *v = te_var (ctx, var);
  te_node *at[3];
  for (int k = 0; k < 3; k++)
    at[k] = te_replace (ctx, index, v, te_int (ctx, k));
  te_node *d1 = te_canon_int (ctx, te_sub (ctx, at[1], at[0]));
  te_node *d2 = te_canon_int (ctx, te_sub (ctx, at[2], at[1]));
  return te_is_const (d1, 1) && te_is_const (d2, 1) ? 1 : -1;
}

te_node *
te_coefficient (te_ctx *ctx, te_node *n, int v)
{
  te_node *x = te_var (ctx, v);
  return te_canon_int (ctx, te_sub (ctx, te_replace (ctx, n, x, te_int (ctx, 1)),
                                    te_replace (ctx, n, x, te_int (ctx, 0))));
}

bool
te_non_negative (te_ctx *ctx, te_node *n)
{
  te_node *c = te_canon_int (ctx, n);
  if (!te_poly_negative (c))
    return true;
  /* Or N >= G >= 0 for a G the gradient requires.  */
  te_node *const *gaps;
  int ngaps = te_ctx_assumed (ctx, &gaps);
  for (int i = 0; i < ngaps; i++)
    if (!te_poly_negative (te_canon_int (ctx, te_sub (ctx, c, gaps[i]))))
      return true;
  return false;
}

int
te_read_loops (int nvars, const te_stage *s, int skip, const te_node *value,
               const te_node *r, te_loop *loops)
{
  int n = 0;
  for (int k = skip; k < s->nloops; k++)
    loops[n++] = s->loops[k];
  for (int v = 0; v < nvars && n < 2 * TE_MAX_LOOPS; v++)
    {
      bool bound = false;
      for (int k = 0; k < s->nloops; k++)
        bound |= s->loops[k].var == v;
      for (int k = 0; k < n; k++)
        bound |= loops[k].var == v;
      if (bound || !te_uses_var (r, v))
        continue;
      const te_loop *bl = te_binding_loop (value, v);
      if (!bl)
        return -1;
      loops[n++] = *bl;
    }
  return n;
}

int
te_access_loops (int nvars, const te_stage *s, int skip, const te_stmt *st,
                 const te_node *index, bool write, te_loop *loops)
{
  int n = 0;
  if (write)
    {
      for (int k = skip; k < s->nloops; k++)
        loops[n++] = s->loops[k];
      for (int k = 0; k < st->ninner && n < 2 * TE_MAX_LOOPS; k++)
        loops[n++] = st->inner[k];
      return n;
    }
  /* The stage's loops and the statement's own, then the reductions that
     bind the read's other counters.  */
  te_stage all = *s;
  for (int k = 0; k < st->ninner && all.nloops < TE_MAX_LOOPS; k++)
    all.loops[all.nloops++] = st->inner[k];
  if (all.nloops - s->nloops != st->ninner)
    return -1;
  return te_read_loops (nvars, &all, skip, st->value, index, loops);
}

te_node *
te_index_bound (te_ctx *ctx, te_node *index, int nloops, const te_loop *loops)
{
  te_node *lo, *hi;
  if (!te_index_range (ctx, index, nloops, loops, &lo, &hi))
    return NULL;
  return te_canon_int (ctx, te_add (ctx, hi, te_int (ctx, 1)));
}

int
te_index_direction (te_ctx *ctx, te_node *e, int var)
{
  te_node *v = te_var (ctx, var);
  te_node *d = te_canon_int (ctx, te_sub (ctx, e, te_replace (ctx, e, v,
                                                              te_int (ctx, 0))));
  if (!te_poly_negative (d))
    return 1;
  if (!te_poly_negative (te_canon_int (ctx, te_neg (ctx, d))))
    return -1;
  return 0;
}

/* The integer parameters N mentions, at most MAX into PS; their number.  */
typedef struct params_query
{
  te_node **ps;
  int n, max;
} params_query;

static void
params_fn (te_node *n, void *data)
{
  params_query *q = data;
  if (n->op != TE_PARAM || n->type == TE_BOOL)
    return;
  for (int i = 0; i < q->n; i++)
    if (q->ps[i] == n)
      return;
  if (q->n < q->max)
    q->ps[q->n++] = n;
}

static bool index_range (te_ctx *ctx, te_node *index, int nloops,
                         const te_loop *loops, te_node **lo, te_node **hi);

/* te_index_range when a coefficient is a loop's extent written out (a
   valid convolution's output row of L - K + 1, y[(b*C + c)*(L - K + 1) +
   l]): a parameter Q the extent E of loop K has with coefficient 1,
   E = Q + R + 1, is P - R with P = E - 1, at least 0 where the loop
   runs (where it does not, nothing is accessed).  In P the coefficients
   show their sign; the bounds found are given back in E - 1.  Loops from
   FROM on, each as well as those after it.  */
static bool
range_by_extent (te_ctx *ctx, te_node *index, int nloops,
                 const te_loop *loops, int from, te_node **lo, te_node **hi)
{
  if (nloops > 2 * TE_MAX_LOOPS)
    return false;
  for (int k = from; k < nloops; k++)
    {
      te_node *e = te_canon_int (ctx, loops[k].extent);
      te_node *ps[8];
      params_query q = { ps, 0, 8 };
      te_walk (e, params_fn, &q);
      for (int i = 0; i < q.n; i++)
        {
          te_node *zero = te_canon_int (ctx, te_replace (ctx, e, ps[i],
                                                         te_int (ctx, 0)));
          if (te_canon_int (ctx, te_sub (ctx, e, zero))
              != te_canon_int (ctx, ps[i]) || te_is_const (zero, 0))
            continue;
          /* E - 1 = Q + R.  */
          te_node *r = te_canon_int (ctx, te_sub (ctx, zero, te_int (ctx, 1)));
          te_node *pv = te_param_ref (ctx, TE_I64, -5000 - k);
          te_node *as = te_sub (ctx, pv, r);
          te_loop sub[2 * TE_MAX_LOOPS];
          for (int j = 0; j < nloops; j++)
            {
              sub[j] = loops[j];
              sub[j].extent = te_canon_int (
                  ctx, te_replace (ctx, loops[j].extent, ps[i], as));
            }
          te_node *ix = te_canon_int (ctx, te_replace (ctx, index, ps[i], as));
          te_node *l, *h;
          /* Other loops' extents may be coefficients too (an output of
             (H - 2) * (W - 2) per map).  */
          if (!index_range (ctx, ix, nloops, sub, &l, &h)
              && !range_by_extent (ctx, ix, nloops, sub, k + 1, &l, &h))
            continue;
          te_node *back = te_canon_int (ctx, te_sub (ctx, e, te_int (ctx, 1)));
          *lo = te_canon_int (ctx, te_replace (ctx, l, pv, back));
          *hi = te_canon_int (ctx, te_replace (ctx, h, pv, back));
          return true;
        }
    }
  return false;
}

bool
te_index_range (te_ctx *ctx, te_node *index, int nloops, const te_loop *loops,
                te_node **lo, te_node **hi)
{
  return index_range (ctx, index, nloops, loops, lo, hi)
         || range_by_extent (ctx, index, nloops, loops, 0, lo, hi);
}

static bool
index_range (te_ctx *ctx, te_node *index, int nloops, const te_loop *loops,
             te_node **lo, te_node **hi)
{
  if (te_index_monotone (ctx, index, nloops, loops))
    {
      *lo = te_index_extreme (ctx, index, nloops, loops, false);
      *hi = te_index_extreme (ctx, index, nloops, loops, true);
      return true;
    }
  /* Innermost first, each counter at the end that makes the index (with
     the inner counters already at theirs) smallest or largest.  */
  te_node *mn = index, *mx = index;
  for (int k = nloops - 1; k >= 0; k--)
    {
      te_node *v = te_var (ctx, loops[k].var);
      te_node *last = te_sub (ctx, loops[k].extent, te_int (ctx, 1));
      int dn = te_index_direction (ctx, mn, loops[k].var);
      int dx = te_index_direction (ctx, mx, loops[k].var);
      if (!dn || !dx)
        return false;
      mn = te_canon_int (ctx, te_replace (ctx, mn, v,
                                          dn > 0 ? te_int (ctx, 0) : last));
      mx = te_canon_int (ctx, te_replace (ctx, mx, v,
                                          dx > 0 ? last : te_int (ctx, 0)));
    }
  *lo = mn;
  *hi = mx;
  return true;
}

bool
te_dense (te_ctx *ctx, te_node *index, int nloops, const te_loop *loops,
          te_node **lo, te_node **hi)
{
  te_node *lin, *size, *l, *h;
  if (!te_linearize (ctx, nloops, loops, &lin, &size)
      || !te_index_range (ctx, index, nloops, loops, &l, &h)
      || te_canon_int (ctx, te_sub (ctx, index, l)) != lin)
    return false;
  if (lo)
    *lo = l;
  if (hi)
    *hi = h;
  return true;
}

bool
te_writes_in_order (te_ctx *ctx, const te_stage *s, te_node *index)
{
  return te_dense (ctx, index, s->nloops, s->loops, NULL, NULL);
}

te_node *
te_index_extreme (te_ctx *ctx, te_node *index, int nloops,
                  const te_loop *loops, bool max)
{
  for (int k = nloops - 1; k >= 0; k--)
    index = te_replace (ctx, index, te_var (ctx, loops[k].var),
                        max ? te_sub (ctx, loops[k].extent, te_int (ctx, 1))
                            : te_int (ctx, 0));
  return te_canon_int (ctx, index);
}

bool
te_index_monotone (te_ctx *ctx, const te_node *index, int nloops,
                   const te_loop *loops)
{
  for (int k = 0; k < nloops; k++)
    {
      te_node *at0 = te_replace (ctx, (te_node *) index,
                                 te_var (ctx, loops[k].var), te_int (ctx, 0));
      if (te_poly_negative (te_canon_int (ctx, te_sub (ctx, (te_node *) index,
                                                       at0))))
        return false;
    }
  return true;
}

te_node *
te_rename_counters (te_ctx *ctx, te_node *n, int nloops, const te_loop *from,
                 const te_loop *to)
{
  for (int k = 0; k < nloops; k++)
    n = te_replace (ctx, n, te_var (ctx, from[k].var),
                    te_param_ref (ctx, TE_I64, -1000 - k));
  for (int k = 0; k < nloops; k++)
    n = te_replace (ctx, n, te_param_ref (ctx, TE_I64, -1000 - k),
                    te_var (ctx, to[k].var));
  return n;
}

te_node *
te_same_element (te_ctx *ctx, int nw, const te_loop *w, te_node *index,
                 te_node *value, int nr, const te_loop *r,
                 te_node *read_index)
{
  if (nw != nr)
    return NULL;
  for (int k = 0; k < nw; k++)
    if (te_rename_counters (ctx, w[k].extent, nw, w, r) != r[k].extent)
      return NULL;
  if (te_canon_int (ctx, te_rename_counters (ctx, index, nw, w, r))
      != te_canon_int (ctx, read_index))
    return NULL;
  return te_rename_counters (ctx, value, nw, w, r);
}

static void
any_var_fn (te_node *n, void *data)
{
  if (n->op == TE_VAR)
    *(bool *) data = true;
}

bool
te_linearize (te_ctx *ctx, int nloops, const te_loop *loops, te_node **lin,
              te_node **size)
{
  *lin = te_int (ctx, 0);
  *size = te_int (ctx, 1);
  for (int k = 0; k < nloops; k++)
    {
      bool uses = false;
      te_walk (loops[k].extent, any_var_fn, &uses);
      if (uses)
        return false;
      *lin = te_add (ctx, te_mul (ctx, *lin, loops[k].extent),
                     te_var (ctx, loops[k].var));
      *size = te_mul (ctx, *size, te_binary (ctx, TE_MAX, loops[k].extent,
                                             te_int (ctx, 0)));
    }
  *lin = te_canon_int (ctx, *lin);
  *size = te_canon_int (ctx, *size);
  return true;
}

bool
te_linearize_box (te_ctx *ctx, int nloops, const te_loop *loops,
                  te_node **lin, te_node **size)
{
  te_loop box[2 * TE_MAX_LOOPS];
  if (nloops > 2 * TE_MAX_LOOPS)
    return false;
  for (int k = 0; k < nloops; k++)
    {
      box[k] = loops[k];
      bool uses = false;
      te_walk (loops[k].extent, any_var_fn, &uses);
      if (!uses)
        continue;
      /* Its largest value over the loops outside it, which must use no
         other counter.  */
      te_node *lo;
      if (!te_index_range (ctx, loops[k].extent, k, loops, &lo,
                           &box[k].extent))
        return false;
      uses = false;
      te_walk (box[k].extent, any_var_fn, &uses);
      if (uses)
        return false;
    }
  return te_linearize (ctx, nloops, box, lin, size);
}

bool
te_rows_apart (te_ctx *ctx, int nloops, const te_loop *loops, int na,
               te_node *const *index, const int *nin, const te_loop *const *in,
               const te_stage *where, te_node **lo_out, te_node **span_out)
{
  if (na == 0 || nloops > TE_MAX_LOOPS)
    return false;
  te_node *zero = te_int (ctx, 0), *one = te_int (ctx, 1);
  te_node *step[TE_MAX_LOOPS];
  te_node *lo = NULL, *hi = NULL;
  for (int a = 0; a < na; a++)
    {
      te_node *base = index[a];
      for (int k = 0; k < nloops; k++)
        base = te_replace (ctx, base, te_var (ctx, loops[k].var), zero);
      base = te_canon_int (ctx, base);
      for (int k = 0; k < nloops; k++)
        {
          te_node *at = index[a];
          for (int j = 0; j < nloops; j++)
            at = te_replace (ctx, at, te_var (ctx, loops[j].var),
                             j == k ? one : zero);
          te_node *c = te_canon_int (ctx, te_sub (ctx, at, base));
          if (a == 0)
            step[k] = c;
          else if (c != step[k])
            return false;
        }
      /* What is left must not move with the loops: the index is the
         steps times the counters plus BASE.  */
      te_node *sum = base;
      for (int k = 0; k < nloops; k++)
        sum = te_add (ctx, sum, te_mul (ctx, step[k],
                                        te_var (ctx, loops[k].var)));
      if (te_canon_int (ctx, sum) != index[a])
        return false;
      te_node *alo, *ahi;
      if (!te_index_range (ctx, base, nin[a], in[a], &alo, &ahi))
        return false;
      /* Over the loops' counters too, where BASE's range depends on them
         (u < t + 1).  */
      te_node *l2, *h2;
      if (te_index_range (ctx, alo, nloops, loops, &l2, &h2))
        alo = l2;
      if (te_index_range (ctx, ahi, nloops, loops, &l2, &h2))
        ahi = h2;
      alo = te_canon_int (ctx, alo);
      ahi = te_canon_int (ctx, ahi);
      lo = !lo || te_non_negative (ctx, te_sub (ctx, lo, alo)) ? alo
           : te_non_negative (ctx, te_sub (ctx, alo, lo)) ? lo
           : te_binary (ctx, TE_MIN, lo, alo);
      hi = !hi || te_non_negative (ctx, te_sub (ctx, ahi, hi)) ? ahi
           : te_non_negative (ctx, te_sub (ctx, hi, ahi)) ? hi
           : te_binary (ctx, TE_MAX, hi, ahi);
    }
  lo = te_canon_int (ctx, lo);
  hi = te_canon_int (ctx, hi);
  /* Place the loops by their steps, smallest first: each must step over
     all that the ones placed before it span.  */
  te_node *span = te_canon_int (ctx, te_add (ctx, te_sub (ctx, hi, lo), one));
  bool placed[TE_MAX_LOOPS] = { false };
  te_node *row = span;
  for (int n = 0; n < nloops; n++)
    {
      /* The smallest step that clears them (a single element's span
         is cleared by every step).  */
      int pick = -1;
      for (int k = 0; k < nloops; k++)
        if (!placed[k]
            && te_non_negative_where_run (
                ctx, te_canon_int (ctx, te_sub (ctx, step[k], row)), where,
                where)
            && (pick < 0
                || !te_non_negative_where_run (
                    ctx, te_canon_int (ctx, te_sub (ctx, step[k],
                                                    step[pick])),
                    where, where)))
          pick = k;
      if (pick < 0)
        return false;
      placed[pick] = true;
      /* Now the span of this loop and those inside it.  */
      row = te_canon_int (ctx, te_add (ctx, row,
                                       te_mul (ctx, step[pick],
                                               te_sub (ctx, loops[pick].extent,
                                                       one))));
      /* A span that depends on an outer counter (the row of u < t + 1)
         at its largest, which the outer steps must clear.  */
      te_node *rlo, *rhi;
      bool moves = false;
      for (int k = 0; k < nloops; k++)
        moves |= te_uses_var (row, loops[k].var);
      if (moves && te_index_range (ctx, row, nloops, loops, &rlo, &rhi))
        row = te_canon_int (ctx, rhi);
    }
  if (lo_out)
    *lo_out = lo;
  if (span_out)
    *span_out = span;
  return true;
}

typedef struct max_atoms
{
  te_node *items[8];
  int n;
} max_atoms;

static void
find_max_atom (te_node *n, void *data)
{
  max_atoms *m = data;
  if (n->op != TE_MAX || m->n == 8)
    return;
  for (int k = 0; k < 2; k++)
    if (n->args[k]->op == TE_CONST && n->args[k]->u.i == 0)
      {
        for (int i = 0; i < m->n; i++)
          if (m->items[i] == n)
            return;
        m->items[m->n++] = n;
      }
}

/* Is N >= 0 because it is when an atom max (E, 0) of it is E, and N is
   linear in the atom with a coefficient >= 0 (max (E, 0) >= E): a
   tape's max (T, 0) rows against a sum over t < T?  */
static bool
non_negative_below_max (te_ctx *ctx, te_node *n)
{
  max_atoms m = { { NULL }, 0 };
  te_walk (n, find_max_atom, &m);
  for (int i = 0; i < m.n; i++)
    {
      te_node *a = m.items[i];
      te_node *e = a->args[0]->op == TE_CONST ? a->args[1] : a->args[0];
      te_node *at[3];
      for (int k = 0; k < 3; k++)
        at[k] = te_canon_int (ctx, te_replace (ctx, n, a,
                                               te_add (ctx, e,
                                                       te_int (ctx, k))));
      te_node *slope = te_canon_int (ctx, te_sub (ctx, at[1], at[0]));
      te_node *bend = te_canon_int (
          ctx, te_add (ctx, te_sub (ctx, at[2], te_mul (ctx, te_int (ctx, 2),
                                                         at[1])),
                       at[0]));
      if (bend->op == TE_CONST && bend->u.i == 0
          && te_non_negative (ctx, slope) && te_non_negative (ctx, at[0]))
        return true;
    }
  return false;
}

/* The quotients X / K (K a constant above 1) in an expression, at most 8
   (te_walk's DATA).  */
static void
find_quotient (te_node *n, void *data)
{
  max_atoms *m = data;
  if (n->op != TE_DIV || m->n == 8 || n->args[1]->op != TE_CONST
      || n->args[1]->u.i < 2)
    return;
  for (int i = 0; i < m->n; i++)
    if (m->items[i] == n)
      return;
  m->items[m->n++] = n;
}

/* Is N >= 0 because it is linear in a quotient Q = X / K that is the
   extent of a loop of stage A or B (so X >= K where they run, and C's
   truncating division is the floor), with coefficient C: K Q <= X, and
   K Q >= X - K + 1, so K N >= K N[Q := 0] + C X (C < 0), or + C (X -
   K + 1) (C > 0)?  A row of pairs t * d + 2 i, i < d / 2, ends at
   2 (d / 2) - 1 <= d - 1.  */
static bool
non_negative_by_quotient (te_ctx *ctx, te_node *n, const te_stage *a,
                          const te_stage *b)
{
  max_atoms m = { { NULL }, 0 };
  te_walk (n, find_quotient, &m);
  const te_stage *st[2] = { a, b };
  for (int i = 0; i < m.n; i++)
    {
      te_node *q = m.items[i];
      bool extent = false;
      for (int s = 0; s < 2; s++)
        for (int k = 0; k < st[s]->nloops; k++)
          extent |= te_canon_int (ctx, st[s]->loops[k].extent)
                    == te_canon_int (ctx, q);
      if (!extent)
        continue;
      te_node *at[3];
      for (int k = 0; k < 3; k++)
        at[k] = te_canon_int (ctx, te_replace (ctx, n, q, te_int (ctx, k)));
      te_node *c = te_canon_int (ctx, te_sub (ctx, at[1], at[0]));
      te_node *bend = te_canon_int (
          ctx, te_add (ctx, te_sub (ctx, at[2], te_mul (ctx, te_int (ctx, 2),
                                                         at[1])),
                       at[0]));
      if (c->op != TE_CONST || bend->op != TE_CONST || bend->u.i != 0
          || c->u.i == 0)
        continue;
      te_node *x = q->args[0], *kk = q->args[1];
      te_node *bound = c->u.i < 0
                           ? x
                           : te_add (ctx, te_sub (ctx, x, kk), te_int (ctx, 1));
      if (te_non_negative (ctx, te_add (ctx, te_mul (ctx, kk, at[0]),
                                         te_mul (ctx, c, bound))))
        return true;
    }
  return false;
}

/* A of a loop count E, canonical, that is (C * A + K) / C with C a
   positive constant and 0 <= K < C; NULL if E is no such count.  */
static te_node *
tile_count (te_ctx *ctx, te_node *e)
{
  if (e->op != TE_DIV || e->args[1]->op != TE_CONST || e->args[1]->u.i <= 1)
    return NULL;
  te_node *c = e->args[1], *rest = NULL;
  te_node *a = te_canon_divide (ctx, e->args[0], c, &rest);
  if (!a || !rest || rest->op != TE_CONST || rest->u.i < 0
      || rest->u.i >= c->u.i)
    return NULL;
  return a;
}

bool
te_non_negative_where_run (te_ctx *ctx, te_node *n, const te_stage *a,
                        const te_stage *b)
{
  if (te_non_negative (ctx, n) || non_negative_below_max (ctx, n))
    return true;
  const te_stage *st[2] = { a, b };
  /* There max (E, 0) is E.  */
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < st[i]->nloops; k++)
      {
        te_node *e = st[i]->loops[k].extent;
        te_node *m = te_canon_int (ctx, te_binary (ctx, TE_MAX, e,
                                                   te_int (ctx, 0)));
        n = te_replace (ctx, n, m, e);
      }
  if (te_non_negative (ctx, n))
    return true;
  /* There a tile loop's count (C * A + K) / C, 0 <= K < C, is A: it is
     one or more, so C * A + K >= C, A >= 1, and the division exact but
     for K.  */
  bool tiles = false;
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < st[i]->nloops; k++)
      {
        te_node *e = te_canon_int (ctx, st[i]->loops[k].extent);
        te_node *a = tile_count (ctx, e);
        if (a)
          {
            n = te_canon_int (ctx, te_replace (ctx, n, e, a));
            tiles = true;
          }
      }
  if (tiles && te_non_negative (ctx, n))
    return true;
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < st[i]->nloops; k++)
      {
        /* N >= E - 1 >= 0.  */
        if (te_non_negative (ctx, te_add (ctx, te_sub (ctx, n,
                                                       st[i]->loops[k].extent),
                                          te_int (ctx, 1))))
          return true;
      }
  return non_negative_by_quotient (ctx, n, a, b);
}

te_node *
te_less_bound (te_ctx *ctx, te_node *l, te_node *r, int k, int nloops,
               const te_loop *loops)
{
  te_node *off = te_canon_int (ctx, te_sub (ctx, l, te_var (ctx,
                                                             loops[k].var)));
  if (off->op != TE_CONST || !te_pure_poly (r))
    return NULL;
  for (int j = k; j < nloops; j++)
    if (te_uses_var (r, loops[j].var))
      return NULL;
  /* V + OFF < R: V < R - OFF.  */
  return te_canon_int (ctx, te_sub (ctx, r, off));
}

int
te_narrow_loops (te_ctx *ctx, te_node *c, bool neg, int nloops,
                 te_loop *loops)
{
  te_node *ls[16], *rs[16];
  int n = te_conjunct_less (ctx, c, neg, ls, rs, 16, NULL), narrowed = 0;
  for (int k = 0; k < nloops; k++)
    for (int i = 0; i < n; i++)
      {
        te_node *e = te_less_bound (ctx, ls[i], rs[i], k, nloops, loops);
        if (!e)
          continue;
        te_node *gap = te_canon_int (ctx, te_sub (ctx, loops[k].extent, e));
        te_node *lo, *hi;
        if (e != loops[k].extent
            && te_index_range (ctx, gap, k, loops, &lo, &hi)
            && te_non_negative (ctx, lo))
          {
            loops[k].extent = e;
            narrowed++;
          }
      }
  return narrowed;
}

bool
te_loop_within (te_ctx *ctx, int nloops, const te_loop *a, const te_loop *b,
                int k)
{
  te_node *ea = te_canon_int (
      ctx, te_rename_counters (ctx, a[k].extent, nloops, a, b));
  te_node *eb = te_canon_int (ctx, b[k].extent);
  if (ea == eb)
    return true;
  te_node *lo, *hi;
  return te_index_range (ctx, te_canon_int (ctx, te_sub (ctx, eb, ea)), k, b,
                         &lo, &hi)
         && te_non_negative (ctx, lo);
}

/* Is C the test that counter V is below E (v < E, v <= E - 1,
   E > v, E - 1 >= v)?  */
static bool
below_test (te_ctx *ctx, const te_node *c, te_node *v, te_node *e)
{
  if (c->op != TE_LT && c->op != TE_LE && c->op != TE_GT && c->op != TE_GE)
    return false;
  bool flip = c->op == TE_GT || c->op == TE_GE;
  te_node *x = te_canon_int (ctx, te_cast (ctx, TE_I64, c->args[flip]));
  te_node *y = te_canon_int (ctx, te_cast (ctx, TE_I64, c->args[!flip]));
  if (c->op == TE_LE || c->op == TE_GE)
    y = te_canon_int (ctx, te_add (ctx, y, te_int (ctx, 1)));
  return x == v && y == te_canon_int (ctx, e);
}

/* Is every load of T in N inside the true arm of a select testing V < E
   (INSIDE: N itself is)?  */
static bool
loads_inside (te_ctx *ctx, const te_node *n, const te_tensor *t, te_node *v,
              te_node *e, bool inside, te_memo *m)
{
  if (!n || inside || !te_reads (n, t))
    return true;
  if (n->op == TE_LOAD && n->u.tensor == t)
    return false;
  if (te_memo_get (m, n))
    return true;
  bool ok;
  if (n->op == TE_SELECT)
    ok = loads_inside (ctx, n->args[0], t, v, e, false, m)
         && loads_inside (ctx, n->args[1], t, v, e,
                          below_test (ctx, n->args[0], v, e), m)
         && loads_inside (ctx, n->args[2], t, v, e, false, m);
  else
    {
      ok = true;
      for (int k = 0; k < 3 && ok; k++)
        ok = loads_inside (ctx, n->args[k], t, v, e, false, m);
    }
  if (ok)
    te_memo_put (m, n, TE_MEMO_TRUE);
  return ok;
}

bool
te_loads_below (te_ctx *ctx, const te_node *value, const te_tensor *t,
                te_node *v, te_node *e)
{
  te_memo m = { 0 };
  bool ok = loads_inside (ctx, value, t, v, e, false, &m);
  te_memo_free (&m);
  return ok;
}

static bool
any_var (const te_node *n)
{
  bool uses = false;
  te_walk ((te_node *) n, any_var_fn, &uses);
  return uses;
}

bool
te_pure_poly (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_VAR:
    case TE_PARAM:
      return true;
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
      return te_pure_poly (n->args[0]) && te_pure_poly (n->args[1]);
    case TE_NEG:
      return te_pure_poly (n->args[0]);
    case TE_CAST:
      return n->type == TE_I64 && n->args[0]->type == TE_I64
             && te_pure_poly (n->args[0]);
    case TE_DIV:
      /* A quotient of sizes (a head's width C / NH): an atom, not
         negative, that no counter changes.  */
      return n->type == TE_I64 && te_pure_poly (n->args[0])
             && te_pure_poly (n->args[1]) && !any_var (n)
             && !te_poly_negative (n->args[0])
             && !te_poly_negative (n->args[1]);
    default:
      return false;
    }
}

/* Is N an integer expression of the parameters alone: no counter, no
   load, no reduction, no floating operand?  */
static bool
of_params (const te_node *n)
{
  if (te_type_is_float (n->type))
    return false;
  if (n->op == TE_CONST || n->op == TE_PARAM)
    return true;
  if (n->op == TE_VAR || n->op == TE_LOAD || n->op == TE_REDUCE)
    return false;
  for (int k = 0; k < te_op_arity (n->op); k++)
    if (!of_params (n->args[k]))
      return false;
  return true;
}

bool
te_param_poly (const te_node *n)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_VAR:
    case TE_PARAM:
      return true;
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
      return te_param_poly (n->args[0]) && te_param_poly (n->args[1]);
    case TE_NEG:
      return te_param_poly (n->args[0]);
    case TE_CAST:
      if (n->type == TE_I64 && n->args[0]->type == TE_I64
          && te_param_poly (n->args[0]))
        return true;
      return of_params (n);
    case TE_DIV:
    case TE_MOD:
    case TE_MIN:
    case TE_MAX:
    case TE_SELECT:
      return of_params (n);
    case TE_LOAD:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    case TE_REDUCE:
    TE_CASE_MATH:
    case TE_NUM_OPS:
      return false;
    }
  return false;
}

/* ---- clamped indices ----------------------------------------------------

   An index may pick one of two values (edge padding:
   x[(i + 1 < n ? i + 1 : n - 1) * m + j], x[max (i - 1, 0)]): the clamp
   is an atom of the index's polynomial.  Its largest value is that of
   the arm it picks, where each arm is bounded also by the condition
   under which it is picked (i + 1 <= n - 1 where n > i + 1).  */

#define MAX_CLAMPS 4

static te_node *upper_of (te_ctx *ctx, te_node *n, int nloops,
                          const te_loop *loops, int depth);

/* Is N an integer atom that picks one of two values?  */
static bool
clamp_p (const te_node *n)
{
  return (n->op == TE_MIN || n->op == TE_MAX || n->op == TE_SELECT)
         && !te_type_is_float (n->type) && n->type != TE_BOOL;
}

/* The largest value of ARM where condition C (negated: NOT) holds: its
   own bound, or, when C compares ARM less a constant K with R, R's bound
   less one plus K.  */
static te_node *
upper_taken (te_ctx *ctx, te_node *arm, const te_node *c, bool neg,
             int nloops, const te_loop *loops, int depth)
{
  te_node *u = upper_of (ctx, arm, nloops, loops, depth);
  te_node *l, *r;
  if (!te_as_less (ctx, c, neg, &l, &r))
    return u;
  te_node *one = te_int (ctx, 1);
  te_node *k = te_canon_int (ctx, te_sub (ctx, te_cast (ctx, TE_I64, arm), l));
  if (k->op != TE_CONST)
    return u;
  te_node *ur = upper_of (ctx, r, nloops, loops, depth);
  if (!ur)
    return u;
  te_node *v = te_canon_int (ctx, te_add (ctx, te_sub (ctx, ur, one), k));
  return u ? te_binary (ctx, TE_MIN, u, v) : v;
}

bool
te_as_less (te_ctx *ctx, const te_node *c, bool neg, te_node **l,
            te_node **r)
{
  te_op op = c->op;
  if (op != TE_LT && op != TE_LE && op != TE_GT && op != TE_GE)
    return false;
  if (neg)
    op = op == TE_LT ? TE_GE : op == TE_LE ? TE_GT : op == TE_GT ? TE_LE
                                                                : TE_LT;
  te_node *a = te_canon_int (ctx, te_cast (ctx, TE_I64, c->args[0]));
  te_node *b = te_canon_int (ctx, te_cast (ctx, TE_I64, c->args[1]));
  bool less = op == TE_LT || op == TE_LE;
  *l = less ? a : b;
  *r = less ? b : a;
  if (op == TE_LE || op == TE_GE)
    *r = te_canon_int (ctx, te_add (ctx, *r, te_int (ctx, 1)));
  return true;
}

/* The largest value of clamp atom N.  */
static te_node *
upper_clamp (te_ctx *ctx, te_node *n, int nloops, const te_loop *loops,
             int depth)
{
  if (n->op == TE_SELECT)
    {
      te_node *x = upper_taken (ctx, n->args[1], n->args[0], false, nloops,
                                loops, depth);
      te_node *y = upper_taken (ctx, n->args[2], n->args[0], true, nloops,
                                loops, depth);
      return x && y ? te_binary (ctx, TE_MAX, x, y) : NULL;
    }
  te_node *a = upper_of (ctx, n->args[0], nloops, loops, depth);
  te_node *b = upper_of (ctx, n->args[1], nloops, loops, depth);
  if (n->op == TE_MAX)
    return a && b ? te_binary (ctx, TE_MAX, a, b) : NULL;
  return a && b ? te_binary (ctx, TE_MIN, a, b) : a ? a : b;
}

typedef struct clamp_scan
{
  te_node *found[MAX_CLAMPS];
  int n;
} clamp_scan;

static void
clamp_fn (te_node *n, void *data)
{
  clamp_scan *c = data;
  if (!clamp_p (n))
    return;
  /* Of nested clamps (a select picking between a bound and another
     select), the outermost is the atom; its arms bound the inner.  */
  for (int k = 0; k < c->n; k++)
    if (te_contains (c->found[k], n))
      return;
  int m = 0;
  for (int k = 0; k < c->n; k++)
    if (!te_contains (n, c->found[k]))
      c->found[m++] = c->found[k];
  c->n = m;
  if (c->n < MAX_CLAMPS)
    c->found[c->n++] = n;
  else
    c->n = MAX_CLAMPS + 1;
}

static te_node *
upper_of (te_ctx *ctx, te_node *n, int nloops, const te_loop *loops,
          int depth)
{
  n = te_canon_int (ctx, te_cast (ctx, TE_I64, n));
  te_node *lo, *hi;
  if (te_param_poly (n))
    return te_index_range (ctx, n, nloops, loops, &lo, &hi) ? hi : NULL;
  if (depth == 2)
    return NULL;
  clamp_scan c = { { NULL }, 0 };
  te_walk (n, clamp_fn, &c);
  if (c.n == 0 || c.n > MAX_CLAMPS)
    return NULL;
  /* Each clamp a parameter of its own, at its largest value.  */
  te_node *q[MAX_CLAMPS], *u[MAX_CLAMPS];
  for (int k = 0; k < c.n; k++)
    {
      q[k] = te_param_ref (ctx, TE_I64, -3000 - 8 * depth - k);
      u[k] = upper_clamp (ctx, c.found[k], nloops, loops, depth + 1);
      if (!u[k])
        return NULL;
      n = te_replace (ctx, n, c.found[k], q[k]);
      n = te_replace (ctx, n, te_cast (ctx, TE_I64, c.found[k]), q[k]);
    }
  n = te_canon_int (ctx, n);
  if (!te_pure_poly (n) || !te_index_range (ctx, n, nloops, loops, &lo, &hi))
    return NULL;
  for (int k = 0; k < c.n; k++)
    {
      te_node *at0 = te_canon_int (ctx, te_replace (ctx, n, q[k],
                                                    te_int (ctx, 0)));
      if (te_poly_negative (te_canon_int (ctx, te_sub (ctx, n, at0))))
        return NULL;
    }
  for (int k = 0; k < c.n; k++)
    hi = te_replace (ctx, hi, q[k], u[k]);
  return te_canon_int (ctx, hi);
}

te_node *
te_index_upper (te_ctx *ctx, te_node *n, int nloops, const te_loop *loops)
{
  return upper_of (ctx, n, nloops, loops, 0);
}

/* C without the comparisons with a boolean constant the lifter wraps
   conditions in (false != (a || b)), *NEG flipped for each that
   negates.  */
te_node *
te_bool_of (te_ctx *ctx, te_node *c, bool *neg)
{
  for (;;)
    {
      /* a || (!a && b) is a || b, as -O0's CFG gives `if (a || b)`.  */
      te_op other = c->op == TE_OR ? TE_AND : TE_OR;
      if ((c->op == TE_OR || c->op == TE_AND) && c->args[1]->op == other
          && c->args[1]->args[0]->op == TE_NOT
          && c->args[1]->args[0]->args[0] == c->args[0])
        {
          c = te_binary (ctx, c->op, c->args[0], c->args[1]->args[1]);
          continue;
        }
      if (!((c->op == TE_NE || c->op == TE_EQ) && c->type == TE_BOOL))
        break;
      int k = c->args[0]->op == TE_CONST ? 0
              : c->args[1]->op == TE_CONST ? 1 : -1;
      if (k < 0 || c->args[1 - k]->type != TE_BOOL)
        break;
      bool one = c->args[k]->u.i != 0;
      if ((c->op == TE_NE) == one)
        *neg = !*neg;
      c = c->args[1 - k];
    }
  return c;
}

/* ---- ranges of a read under the conditions on its path ---------------- */

#define PATH_CONDS 16

typedef struct path_range
{
  te_ctx *ctx;
  const te_tensor *t;
  const te_node *r;
  int nloops;
  const te_loop *loops;
  const te_node *conds[PATH_CONDS];
  bool negs[PATH_CONDS];
  int nc;
  te_node *lo, *hi;
  long budget;
  bool fail;
} path_range;

/* Narrow loop K of LOOPS (*FIRST and *LAST its first and last values) by
   the condition L < R: v + K < R gives a last value, L < v + K a first
   one, where the bound is free of the loops' counters and tighter.  */
static void
narrow_by_less (te_ctx *ctx, te_node *l, te_node *r, int nloops,
                const te_loop *loops, te_node **first, te_node **last)
{
  for (int k = 0; k < nloops; k++)
    {
      te_node *v = te_var (ctx, loops[k].var);
      te_node *kl = te_canon_int (ctx, te_sub (ctx, l, v));
      te_node *kr = te_canon_int (ctx, te_sub (ctx, r, v));
      te_node *b = NULL;
      bool upper = false;
      if (kl->op == TE_CONST)
        {
          b = te_canon_int (ctx, te_sub (ctx, te_sub (ctx, r, kl),
                                         te_int (ctx, 1)));
          upper = true;
        }
      else if (kr->op == TE_CONST)
        b = te_canon_int (ctx, te_add (ctx, te_sub (ctx, l, kr),
                                       te_int (ctx, 1)));
      if (!b || !te_pure_poly (b))
        continue;
      bool free = true;
      for (int j = 0; j < nloops; j++)
        free &= !te_uses_var (b, loops[j].var);
      if (!free)
        continue;
      if (upper && te_non_negative (ctx, te_canon_int (ctx,
                                                       te_sub (ctx, last[k],
                                                               b))))
        last[k] = b;
      else if (!upper
               && te_non_negative (ctx, te_canon_int (ctx,
                                                      te_sub (ctx, b,
                                                              first[k]))))
        first[k] = b;
    }
}

int
te_conjunct_less (te_ctx *ctx, te_node *c, bool neg, te_node **ls,
                  te_node **rs, int max, int *other)
{
  c = te_bool_of (ctx, c, &neg);
  if (c->op == TE_NOT)
    return te_conjunct_less (ctx, c->args[0], !neg, ls, rs, max, other);
  if ((c->op == TE_AND && !neg) || (c->op == TE_OR && neg))
    {
      int n = te_conjunct_less (ctx, c->args[0], neg, ls, rs, max, other);
      return n + te_conjunct_less (ctx, c->args[1], neg, ls + n, rs + n,
                                   max - n, other);
    }
  te_node *l, *r;
  if (max > 0 && te_as_less (ctx, c, neg, &l, &r))
    {
      *ls = l;
      *rs = r;
      return 1;
    }
  if (other)
    (*other)++;
  return 0;
}

/* Fold the range of Q's read where the conditions on its path hold.  */
static void
fold_range (path_range *q)
{
  te_ctx *ctx = q->ctx;
  int n = q->nloops;
  te_node *first[2 * TE_MAX_LOOPS], *last[2 * TE_MAX_LOOPS];
  for (int k = 0; k < n; k++)
    {
      first[k] = te_int (ctx, 0);
      last[k] = te_canon_int (ctx, te_sub (ctx, q->loops[k].extent,
                                           te_int (ctx, 1)));
    }
  for (int i = 0; i < q->nc; i++)
    {
      te_node *ls[PATH_CONDS], *rs[PATH_CONDS];
      int m = te_conjunct_less (ctx, (te_node *) q->conds[i], q->negs[i], ls,
                                rs, PATH_CONDS, NULL);
      for (int j = 0; j < m; j++)
        narrow_by_less (ctx, ls[j], rs[j], n, q->loops, first, last);
    }
  /* The counters shifted to start at 0 over the narrowed extents.  */
  te_loop shifted[2 * TE_MAX_LOOPS];
  te_node *index = (te_node *) q->r;
  for (int k = 0; k < n; k++)
    {
      te_node *v = te_var (ctx, q->loops[k].var);
      index = te_replace (ctx, index, v, te_add (ctx, v, first[k]));
      shifted[k] = q->loops[k];
      shifted[k].extent = te_canon_int (
          ctx, te_add (ctx, te_sub (ctx, last[k], first[k]), te_int (ctx, 1)));
    }
  te_node *lo, *hi;
  if (!te_index_range (ctx, te_canon_int (ctx, index), n, shifted, &lo, &hi))
    {
      q->fail = true;
      return;
    }
  q->lo = q->lo && q->lo != lo
              ? te_canon_int (ctx, te_binary (ctx, TE_MIN, q->lo, lo))
              : lo;
  q->hi = q->hi && q->hi != hi
              ? te_canon_int (ctx, te_binary (ctx, TE_MAX, q->hi, hi))
              : hi;
}

static void
range_walk (path_range *q, const te_node *n)
{
  if (!n || q->fail)
    return;
  if (--q->budget < 0)
    {
      q->fail = true;
      return;
    }
  if (n->op == TE_LOAD && n->u.tensor == q->t && n->args[0] == q->r)
    fold_range (q);
  if (n->op == TE_SELECT && q->nc < PATH_CONDS)
    {
      range_walk (q, n->args[0]);
      q->conds[q->nc] = n->args[0];
      for (int arm = 1; arm <= 2; arm++)
        {
          q->negs[q->nc++] = arm == 2;
          range_walk (q, n->args[arm]);
          q->nc--;
        }
      return;
    }
  for (int k = 0; k < 3; k++)
    range_walk (q, n->args[k]);
}

bool
te_read_range (te_ctx *ctx, const te_node *root, const te_node *guard,
               const te_tensor *t, const te_node *r, int nloops,
               const te_loop *loops, te_node **lo, te_node **hi)
{
  path_range q;
  memset (&q, 0, sizeof q);
  q.ctx = ctx;
  q.t = t;
  q.r = r;
  q.nloops = nloops;
  q.loops = loops;
  q.budget = 20000;
  if (guard)
    q.conds[q.nc++] = guard;
  range_walk (&q, root);
  if (!q.fail && q.lo)
    {
      *lo = q.lo;
      *hi = q.hi;
      return true;
    }
  return te_index_range (ctx, (te_node *) r, nloops, loops, lo, hi);
}

/* te.c -- the TE IR: contexts, hash-consed nodes, programs.

   Nodes are created only through te_make, which looks the node up in the
   context's hash table first: two structurally equal nodes are one.  The
   simplifying constructors (te_unary, te_binary, ...) fold constants and
   apply the identities listed in te.h before they reach te_make.  */

#include "ir/te.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK 65536

typedef struct arena_chunk
{
  struct arena_chunk *next;
  size_t used, cap;
  max_align_t data[];
} arena_chunk;

struct te_ctx
{
  arena_chunk *chunks;
  te_node **buckets;
  size_t nbuckets, nnodes;
  int next_id;
  long walks[TE_NUM_WALKS];
  int nassumed;
  te_node *assumed[TE_MAX_ASSUMED]; /* te_ctx_assume */
};

/* ---- diagnostics ------------------------------------------------------- */

/* S with the version suffixes the passes give arrays (version.c names
   the second version of 'p' 'p.v1') dropped: a user's message names
   the array as the kernel does.  */
void
te_user_names (char *s)
{
  char *out = s;
  bool ident = false; /* the last character ends an identifier */
  for (const char *in = s; *in;)
    if (ident && in[0] == '.' && in[1] == 'v' && in[2] >= '0'
        && in[2] <= '9')
      {
        in += 2;
        while (*in >= '0' && *in <= '9')
          in++;
      }
    else
      {
        unsigned char c = *in;
        bool word = isalnum (c) || c == '_';
        ident = word && (ident || !isdigit (c));
        *out++ = *in++;
      }
  *out = 0;
}

bool
te_diag_set (te_diag *diag, te_diag_kind kind, te_loc loc, const char *fmt,
             ...)
{
  va_list ap;
  if (!diag || diag->kind != TE_DIAG_NONE)
    return false;
  diag->kind = kind;
  diag->loc = loc;
  va_start (ap, fmt);
  vsnprintf (diag->msg, sizeof diag->msg, fmt, ap);
  va_end (ap);
  if (kind == TE_DIAG_USER)
    te_user_names (diag->msg);
  diag->note[0] = 0;
  diag->where[0] = 0;
  return false;
}

void
te_diag_note (te_diag *diag, const char *fmt, ...)
{
  va_list ap;
  if (!diag)
    return;
  va_start (ap, fmt);
  vsnprintf (diag->note, sizeof diag->note, fmt, ap);
  va_end (ap);
  if (diag->kind == TE_DIAG_USER)
    te_user_names (diag->note);
}

/* ---- walk statistics -------------------------------------------------- */

int
te_ctx_ids (const te_ctx *ctx)
{
  return ctx->next_id;
}

void
te_ctx_assume (te_ctx *ctx, te_node *gap)
{
  for (int i = 0; i < ctx->nassumed; i++)
    if (ctx->assumed[i] == gap)
      return;
  if (ctx->nassumed < TE_MAX_ASSUMED)
    ctx->assumed[ctx->nassumed++] = gap;
}

int
te_ctx_assumed (const te_ctx *ctx, te_node *const **gaps)
{
  *gaps = ctx->assumed;
  return ctx->nassumed;
}

bool
te_ctx_full (const te_ctx *ctx)
{
  return ctx->nnodes > TE_MAX_NODES;
}

bool
te_ctx_within_budget (const te_ctx *ctx, const char *name, te_diag *diag)
{
  if (!te_ctx_full (ctx))
    return true;
  te_diag_set (diag, TE_DIAG_USER, 0,
               "gradient of '%s' too large: more than %d expression nodes",
               name, TE_MAX_NODES);
  te_diag_note (diag, "split the kernel into smaller kernels, or give "
                      "shared values a local array of their own");
  return false;
}

void
te_walk_count (te_ctx *ctx, te_walk_kind kind, long n)
{
  if (ctx && kind < TE_NUM_WALKS)
    ctx->walks[kind] += n;
}

long
te_walk_visits (const te_ctx *ctx, te_walk_kind kind)
{
  return kind < TE_NUM_WALKS ? ctx->walks[kind] : 0;
}

const char *
te_walk_name (te_walk_kind kind)
{
  switch (kind)
    {
    case TE_WALK_QUERY:
      return "query";
    case TE_WALK_REWRITE:
      return "rewrite";
    case TE_WALK_DERIV:
      return "deriv";
    case TE_WALK_LOWER:
      return "lower";
    case TE_WALK_EMIT:
      return "emit";
    case TE_WALK_PRINT:
      return "print";
    case TE_WALK_CGEN:
      return "cgen";
    case TE_WALK_INTERP:
      return "interp";
    case TE_NUM_WALKS:
      break;
    }
  return "?";
}

void
te_walk_stats_reset (te_ctx *ctx)
{
  memset (ctx->walks, 0, sizeof ctx->walks);
}

void
te_walk_stats_dump (FILE *f, const te_ctx *ctx, const char *label)
{
  fprintf (f, ";; tensorgrad: %s:", label ? label : "walks");
  for (int k = 0; k < TE_NUM_WALKS; k++)
    fprintf (f, " %s %ld nodes,", te_walk_name ((te_walk_kind) k),
             ctx->walks[k]);
  fprintf (f, " distinct nodes %zu\n", ctx->nnodes);
}

/* ---- memory ------------------------------------------------------------ */

te_ctx *
te_ctx_new (void)
{
  te_ctx *ctx = calloc (1, sizeof *ctx);
  if (!ctx)
    return NULL;
  ctx->nbuckets = 1024;
  ctx->buckets = calloc (ctx->nbuckets, sizeof *ctx->buckets);
  if (!ctx->buckets)
    {
      free (ctx);
      return NULL;
    }
  return ctx;
}

void
te_ctx_free (te_ctx *ctx)
{
  if (!ctx)
    return;
  for (arena_chunk *c = ctx->chunks, *next; c; c = next)
    {
      next = c->next;
      free (c);
    }
  free (ctx->buckets);
  free (ctx);
}

void *
te_alloc (te_ctx *ctx, size_t size)
{
  size = (size + sizeof (max_align_t) - 1) & ~(sizeof (max_align_t) - 1);
  arena_chunk *c = ctx->chunks;
  if (!c || c->cap - c->used < size)
    {
      size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
      c = malloc (sizeof *c + cap);
      if (!c)
        abort (); /* out of memory: nothing sensible is left to do */
      c->cap = cap;
      c->used = 0;
      c->next = ctx->chunks;
      ctx->chunks = c;
    }
  void *p = (char *) c->data + c->used;
  c->used += size;
  memset (p, 0, size);
  return p;
}

char *
te_strdup (te_ctx *ctx, const char *s)
{
  if (!s)
    return NULL;
  size_t n = strlen (s) + 1;
  char *d = te_alloc (ctx, n);
  memcpy (d, s, n);
  return d;
}

/* ---- hash-consing ------------------------------------------------------ */

static unsigned
mix (unsigned h, uint64_t v)
{
  h ^= (unsigned) (v ^ (v >> 32));
  h *= 0x9e3779b1u;
  return h ^ (h >> 15);
}

static unsigned
node_hash (const te_node *n)
{
  unsigned h = mix (n->op * 31u + n->type, 0);
  for (int i = 0; i < 3; i++)
    h = mix (h, n->args[i] ? (uint64_t) n->args[i]->id + 1 : 0);
  switch (n->op)
    {
    case TE_CONST:
      if (te_type_is_float (n->type))
        {
          uint64_t bits;
          memcpy (&bits, &n->u.f, sizeof bits);
          h = mix (h, bits);
        }
      else
        h = mix (h, (uint64_t) n->u.i);
      break;
    case TE_PARAM:
    case TE_VAR:
      h = mix (h, (uint64_t) n->u.index);
      break;
    case TE_LOAD:
      h = mix (h, (uint64_t) (uintptr_t) n->u.tensor);
      break;
    case TE_REDUCE:
      h = mix (h, n->u.red.kind);
      for (int i = 0; i < n->u.red.nloops; i++)
        h = mix (mix (h, n->u.red.loops[i].var),
                 n->u.red.loops[i].extent->id);
      break;
    default:
      break;
    }
  return h;
}

static bool
node_equal (const te_node *a, const te_node *b)
{
  if (a->op != b->op || a->type != b->type)
    return false;
  for (int i = 0; i < 3; i++)
    if (a->args[i] != b->args[i])
      return false;
  switch (a->op)
    {
    case TE_CONST:
      if (te_type_is_float (a->type))
        return memcmp (&a->u.f, &b->u.f, sizeof a->u.f) == 0;
      return a->u.i == b->u.i;
    case TE_PARAM:
    case TE_VAR:
      return a->u.index == b->u.index;
    case TE_LOAD:
      return a->u.tensor == b->u.tensor;
    case TE_REDUCE:
      if (a->u.red.kind != b->u.red.kind
          || a->u.red.nloops != b->u.red.nloops)
        return false;
      return te_loops_equal (a->u.red.loops, b->u.red.loops,
                             a->u.red.nloops);
    default:
      return true;
    }
}

static void
grow (te_ctx *ctx)
{
  size_t nb = ctx->nbuckets * 2;
  te_node **b = calloc (nb, sizeof *b);
  if (!b)
    return; /* keep the old table: only slower */
  for (size_t i = 0; i < ctx->nbuckets; i++)
    for (te_node *n = ctx->buckets[i], *next; n; n = next)
      {
        next = n->chain;
        n->chain = b[n->hash & (nb - 1)];
        b[n->hash & (nb - 1)] = n;
      }
  free (ctx->buckets);
  ctx->buckets = b;
  ctx->nbuckets = nb;
}

/* Return the unique node equal to PROTO, creating it if needed.  */
static te_node *
te_make (te_ctx *ctx, const te_node *proto)
{
  unsigned h = node_hash (proto);
  for (te_node *n = ctx->buckets[h & (ctx->nbuckets - 1)]; n; n = n->chain)
    if (n->hash == h && node_equal (n, proto))
      return n;
  te_node *n = te_alloc (ctx, sizeof *n);
  *n = *proto;
  if (n->op == TE_REDUCE)
    {
      n->u.red.loops = te_alloc (ctx, sizeof (te_loop) * proto->u.red.nloops);
      memcpy (n->u.red.loops, proto->u.red.loops,
              sizeof (te_loop) * proto->u.red.nloops);
      /* In no lanes until lanes.c, the last pass, says so.  */
      for (int i = 0; i < n->u.red.nloops; i++)
        n->u.red.loops[i].lanes = 0;
    }
  n->id = ctx->next_id++;
  n->ctx = ctx;
  n->hash = h;
  n->chain = ctx->buckets[h & (ctx->nbuckets - 1)];
  ctx->buckets[h & (ctx->nbuckets - 1)] = n;
  if (++ctx->nnodes > ctx->nbuckets)
    grow (ctx);
  return n;
}

static te_node *
make_op (te_ctx *ctx, te_op op, te_type type, te_node *a, te_node *b,
         te_node *c)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = op;
  proto.type = type;
  proto.args[0] = a;
  proto.args[1] = b;
  proto.args[2] = c;
  return te_make (ctx, &proto);
}

/* ---- leaves ------------------------------------------------------------ */

te_node *
te_int (te_ctx *ctx, int64_t v)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_CONST;
  proto.type = TE_I64;
  proto.u.i = v;
  return te_make (ctx, &proto);
}

te_node *
te_bool (te_ctx *ctx, bool v)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_CONST;
  proto.type = TE_BOOL;
  proto.u.i = v;
  return te_make (ctx, &proto);
}

te_node *
te_float (te_ctx *ctx, te_type type, double v)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_CONST;
  proto.type = type;
  proto.u.f = type == TE_F32 ? (double) (float) v : v;
  return te_make (ctx, &proto);
}

te_node *
te_param_ref (te_ctx *ctx, te_type type, int param)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_PARAM;
  proto.type = type;
  proto.u.index = param;
  return te_make (ctx, &proto);
}

te_tensor *
te_param_tensor (const te_program *p, int q)
{
  if (q >= 0 && q < p->nparams && p->params[q].tensor)
    return p->params[q].tensor;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind == TE_TK_PARAM && p->tensors[i]->param == q)
      return p->tensors[i];
  return NULL;
}

te_node *
te_nonnull (te_ctx *ctx, int param)
{
  return te_param_ref (ctx, TE_BOOL, param);
}

bool
te_is_nonnull (const te_node *n)
{
  return n && n->op == TE_PARAM && n->type == TE_BOOL;
}

te_node *
te_var (te_ctx *ctx, int var)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_VAR;
  proto.type = TE_I64;
  proto.u.index = var;
  return te_make (ctx, &proto);
}

te_node *
te_load (te_ctx *ctx, te_tensor *t, te_node *index)
{
  if (!index)
    return NULL;
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_LOAD;
  proto.type = t->type;
  proto.args[0] = index;
  proto.u.tensor = t;
  return te_make (ctx, &proto);
}

te_node *
te_reduce_node (te_ctx *ctx, te_red_kind kind, int nloops,
                const te_loop *loops, te_node *init, te_node *body)
{
  te_node proto;
  memset (&proto, 0, sizeof proto);
  proto.op = TE_REDUCE;
  proto.type = body->type;
  proto.args[0] = init;
  proto.args[1] = body;
  proto.u.red.kind = kind;
  proto.u.red.nloops = nloops;
  proto.u.red.loops = (te_loop *) loops;
  return te_make (ctx, &proto);
}

/* ---- queries ----------------------------------------------------------- */

static const char *const op_names[] = {
#define TE_OP_NAME(name, str, arity) str,
  TE_OPS (TE_OP_NAME)
#undef TE_OP_NAME
};

static const int op_arity[] = {
#define TE_OP_ARITY(name, str, arity) arity,
  TE_OPS (TE_OP_ARITY)
#undef TE_OP_ARITY
};

const char *
te_op_name (te_op op)
{
  return op < TE_NUM_OPS ? op_names[op] : "?";
}

int
te_op_arity (te_op op)
{
  return op < TE_NUM_OPS ? op_arity[op] : 0;
}

const char *
te_type_name (te_type t)
{
  switch (t)
    {
    case TE_BOOL:
      return "bool";
    case TE_I32:
      return "int";
    case TE_U32:
      return "unsigned";
    case TE_I64:
      return "long";
    case TE_F32:
      return "float";
    case TE_F64:
      return "double";
    }
  return "?";
}

bool
te_type_is_float (te_type t)
{
  return t == TE_F32 || t == TE_F64;
}

bool
te_is_const (const te_node *n, double v)
{
  if (!n || n->op != TE_CONST)
    return false;
  if (te_type_is_float (n->type))
    return n->u.f == v;
  return (double) n->u.i == v;
}

int
te_factors (te_node *n, te_node **f, int max)
{
  if (n->op != TE_MUL)
    {
      if (max < 1)
        return -1;
      f[0] = n;
      return 1;
    }
  int a = te_factors (n->args[0], f, max);
  int b = a < 0 ? -1 : te_factors (n->args[1], f + a, max - a);
  return b < 0 ? -1 : a + b;
}

static bool
is_int_const (const te_node *n)
{
  return n->op == TE_CONST && !te_type_is_float (n->type);
}

/* ---- simplifying constructors ------------------------------------------ */

static te_node *
fold_unary_float (te_ctx *ctx, te_op op, te_node *a)
{
  double x = a->u.f, r;
  switch (op)
    {
    case TE_NEG:
      r = -x;
      break;
    case TE_FABS:
      r = fabs (x);
      break;
    case TE_SQRT:
      if (x < 0)
        return NULL;
      r = sqrt (x);
      break;
    default:
      return NULL; /* transcendental: left to the runtime library */
    }
  return te_float (ctx, a->type, r);
}

te_node *
te_unary (te_ctx *ctx, te_op op, te_node *a)
{
  if (!a)
    return NULL;
  te_type type = a->type;
  switch (op)
    {
    case TE_NEG:
      if (a->op == TE_NEG)
        return a->args[0];
      if (is_int_const (a))
        return te_int (ctx, -a->u.i);
      break;
    case TE_NOT:
      type = TE_BOOL;
      if (a->op == TE_CONST)
        return te_bool (ctx, !a->u.i);
      if (a->op == TE_NOT)
        return a->args[0];
      /* !(a < b) is not (a >= b) for NaN: keep the NOT.  */
      break;
    case TE_FABS: /* |(|x|)| = |x|, |-x| = |x| */
      if (a->op == TE_FABS)
        return a;
      if (a->op == TE_NEG)
        return te_unary (ctx, TE_FABS, a->args[0]);
      break;
    default:
      break;
    }
  if (a->op == TE_CONST && te_type_is_float (a->type))
    {
      te_node *r = fold_unary_float (ctx, op, a);
      if (r)
        return r;
    }
  return make_op (ctx, op, type, a, NULL, NULL);
}

static bool
commutative (te_op op)
{
  switch (op)
    {
    case TE_ADD:
    case TE_MUL:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
      return true;
    default:
      return false;
    }
}

static te_node *
fold_int_binary (te_ctx *ctx, te_op op, int64_t a, int64_t b)
{
  switch (op)
    {
    case TE_ADD:
      return te_int (ctx, (int64_t) ((uint64_t) a + (uint64_t) b));
    case TE_SUB:
      return te_int (ctx, (int64_t) ((uint64_t) a - (uint64_t) b));
    case TE_MUL:
      return te_int (ctx, (int64_t) ((uint64_t) a * (uint64_t) b));
    case TE_DIV:
      return b != 0 && !(a == INT64_MIN && b == -1) ? te_int (ctx, a / b)
                                                     : NULL;
    case TE_MOD:
      return b != 0 && !(a == INT64_MIN && b == -1) ? te_int (ctx, a % b)
                                                     : NULL;
    case TE_MIN:
      return te_int (ctx, a < b ? a : b);
    case TE_MAX:
      return te_int (ctx, a > b ? a : b);
    case TE_LT:
      return te_bool (ctx, a < b);
    case TE_LE:
      return te_bool (ctx, a <= b);
    case TE_GT:
      return te_bool (ctx, a > b);
    case TE_GE:
      return te_bool (ctx, a >= b);
    case TE_EQ:
      return te_bool (ctx, a == b);
    case TE_NE:
      return te_bool (ctx, a != b);
    case TE_AND:
      return te_bool (ctx, a && b);
    case TE_OR:
      return te_bool (ctx, a || b);
    default:
      return NULL;
    }
}

static te_node *
fold_float_binary (te_ctx *ctx, te_op op, te_type type, double a, double b)
{
  double r;
  switch (op)
    {
    case TE_ADD:
      r = a + b;
      break;
    case TE_SUB:
      r = a - b;
      break;
    case TE_MUL:
      r = a * b;
      break;
    case TE_DIV:
      if (b == 0)
        return NULL;
      r = a / b;
      break;
    default:
      return NULL;
    }
  if (type == TE_F32)
    r = (float) r;
  return te_float (ctx, type, r);
}

/* Identities of + - * / that hold for every operand we meet (see te.h).  */
static te_node *
simplify_arith (te_ctx *ctx, te_op op, te_node *a, te_node *b)
{
  switch (op)
    {
    case TE_ADD:
      if (te_is_const (a, 0))
        return b;
      if (te_is_const (b, 0))
        return a;
      if (b->op == TE_NEG)
        return te_binary (ctx, TE_SUB, a, b->args[0]);
      if (a->op == TE_NEG)
        return te_binary (ctx, TE_SUB, b, a->args[0]);
      break;
    case TE_SUB:
      if (te_is_const (b, 0))
        return a;
      if (te_is_const (a, 0))
        return te_unary (ctx, TE_NEG, b);
      if (a == b && !te_type_is_float (a->type))
        return te_int (ctx, 0);
      if (b->op == TE_NEG)
        return te_binary (ctx, TE_ADD, a, b->args[0]);
      break;
    case TE_MUL:
      if (te_is_const (a, 0) || te_is_const (b, 0))
        return te_type_is_float (a->type) ? te_float (ctx, a->type, 0)
                                          : te_int (ctx, 0);
      if (te_is_const (a, 1))
        return b;
      if (te_is_const (b, 1))
        return a;
      if (te_is_const (a, -1))
        return te_unary (ctx, TE_NEG, b);
      if (te_is_const (b, -1))
        return te_unary (ctx, TE_NEG, a);
      if (a->op == TE_NEG && b->op == TE_NEG)
        return te_binary (ctx, TE_MUL, a->args[0], b->args[0]);
      if (a->op == TE_NEG)
        return te_unary (ctx, TE_NEG, te_binary (ctx, TE_MUL, a->args[0], b));
      if (b->op == TE_NEG)
        return te_unary (ctx, TE_NEG, te_binary (ctx, TE_MUL, a, b->args[0]));
      break;
    case TE_DIV:
      if (te_is_const (b, 1))
        return a;
      if (te_is_const (a, 0) && te_type_is_float (a->type))
        return a;
      if (a->op == TE_NEG && te_type_is_float (a->type))
        return te_unary (ctx, TE_NEG, te_binary (ctx, TE_DIV, a->args[0], b));
      break;
    default:
      break;
    }
  return NULL;
}

static bool
is_compare (te_op op)
{
  return op == TE_LT || op == TE_LE || op == TE_GT || op == TE_GE
         || op == TE_EQ || op == TE_NE;
}

te_node *
te_binary (te_ctx *ctx, te_op op, te_node *a, te_node *b)
{
  if (!a || !b)
    return NULL;
  te_type type = a->type;
  if (is_compare (op) || op == TE_AND || op == TE_OR)
    type = TE_BOOL;
  if (a->op == TE_CONST && b->op == TE_CONST)
    {
      te_node *r = NULL;
      if (te_type_is_float (a->type))
        r = fold_float_binary (ctx, op, a->type, a->u.f, b->u.f);
      else
        r = fold_int_binary (ctx, op, a->u.i, b->u.i);
      if (r)
        return r;
    }
  switch (op)
    {
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_DIV:
      {
        te_node *r = simplify_arith (ctx, op, a, b);
        if (r)
          return r;
        break;
      }
    case TE_AND:
      if (a->op == TE_CONST)
        return a->u.i ? b : a;
      if (b->op == TE_CONST)
        return b->u.i ? a : b;
      if (a == b)
        return a;
      break;
    case TE_OR:
      if (a->op == TE_CONST)
        return a->u.i ? a : b;
      if (b->op == TE_CONST)
        return b->u.i ? b : a;
      if (a == b)
        return a;
      break;
    case TE_MOD:
      if (te_is_const (b, 1))
        return te_int (ctx, 0);
      break;
    default:
      break;
    }
  if (commutative (op) && a->id > b->id)
    {
      te_node *t = a;
      a = b;
      b = t;
    }
  return make_op (ctx, op, type, a, b, NULL);
}

te_node *
te_select (te_ctx *ctx, te_node *c, te_node *a, te_node *b)
{
  if (!c || !a || !b)
    return NULL;
  if (c->op == TE_CONST)
    return c->u.i ? a : b;
  if (a == b)
    return a;
  if (c->op == TE_NOT)
    return te_select (ctx, c->args[0], b, a);
  /* Inside the true arm C holds, inside the false arm it does not.  */
  if (a->op == TE_SELECT && a->args[0] == c)
    return te_select (ctx, c, a->args[1], b);
  if (b->op == TE_SELECT && b->args[0] == c)
    return te_select (ctx, c, a, b->args[2]);
  if (te_type_is_float (a->type) && te_is_const (a, 0) && te_is_const (b, 0))
    return a;
  return make_op (ctx, TE_SELECT, a->type, c, a, b);
}

te_node *
te_cast (te_ctx *ctx, te_type type, te_node *a)
{
  if (!a)
    return NULL;
  if (a->type == type)
    return a;
  if (a->op == TE_CONST)
    {
      if (te_type_is_float (type))
        return te_float (ctx, type,
                         te_type_is_float (a->type) ? a->u.f
                                                    : (double) a->u.i);
      if (!te_type_is_float (a->type))
        switch (type)
          {
          case TE_I64:
            return te_int (ctx, a->u.i);
          case TE_BOOL:
            return te_bool (ctx, a->u.i != 0);
          default:
            break;
          }
    }
  return make_op (ctx, TE_CAST, type, a, NULL, NULL);
}


/* ---- walking ----------------------------------------------------------- */

typedef struct visited
{
  const te_node **items;
  size_t n, cap;
} visited;

static bool
seen (visited *v, const te_node *n)
{
  /* Linear probing open hash over node pointers.  */
  if (v->n * 2 >= v->cap)
    {
      size_t cap = v->cap ? v->cap * 2 : 64;
      const te_node **items = calloc (cap, sizeof *items);
      if (!items)
        abort ();
      for (size_t i = 0; i < v->cap; i++)
        if (v->items[i])
          {
            size_t j = (size_t) v->items[i]->id & (cap - 1);
            while (items[j])
              j = (j + 1) & (cap - 1);
            items[j] = v->items[i];
          }
      free (v->items);
      v->items = items;
      v->cap = cap;
    }
  size_t j = (size_t) n->id & (v->cap - 1);
  while (v->items[j])
    {
      if (v->items[j] == n)
        return true;
      j = (j + 1) & (v->cap - 1);
    }
  v->items[j] = n;
  v->n++;
  return false;
}

void *
te_memo_get (const te_memo *m, const te_node *n)
{
  if (!m->cap)
    return NULL;
  size_t j = ((size_t) n->id * 0x9e3779b1u) & (m->cap - 1);
  while (m->keys[j] >= 0)
    {
      if (m->keys[j] == n->id)
        return m->vals[j];
      j = (j + 1) & (m->cap - 1);
    }
  return NULL;
}

static void
memo_insert (int *keys, void **vals, size_t cap, int key, void *v)
{
  size_t j = ((size_t) key * 0x9e3779b1u) & (cap - 1);
  while (keys[j] >= 0 && keys[j] != key)
    j = (j + 1) & (cap - 1);
  keys[j] = key;
  vals[j] = v;
}

void
te_memo_put (te_memo *m, const te_node *n, void *v)
{
  if ((m->n + 1) * 2 > m->cap)
    {
      size_t cap = m->cap ? m->cap * 2 : 64;
      int *keys = malloc (cap * sizeof *keys);
      void **vals = malloc (cap * sizeof *vals);
      if (!keys || !vals)
        abort (); /* out of memory */
      memset (keys, 0xff, cap * sizeof *keys);
      for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] >= 0)
          memo_insert (keys, vals, cap, m->keys[i], m->vals[i]);
      free (m->keys);
      free (m->vals);
      m->keys = keys;
      m->vals = vals;
      m->cap = cap;
    }
  size_t before = m->n;
  if (!te_memo_get (m, n))
    m->n = before + 1;
  memo_insert (m->keys, m->vals, m->cap, n->id, v);
}

void
te_memo_free (te_memo *m)
{
  free (m->keys);
  free (m->vals);
  memset (m, 0, sizeof *m);
}

static void
walk_1 (te_node *n, void (*fn) (te_node *, void *), void *data, visited *v)
{
  if (!n || seen (v, n))
    return;
  te_walk_count (n->ctx, TE_WALK_QUERY, 1);
  for (int i = 0; i < 3; i++)
    walk_1 (n->args[i], fn, data, v);
  if (n->op == TE_REDUCE)
    for (int i = 0; i < n->u.red.nloops; i++)
      walk_1 (n->u.red.loops[i].extent, fn, data, v);
  fn (n, data);
}

void
te_walk (te_node *n, void (*fn) (te_node *, void *), void *data)
{
  visited v = { 0 };
  walk_1 (n, fn, data, &v);
  free (v.items);
}

typedef struct binder_query
{
  int var;
  te_node *reduce;
  const te_loop *loop;
} binder_query;

static void
binder_fn (te_node *n, void *data)
{
  binder_query *q = data;
  if (n->op == TE_REDUCE)
    for (int k = 0; k < n->u.red.nloops; k++)
      if (n->u.red.loops[k].var == q->var)
        {
          q->reduce = n;
          q->loop = &n->u.red.loops[k];
        }
}

const te_loop *
te_binding_loop (const te_node *n, int var)
{
  binder_query q = { var, NULL, NULL };
  te_walk ((te_node *) n, binder_fn, &q);
  return q.loop;
}

te_node *
te_binding_reduce (const te_node *n, int var)
{
  binder_query q = { var, NULL, NULL };
  te_walk ((te_node *) n, binder_fn, &q);
  return q.reduce;
}

typedef struct loads_query
{
  const te_tensor *t;
  te_node **loads;
  int n, max;
} loads_query;

static void
loads_fn (te_node *n, void *data)
{
  loads_query *q = data;
  if (n->op != TE_LOAD || n->u.tensor != q->t)
    return;
  if (q->n >= 0 && q->n < q->max)
    q->loads[q->n++] = n;
  else
    q->n = -1;
}

int
te_loads_of (te_node *n, const te_tensor *t, te_node **loads, int max)
{
  loads_query q = { t, loads, 0, max };
  te_walk (n, loads_fn, &q);
  return q.n;
}

/* ---- stages ------------------------------------------------------------- */

bool
te_sizes_read (const te_program *p, const te_tensor *t)
{
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->size && te_reads (p->tensors[i]->size, t))
      return true;
  return false;
}

bool
te_stage_accesses (const te_stage *s, const te_tensor *t)
{
  if (s->call)
    return te_call_passes (s, t, true) || te_call_passes (s, t, false);
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t || te_stmt_reads (&s->stmts[k], t))
      return true;
  return false;
}

bool
te_stmt_reads (const te_stmt *x, const te_tensor *t)
{
  return te_reads (x->value, t) || te_reads (x->index, t)
         || (x->guard && te_reads (x->guard, t));
}

te_type
te_call_elem_type (const te_call *c)
{
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].tensor)
      return c->args[i].tensor->type;
  return TE_F64;
}

bool
te_call_passes (const te_stage *s, const te_tensor *t, bool read)
{
  const te_call *c = s->call;
  if (!c)
    return false;
  if (!read && c->ret == t && !c->grad)
    return true;
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->adj == t && c->grad)
        return true;
      if (a->tensor == t && (c->grad ? read : a->writes != read))
        return true;
      if (read && a->value && te_reads (a->value, t))
        return true;
      if (read && a->offset && te_reads (a->offset, t))
        return true;
    }
  return read && c->d_return && te_reads (c->d_return, t);
}

bool
te_stage_writes (const te_stage *s, const te_tensor *t)
{
  for (int k = 0; k < s->nstmts; k++)
    if (s->stmts[k].dst == t)
      return true;
  return te_call_passes (s, t, false);
}

int
te_shared_loops (const te_stage *a, const te_stage *b)
{
  int n = 0;
  while (n < a->nloops && n < b->nloops && a->loop_ids[n]
         && a->loop_ids[n] == b->loop_ids[n])
    n++;
  return n;
}

int
te_stage_loop_mask (const te_stage *s, const te_node *n, int nvars)
{
  int mask = 0;
  for (int v = 0; v < nvars; v++)
    {
      if (!te_uses_var (n, v))
        continue;
      int k;
      for (k = 0; k < s->nloops; k++)
        if (s->loops[k].var == v)
          break;
      if (k == s->nloops)
        return -1;
      mask |= 1 << k;
    }
  return mask;
}

bool
te_stage_empty (const te_stage *s)
{
  return s->nstmts == 0 && !s->call;
}

te_stage *
te_program_take_stages (te_program *p, int *n)
{
  *n = p->nstages;
  te_stage *old = te_alloc (p->ctx, (*n ? *n : 1) * sizeof *old);
  memcpy (old, p->stages, *n * sizeof *old);
  p->nstages = 0;
  p->stages = NULL;
  return old;
}

void
te_program_drop_empty (te_program *p)
{
  int out = 0;
  for (int s = 0; s < p->nstages; s++)
    if (!te_stage_empty (&p->stages[s]))
      p->stages[out++] = p->stages[s];
  p->nstages = out;
}

typedef struct reads_query
{
  const te_tensor *t;
  int var;
  bool found;
} reads_query;

static void
reads_fn (te_node *n, void *data)
{
  reads_query *q = data;
  if (n->op == TE_LOAD && (!q->t || n->u.tensor == q->t))
    q->found = true;
}

bool
te_reads (const te_node *n, const te_tensor *t)
{
  reads_query q = { t, -1, false };
  te_walk ((te_node *) n, reads_fn, &q);
  return q.found;
}

typedef struct contains_query
{
  const te_node *x;
  bool found;
} contains_query;

static void
contains_fn (te_node *n, void *data)
{
  contains_query *q = data;
  if (n == q->x)
    q->found = true;
}

bool
te_contains (const te_node *n, const te_node *x)
{
  contains_query q = { x, false };
  te_walk ((te_node *) n, contains_fn, &q);
  return q.found;
}

static bool
uses_var_free_1 (const te_node *n, int var, te_memo *m)
{
  if (!n)
    return false;
  if (n->op == TE_VAR)
    return n->u.index == var;
  if (n->op == TE_CONST || n->op == TE_PARAM)
    return false;
  void *known = te_memo_get (m, n);
  if (known)
    return known == TE_MEMO_TRUE;
  te_walk_count (n->ctx, TE_WALK_QUERY, 1);
  bool r = false, bound = false;
  if (n->op == TE_REDUCE)
    for (int k = 0; k < n->u.red.nloops && !r && !bound; k++)
      {
        if (n->u.red.loops[k].var == var)
          {
            r = uses_var_free_1 (n->args[0], var, m);
            bound = true;
          }
        else if (uses_var_free_1 (n->u.red.loops[k].extent, var, m))
          r = true;
      }
  for (int i = 0; i < 3 && !r && !bound; i++)
    r = uses_var_free_1 (n->args[i], var, m);
  te_memo_put (m, n, r ? TE_MEMO_TRUE : TE_MEMO_FALSE);
  return r;
}

bool
te_contains_memo (const te_node *n, const te_node *x, te_memo *m)
{
  if (!n)
    return false;
  if (n == x)
    return true;
  void *known = te_memo_get (m, n);
  if (known)
    return known == TE_MEMO_TRUE;
  te_walk_count (n->ctx, TE_WALK_QUERY, 1);
  bool r = false;
  for (int i = 0; i < 3 && !r; i++)
    r = te_contains_memo (n->args[i], x, m);
  if (n->op == TE_REDUCE)
    for (int i = 0; i < n->u.red.nloops && !r; i++)
      r = te_contains_memo (n->u.red.loops[i].extent, x, m);
  te_memo_put (m, n, r ? TE_MEMO_TRUE : TE_MEMO_FALSE);
  return r;
}

static bool
zero_if_null_1 (const te_node *n, const te_tensor *t, te_memo *m)
{
  switch (n->op)
    {
    case TE_LOAD:
      return n->u.tensor == t;
    case TE_MUL:
    case TE_DIV:
    case TE_NEG:
    case TE_CAST:
    case TE_ADD:
    case TE_SUB:
    case TE_SELECT:
      break;
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
    case TE_MOD:
    case TE_MIN:
    case TE_MAX:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
    case TE_NOT:
    TE_CASE_MATH:
    case TE_REDUCE:
    case TE_NUM_OPS:
      return false;
    }
  void *known = te_memo_get (m, n);
  if (known)
    return known == TE_MEMO_TRUE;
  te_walk_count (n->ctx, TE_WALK_QUERY, 1);
  bool r;
  switch (n->op)
    {
    case TE_MUL:
      r = zero_if_null_1 (n->args[0], t, m) || zero_if_null_1 (n->args[1], t, m);
      break;
    case TE_ADD:
    case TE_SUB:
      r = zero_if_null_1 (n->args[0], t, m) && zero_if_null_1 (n->args[1], t, m);
      break;
    case TE_SELECT:
      r = zero_if_null_1 (n->args[1], t, m) && zero_if_null_1 (n->args[2], t, m);
      break;
    default: /* DIV, NEG, CAST */
      r = zero_if_null_1 (n->args[0], t, m);
      break;
    }
  te_memo_put (m, n, r ? TE_MEMO_TRUE : TE_MEMO_FALSE);
  return r;
}

bool
te_zero_if_null (const te_node *n, const te_tensor *t)
{
  te_memo m = { 0 };
  bool r = zero_if_null_1 (n, t, &m);
  te_memo_free (&m);
  return r;
}

bool
te_uses_var_free (const te_node *n, int var)
{
  te_memo m = { 0 };
  bool r = uses_var_free_1 (n, var, &m);
  te_memo_free (&m);
  return r;
}

static void
uses_var_fn (te_node *n, void *data)
{
  reads_query *q = data;
  if (n->op == TE_VAR && n->u.index == q->var)
    q->found = true;
}

bool
te_uses_var (const te_node *n, int var)
{
  reads_query q = { NULL, var, false };
  te_walk ((te_node *) n, uses_var_fn, &q);
  return q.found;
}

te_node *
te_rebuild (te_ctx *ctx, te_node *n, te_node **args)
{
  switch (n->op)
    {
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
      return n;
    case TE_LOAD:
      return te_load (ctx, n->u.tensor, args[0]);
    case TE_CAST:
      return te_cast (ctx, n->type, args[0]);
    case TE_SELECT:
      return te_select (ctx, args[0], args[1], args[2]);
    case TE_REDUCE:
      return te_reduce_node (ctx, n->u.red.kind, n->u.red.nloops,
                             n->u.red.loops, args[0], args[1]);
    default:
      if (te_op_arity (n->op) == 1)
        return te_unary (ctx, n->op, args[0]);
      return te_binary (ctx, n->op, args[0], args[1]);
    }
}

static te_node *
replace_1 (te_ctx *ctx, te_node *n, te_node *from, te_node *to, te_memo *m)
{
  if (!n)
    return NULL;
  if (n == from)
    return to;
  te_node *r = te_memo_get (m, n);
  if (r)
    return r;
  te_walk_count (ctx, TE_WALK_REWRITE, 1);
  te_node *args[3] = { NULL, NULL, NULL };
  bool changed = false;
  for (int i = 0; i < 3; i++)
    {
      args[i] = replace_1 (ctx, n->args[i], from, to, m);
      changed |= args[i] != n->args[i];
    }
  if (n->op == TE_REDUCE)
    {
      /* The extents too (u < t + 1 inside a loop over t), as te_walk
         visits them.  */
      te_loop loops[TE_MAX_LOOPS];
      bool moved = false;
      for (int k = 0; k < n->u.red.nloops; k++)
        {
          loops[k] = n->u.red.loops[k];
          loops[k].extent = replace_1 (ctx, loops[k].extent, from, to, m);
          moved |= loops[k].extent != n->u.red.loops[k].extent;
        }
      if (moved)
        {
          r = te_reduce_node (ctx, n->u.red.kind, n->u.red.nloops, loops,
                              args[0], args[1]);
          te_memo_put (m, n, r);
          return r;
        }
    }
  r = changed ? te_rebuild (ctx, n, args) : n;
  te_memo_put (m, n, r);
  return r;
}

te_node *
te_replace_memo (te_ctx *ctx, te_node *n, te_node *from, te_node *to,
                 te_memo *m)
{
  return replace_1 (ctx, n, from, to, m);
}

te_node *
te_replace (te_ctx *ctx, te_node *n, te_node *from, te_node *to)
{
  te_memo m = { 0 };
  te_node *r = replace_1 (ctx, n, from, to, &m);
  te_memo_free (&m);
  return r;
}

/* ---- programs ---------------------------------------------------------- */

te_program *
te_program_new (te_ctx *ctx, const char *name)
{
  te_program *p = te_alloc (ctx, sizeof *p);
  p->ctx = ctx;
  p->name = te_strdup (ctx, name);
  p->ret_type = TE_BOOL;
  return p;
}

/* Grow the array *ITEMS of *N elements of SIZE bytes by one, in CTX.  */
static void *
append (te_ctx *ctx, void *items, int n, size_t size)
{
  /* Capacity is the next power of two: reallocate when N is one.  */
  if (n == 0 || (n & (n - 1)) == 0)
    {
      void *bigger = te_alloc (ctx, size * (n ? n * 2 : 1));
      if (n)
        memcpy (bigger, items, size * n);
      return bigger;
    }
  return items;
}

int
te_program_add_param (te_program *p, const char *name, te_param_kind kind,
                      te_type type, te_loc loc)
{
  p->params = append (p->ctx, p->params, p->nparams, sizeof *p->params);
  te_param *q = &p->params[p->nparams];
  q->name = te_strdup (p->ctx, name);
  q->kind = kind;
  q->type = type;
  q->shadow = -1;
  q->loc = loc;
  return p->nparams++;
}

te_tensor *
te_program_add_tensor (te_program *p, const char *name, te_type type,
                       te_tensor_kind kind, int param, te_loc loc)
{
  te_tensor *t = te_alloc (p->ctx, sizeof *t);
  /* Above every id in use: a pass may have dropped a tensor before.  */
  t->id = 0;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->id >= t->id)
      t->id = p->tensors[i]->id + 1;
  t->name = te_strdup (p->ctx, name);
  t->type = type;
  t->kind = kind;
  t->param = param;
  t->loc = loc;
  p->tensors = append (p->ctx, p->tensors, p->ntensors, sizeof *p->tensors);
  p->tensors[p->ntensors++] = t;
  if (kind == TE_TK_PARAM || kind == TE_TK_SCALAR)
    if (param >= 0 && param < p->nparams)
      p->params[param].tensor = t;
  return t;
}

bool
te_program_reads (const te_program *p, const te_tensor *t)
{
  for (int s = 0; s < p->nstages; s++)
    if (te_call_passes (&p->stages[s], t, true))
      return true;
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nstmts; k++)
      {
        const te_stmt *st = &p->stages[s].stmts[k];
        if (te_reads (st->value, t) || te_reads (st->index, t)
            || (st->guard && te_reads (st->guard, t)))
          return true;
        for (int i = 0; i < st->ninner; i++)
          if (te_reads (st->inner[i].extent, t))
            return true;
      }
  for (int s = 0; s < p->nstages; s++)
    for (int k = 0; k < p->stages[s].nloops; k++)
      if (te_reads (p->stages[s].loops[k].extent, t))
        return true;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->size && te_reads (p->tensors[i]->size, t))
      return true;
  return false;
}

void
te_program_drop_unread_statics (te_program *p)
{
  int out = 0;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->kind != TE_TK_STATIC
        || te_program_reads (p, p->tensors[i]))
      p->tensors[out++] = p->tensors[i];
  p->ntensors = out;
  for (int i = 0; i < p->ntensors; i++)
    p->tensors[i]->id = i; /* te_program_add_tensor numbers from NTENSORS */
}

bool
te_reads_in_reduction (const te_node *n, const te_tensor *t)
{
  if (!n || !te_reads (n, t))
    return false;
  if (n->op == TE_REDUCE)
    return true;
  for (int i = 0; i < te_op_arity (n->op); i++)
    if (te_reads_in_reduction (n->args[i], t))
      return true;
  return false;
}

te_tensor *
te_program_add_static (te_program *p, const char *name, te_type type,
                       int64_t n, const double *init, bool constant,
                       void *decl, te_loc loc)
{
  te_tensor *t = te_program_add_tensor (p, name, type, TE_TK_STATIC, -1, loc);
  t->size = te_int (p->ctx, n);
  t->constant = constant;
  t->decl = decl;
  if (init)
    {
      double *v = te_alloc (p->ctx, (n ? n : 1) * sizeof *v);
      memcpy (v, init, n * sizeof *v);
      t->init = v;
    }
  return t;
}

void
te_program_share_tensor (te_program *p, te_tensor *t)
{
  p->tensors = append (p->ctx, p->tensors, p->ntensors, sizeof *p->tensors);
  p->tensors[p->ntensors++] = t;
}

bool
te_loops_equal (const te_loop *a, const te_loop *b, int n)
{
  for (int i = 0; i < n; i++)
    if (a[i].var != b[i].var || a[i].extent != b[i].extent
        || a[i].start != b[i].start)
      return false;
  return true;
}

const char *
te_program_var_name (const te_program *p, int var)
{
  return p->var_names && var >= 0 && var < p->nvars && p->var_names[var]
             ? p->var_names[var]
             : "?";
}

int
te_program_new_var (te_program *p, const char *name)
{
  p->var_names = append (p->ctx, p->var_names, p->nvars,
                         sizeof *p->var_names);
  p->var_names[p->nvars] = te_strdup (p->ctx, name);
  p->var_loops = append (p->ctx, p->var_loops, p->nvars,
                         sizeof *p->var_loops);
  p->var_loops[p->nvars] = 0;
  return p->nvars++;
}

void
te_program_set_var_loop (te_program *p, int var, int loop_id)
{
  if (var >= 0 && var < p->nvars && p->var_loops)
    p->var_loops[var] = loop_id;
}

void
te_program_set_parallel_loop (te_program *p, int loop_id)
{
  for (int i = 0; i < p->nparallel; i++)
    if (p->parallel_loops[i] == loop_id)
      return;
  p->parallel_loops = append (p->ctx, p->parallel_loops, p->nparallel,
                              sizeof *p->parallel_loops);
  p->parallel_loops[p->nparallel++] = loop_id;
}

bool
te_program_var_parallel (const te_program *p, int var)
{
  int id = te_program_var_loop (p, var);
  for (int i = 0; id && i < p->nparallel; i++)
    if (p->parallel_loops[i] == id)
      return true;
  return false;
}

int
te_program_var_loop (const te_program *p, int var)
{
  return var >= 0 && var < p->nvars && p->var_loops ? p->var_loops[var] : 0;
}

void
te_program_add_timed_read (te_program *p, const te_tensor *t, int var,
                           unsigned pos, int loop_id)
{
  for (int i = 0; i < p->ntimed; i++)
    if (p->timed[i].tensor == t && p->timed[i].var == var
        && p->timed[i].pos == pos)
      return;
  p->timed = append (p->ctx, p->timed, p->ntimed, sizeof *p->timed);
  p->timed[p->ntimed++] = (te_timed_read){ t, var, pos, loop_id };
}

te_stage *
te_program_add_stage (te_program *p, te_loc loc)
{
  p->stages = append (p->ctx, p->stages, p->nstages, sizeof *p->stages);
  te_stage *s = &p->stages[p->nstages++];
  memset (s, 0, sizeof *s);
  s->loc = loc;
  return s;
}

te_stage *
te_program_insert_stage (te_program *p, int at, te_loc loc)
{
  te_program_add_stage (p, loc);
  memmove (&p->stages[at + 1], &p->stages[at],
           (p->nstages - 1 - at) * sizeof *p->stages);
  te_stage *s = &p->stages[at];
  memset (s, 0, sizeof *s);
  s->loc = loc;
  return s;
}

int
te_program_group (const te_program *p, int s)
{
  int n = 1, group = p->stages[s].group;
  while (group && s + n < p->nstages && p->stages[s + n].group == group)
    n++;
  return n;
}

te_stage
te_stage_in_group (const te_stage *s)
{
  te_stage in = *s;
  memmove (&in.loops[0], &in.loops[1], (in.nloops - 1) * sizeof *in.loops);
  in.nloops--;
  return in;
}

te_stmt *
te_stage_add_stmt (te_program *p, te_stage *s, te_tensor *dst,
                   te_node *index, te_store op, te_node *value,
                   te_node *guard, te_loc loc)
{
  s->stmts = append (p->ctx, s->stmts, s->nstmts, sizeof *s->stmts);
  te_stmt *st = &s->stmts[s->nstmts++];
  /* The slot may hold a statement removed before (te_program_drop_unread).  */
  memset (st, 0, sizeof *st);
  st->dst = dst;
  st->index = index;
  st->op = op;
  st->value = value;
  st->guard = guard && !(guard->op == TE_CONST && guard->u.i) ? guard : NULL;
  st->loc = loc;
  return st;
}

void
te_stage_add_loop (te_stage *s, int var, te_node *extent)
{
  te_assert (s->nloops < TE_MAX_LOOPS);
  s->loops[s->nloops] = (te_loop) { .var = var, .extent = extent };
  s->nloops++;
}

/* ---- retargeting --------------------------------------------------------- */

typedef struct retarget
{
  te_ctx *ctx;
  te_tensor *from, *to;
  te_memo memo;
} retarget;

static te_node *
retarget_1 (retarget *r, te_node *n)
{
  if (!n || !te_reads (n, r->from))
    return n;
  te_node *done = te_memo_get (&r->memo, n);
  if (done)
    return done;
  te_node *args[3];
  for (int i = 0; i < 3; i++)
    args[i] = retarget_1 (r, n->args[i]);
  te_node *out;
  if (n->op == TE_LOAD && n->u.tensor == r->from)
    out = te_load (r->ctx, r->to, args[0]);
  else if (n->op == TE_REDUCE)
    {
      te_loop loops[TE_MAX_LOOPS];
      for (int k = 0; k < n->u.red.nloops; k++)
        {
          loops[k] = n->u.red.loops[k];
          loops[k].extent = retarget_1 (r, loops[k].extent);
        }
      out = te_reduce_node (r->ctx, n->u.red.kind, n->u.red.nloops, loops,
                            args[0], args[1]);
    }
  else
    out = te_rebuild (r->ctx, n, args);
  te_memo_put (&r->memo, n, out);
  return out;
}

void
te_program_retarget (te_program *p, te_tensor *from, te_tensor *to)
{
  retarget r = { p->ctx, from, to, { 0 } };
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i]->size)
      p->tensors[i]->size = retarget_1 (&r, p->tensors[i]->size);
  for (int s = 0; s < p->nstages; s++)
    {
      te_stage *st = &p->stages[s];
      for (int k = 0; k < st->nloops; k++)
        st->loops[k].extent = retarget_1 (&r, st->loops[k].extent);
      for (int k = 0; k < st->nstmts; k++)
        {
          te_stmt *x = &st->stmts[k];
          if (x->dst == from)
            x->dst = to;
          x->value = retarget_1 (&r, x->value);
          x->index = retarget_1 (&r, x->index);
          if (x->guard)
            x->guard = retarget_1 (&r, x->guard);
          for (int i = 0; i < x->ninner; i++)
            x->inner[i].extent = retarget_1 (&r, x->inner[i].extent);
        }
      if (st->call)
        {
          te_call *c = st->call;
          for (int a = 0; a < c->nargs; a++)
            {
              te_call_arg *g = &c->args[a];
              if (g->tensor == from)
                g->tensor = to;
              if (g->adj == from)
                g->adj = to;
              g->value = retarget_1 (&r, g->value);
              g->offset = retarget_1 (&r, g->offset);
            }
          if (c->ret == from)
            c->ret = to;
          c->d_return = retarget_1 (&r, c->d_return);
        }
    }
  te_memo_free (&r.memo);
}

te_tensor *
te_program_own_copy (te_program *p, te_tensor *t)
{
  int at = -1;
  for (int i = 0; i < p->ntensors; i++)
    if (p->tensors[i] == t)
      at = i;
  if (at < 0)
    return t;
  te_tensor *c = te_program_add_tensor (p, t->name, t->type, t->kind,
                                        t->param, t->loc);
  int id = c->id;
  *c = *t;
  c->id = id;
  /* In T's place in the list.  */
  p->ntensors--;
  p->tensors[at] = c;
  te_program_retarget (p, t, c);
  return c;
}

/* Drop the local arrays of P that nothing reads (no statement, size or
   call), with the statements that write them, and the stages left empty;
   repeat until none is left.  */
void
te_program_drop_unread (te_program *p)
{
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (int i = 0; i < p->ntensors; i++)
        {
          te_tensor *t = p->tensors[i];
          if (t->kind != TE_TK_LOCAL || te_program_reads (p, t)
              || te_sizes_read (p, t))
            continue;
          bool called = false;
          for (int s = 0; s < p->nstages; s++)
            called |= p->stages[s].call && te_call_passes (&p->stages[s], t,
                                                           false);
          if (called)
            continue;
          for (int s = 0; s < p->nstages; s++)
            {
              te_stage *st = &p->stages[s];
              int out = 0;
              for (int k = 0; k < st->nstmts; k++)
                if (st->stmts[k].dst != t)
                  st->stmts[out++] = st->stmts[k];
              st->nstmts = out;
            }
          memmove (&p->tensors[i], &p->tensors[i + 1],
                   (p->ntensors - i - 1) * sizeof *p->tensors);
          p->ntensors--;
          i--;
          changed = true;
        }
    }
  te_program_drop_empty (p);
}

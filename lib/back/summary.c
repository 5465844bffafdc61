/* summary.c -- a synthesized gradient in figures (summary.h).

   Before:  the backward program, its lowering, and the decisions the
            passes noted in both programs (fuse:, reuse:, rows:, ...).
   After:   { nests 2, fused 1, reused 1, temp_bytes "4096" }

   1. Loop nests: walk the lowering's stages as the back ends emit them.
   2. Fused and reused: count the notes of fixed wording (README lists
      them; the dump tests match them) in the forward and the backward
      program.
   3. Temporaries: the sum of size times element size over the gradient's
      local arrays, its terms grouped by what remains of a size without
      its constant factors (8 * (H * 2) and 8 * (2 * H) are 32 * H),
      printed with the dump's printer; constants are one number.

   Limits: the figures describe the gradient before GCC optimizes it: GCC
   may split, fuse or vectorize its loops further.  */

#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "back/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1: the loop nests the back ends emit for stage G.  */
static int
stage_nests (const te_lw_stage *g)
{
  const te_stage *st = g->stage;
  if (g->shape == TE_LW_CALL)
    return 0;
  int own = 0;
  for (int k = 0; k < st->nstmts; k++)
    own += st->stmts[k].ninner > 0;
  if (st->nloops == 0)
    return own;
  return g->shape == TE_LW_EACH ? st->nstmts : 1;
}

/* Does NOTE begin with PREFIX?  */
static bool
begins (const char *note, const char *prefix)
{
  return !strncmp (note, prefix, strlen (prefix));
}

/* Step 2: add P's notes to S.  */
static void
count_notes (const te_program *p, te_summary *s)
{
  for (int i = 0; i < p->nnotes; i++)
    {
      const char *note = p->notes[i];
      int merged;
      if (begins (note, "fuse: "))
        s->fused++;
      else if (begins (note, "reuse: "))
        s->reused++;
      else if (sscanf (note, "rows: %d loop nests run as one", &merged) == 1
               && merged > 1)
        s->fused += merged - 1;
    }
}

/* The bytes of an element of type T.  */
static int
elem_bytes (te_type t)
{
  switch (t)
    {
    case TE_BOOL:
      return 1;
    case TE_I32:
    case TE_U32:
    case TE_F32:
      return 4;
    case TE_I64:
    case TE_F64:
      return 8;
    }
  return 8;
}

/* A term of step 3: COEF times the product of the factors of KEY that
   are no constant (NULL: the constant COEF).  */
typedef struct
{
  te_node *key;
  int64_t coef;
} term;

#define MAX_TERMS 64
#define MAX_FACTORS 16

/* Add BYTES bytes times SIZE to the NTERMS TERMS: a constant factor of
   SIZE goes into the coefficient, the rest is the term's key, shared by
   equal sizes (nodes are hash-consed).  False when there are too many
   terms or factors to keep.  */
static bool
add_term (te_ctx *ctx, term *terms, int *nterms, te_node *size, int bytes)
{
  te_node *f[MAX_FACTORS];
  int n = te_factors (size, f, MAX_FACTORS);
  if (n < 0)
    return false;
  int64_t coef = bytes;
  te_node *key = NULL;
  for (int i = 0; i < n; i++)
    if (f[i]->op == TE_CONST && !te_type_is_float (f[i]->type))
      coef *= f[i]->u.i;
    else
      key = key ? te_binary (ctx, TE_MUL, key, f[i]) : f[i];
  for (int i = 0; i < *nterms; i++)
    if (terms[i].key == key)
      {
        terms[i].coef += coef;
        return true;
      }
  if (*nterms == MAX_TERMS)
    return false;
  terms[*nterms].key = key;
  terms[(*nterms)++].coef = coef;
  return true;
}

/* Print the sum of the NTERMS TERMS of P's context into memory of it:
   "32 * H + 16 * (H + H * max (T, 0)) + 16", or "0".  */
static const char *
print_terms (const te_program *p, const term *terms, int nterms)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (!f)
    return "?";
  int64_t constant = 0;
  bool first = true;
  for (int i = 0; i < nterms; i++)
    {
      const term *t = &terms[i];
      if (!t->key)
        {
          constant += t->coef;
          continue;
        }
      /* In parentheses where "C * key" would read otherwise.  */
      te_op op = t->key->op;
      bool sum = op == TE_ADD || op == TE_SUB || op == TE_DIV
                 || op == TE_MOD || op == TE_NEG || op == TE_SELECT;
      fprintf (f, "%s%lld * %s%s%s", first ? "" : " + ", (long long) t->coef,
               sum ? "(" : "", te_node_string (p, t->key), sum ? ")" : "");
      first = false;
    }
  if (constant || first)
    fprintf (f, "%s%lld", first ? "" : " + ", (long long) constant);
  fclose (f);
  const char *r = te_strdup (p->ctx, buf);
  free (buf);
  return r;
}

void
te_summarize (const te_program *fwd, const te_program *bwd,
              const te_lowered *lw, te_summary *s)
{
  memset (s, 0, sizeof *s);
  for (int i = 0; i < lw->nstages; i++)
    s->nests += stage_nests (&lw->stages[i]);
  count_notes (fwd, s);
  count_notes (bwd, s);
  /* Step 3.  */
  term terms[MAX_TERMS];
  int nterms = 0;
  bool all = true;
  te_node *bytes = te_int (bwd->ctx, 0);
  for (int i = 0; i < bwd->ntensors; i++)
    {
      const te_tensor *t = bwd->tensors[i];
      if (t->kind != TE_TK_LOCAL || !t->size || te_is_const (t->size, 1))
        continue;
      int eb = elem_bytes (t->type);
      all = all && add_term (bwd->ctx, terms, &nterms, t->size, eb);
      bytes = te_binary (bwd->ctx, TE_ADD, bytes,
                         te_binary (bwd->ctx, TE_MUL, t->size,
                                    te_int (bwd->ctx, eb)));
    }
  /* Too many terms to group: the sum as the simplifier leaves it.  */
  s->temp_bytes = all ? print_terms (bwd, terms, nterms)
                      : te_node_string (bwd, bytes);
}

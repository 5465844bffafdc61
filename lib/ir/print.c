/* print.c -- readable dumps of TE nodes, stages and programs.

   The syntax is C's, with loops written as domains:

     stage 0: for i < n, j < m
       y[i*m + j] = tanh (x[i*m + j]);

   Shared subexpressions are printed in full wherever they occur: the dump
   shows what is computed, CSE decisions are reported separately.  Except
   where that would not be linear: a statement whose expression, printed
   as a tree, would be more than a few times larger than its DAG gets its
   shared subexpressions as numbered lets first,

     let %12 = x[i] * 0.5 + x[i] * 0.25;
     y[i] = sin (%12 * 0.5 + %12 * 0.25);

   and a single node printed on its own (a note) stops after a budget of
   nodes with "...".  */

#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "ir/te.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void
print_var (FILE *f, const te_program *p, int var)
{
  if (p && var < p->nvars && p->var_names[var])
    fprintf (f, "%s", p->var_names[var]);
  else
    fprintf (f, "v%d", var);
}

static int
precedence (const te_node *n)
{
  switch (n->op)
    {
    case TE_SELECT:
      return 1;
    case TE_OR:
      return 2;
    case TE_AND:
      return 3;
    case TE_EQ:
    case TE_NE:
      return 4;
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
      return 5;
    case TE_ADD:
    case TE_SUB:
      return 6;
    case TE_MUL:
    case TE_DIV:
    case TE_MOD:
      return 7;
    case TE_NEG:
    case TE_NOT:
      return 8;
    default:
      return 9;
    }
}

/* What printing one expression knows: nodes bound to lets, and how many
   more nodes it may print before it writes "..." (negative: no limit).  */
typedef struct printer
{
  te_memo *lets;
  bool limited;
  long budget;
} printer;

static void print_node_1 (FILE *f, const te_program *p, const te_node *n);

/* The printer of the current expression; NULL: plain.  */
static printer *cur_printer;

static void
print_node (FILE *f, const te_program *p, const te_node *n)
{
  printer *pr = cur_printer;
  if (pr && pr->lets && te_memo_get (pr->lets, n))
    {
      fprintf (f, "%%%d", n->id);
      return;
    }
  if (pr && pr->limited)
    {
      if (pr->budget == 0)
        {
          fputs ("...", f);
          return;
        }
      pr->budget--;
    }
  te_walk_count (n->ctx, TE_WALK_PRINT, 1);
  print_node_1 (f, p, n);
}

static void
print_operand (FILE *f, const te_program *p, const te_node *n, int prec)
{
  printer *pr = cur_printer;
  bool let = pr && pr->lets && te_memo_get (pr->lets, n);
  if (precedence (n) < prec && !let)
    {
      fputc ('(', f);
      print_node (f, p, n);
      fputc (')', f);
    }
  else
    print_node (f, p, n);
}

static void
print_loops (FILE *f, const te_program *p, int nloops, const te_loop *loops)
{
  for (int i = 0; i < nloops; i++)
    {
      fprintf (f, "%s", i ? ", " : "");
      if (loops[i].start)
        {
          print_node (f, p, loops[i].start);
          fprintf (f, " <= ");
        }
      print_var (f, p, loops[i].var);
      fprintf (f, " < ");
      print_node (f, p, loops[i].extent);
    }
}

static void
print_node_1 (FILE *f, const te_program *p, const te_node *n)
{
  int prec = precedence (n);
  switch (n->op)
    {
    case TE_CONST:
      if (te_type_is_float (n->type))
        fprintf (f, "%.17g%s", n->u.f, n->type == TE_F32 ? "f" : "");
      else if (n->type == TE_BOOL)
        fprintf (f, "%s", n->u.i ? "true" : "false");
      else
        fprintf (f, "%" PRId64, n->u.i);
      return;
    case TE_PARAM:
      if (p && n->u.index >= 0 && n->u.index < p->nparams)
        fprintf (f, te_is_nonnull (n) ? "nonnull (%s)" : "%s",
                 p->params[n->u.index].name);
      else
        fprintf (f, "param%d", n->u.index);
      return;
    case TE_VAR:
      print_var (f, p, n->u.index);
      return;
    case TE_LOAD:
      fprintf (f, "%s[", n->u.tensor->name);
      print_node (f, p, n->args[0]);
      fputc (']', f);
      return;
    case TE_NEG:
    case TE_NOT:
      fputs (te_op_name (n->op), f);
      print_operand (f, p, n->args[0], prec + 1);
      return;
    case TE_ADD:
    case TE_SUB:
    case TE_MUL:
    case TE_DIV:
    case TE_MOD:
    case TE_LT:
    case TE_LE:
    case TE_GT:
    case TE_GE:
    case TE_EQ:
    case TE_NE:
    case TE_AND:
    case TE_OR:
      print_operand (f, p, n->args[0], prec);
      fprintf (f, " %s ", te_op_name (n->op));
      print_operand (f, p, n->args[1], prec + 1);
      return;
    case TE_SELECT:
      print_operand (f, p, n->args[0], 2);
      fputs (" ? ", f);
      print_operand (f, p, n->args[1], 2);
      fputs (" : ", f);
      print_operand (f, p, n->args[2], 1);
      return;
    case TE_CAST:
      fprintf (f, "(%s) ", te_type_name (n->type));
      print_operand (f, p, n->args[0], 9);
      return;
    case TE_REDUCE:
      {
        static const char *const kinds[] = { "sum", "prod", "max", "min" };
        fprintf (f, "%s (", kinds[n->u.red.kind]);
        print_loops (f, p, n->u.red.nloops, n->u.red.loops);
        fputs ("; ", f);
        print_node (f, p, n->args[0]);
        fputs ("; ", f);
        print_node (f, p, n->args[1]);
        fputc (')', f);
        return;
      }
    case TE_MIN:
    case TE_MAX:
    TE_CASE_MATH:
      fprintf (f, "%s (", te_op_name (n->op));
      for (int i = 0; i < te_op_arity (n->op); i++)
        {
          if (i)
            fputs (", ", f);
          print_node (f, p, n->args[i]);
        }
      fputc (')', f);
      return;
    case TE_NUM_OPS:
      break;
    }
  fputs ("<?>", f);
}

/* The nodes a note prints at most.  */
#define NOTE_BUDGET 2000

void
te_node_dump (FILE *f, const te_program *p, const te_node *n)
{
  if (!n)
    {
      fputs ("<null>", f);
      return;
    }
  printer pr = { NULL, true, NOTE_BUDGET };
  printer *saved = cur_printer;
  if (!saved)
    cur_printer = &pr;
  print_node (f, p, n);
  cur_printer = saved;
}

/* The size of N printed as a tree, at most LIMIT; memoized in M.  */
static long
tree_size (const te_node *n, te_memo *m, long limit)
{
  if (!n)
    return 0;
  void *known = te_memo_get (m, n);
  if (known)
    return (long) (intptr_t) known - 1;
  te_walk_count (n->ctx, TE_WALK_PRINT, 1);
  long size = 1;
  for (int i = 0; i < 3; i++)
    {
      size += tree_size (n->args[i], m, limit);
      if (size > limit)
        size = limit;
    }
  te_memo_put (m, n, (void *) (intptr_t) (size + 1));
  return size;
}

/* Count in USES the uses of each node below N (each distinct node's
   operands once), and list the distinct nodes in post-order in ORDER.  */
static void
count_uses (const te_node *n, te_memo *uses, const te_node ***order,
            size_t *norder, size_t *cap)
{
  if (!n || n->op == TE_CONST || n->op == TE_PARAM || n->op == TE_VAR)
    return;
  intptr_t u = (intptr_t) te_memo_get (uses, n);
  te_memo_put (uses, n, (void *) (u ? u + 1 : 2));
  if (u)
    return;
  te_walk_count (n->ctx, TE_WALK_PRINT, 1);
  for (int i = 0; i < 3; i++)
    count_uses (n->args[i], uses, order, norder, cap);
  if (*norder == *cap)
    {
      *cap = *cap ? *cap * 2 : 64;
      *order = realloc (*order, *cap * sizeof **order);
      if (!*order)
        abort (); /* out of memory */
    }
  (*order)[(*norder)++] = n;
}

/* Statement ST: is it worth lets, its tree being much larger than its
   DAG?  Then bind its shared nodes in LETS and print the lets.  */
static bool
print_lets (FILE *f, const te_program *p, const te_stmt *st, te_memo *lets)
{
  te_memo sizes = { 0 };
  const long limit = 1L << 40;
  long tree = tree_size (st->value, &sizes, limit)
              + tree_size (st->index, &sizes, limit)
              + tree_size (st->guard, &sizes, limit);
  long dag = (long) sizes.n;
  te_memo_free (&sizes);
  if (tree <= 256 || tree <= 4 * dag)
    return false;
  te_memo uses = { 0 };
  const te_node **order = NULL;
  size_t norder = 0, cap = 0;
  count_uses (st->guard, &uses, &order, &norder, &cap);
  count_uses (st->index, &uses, &order, &norder, &cap);
  count_uses (st->value, &uses, &order, &norder, &cap);
  for (size_t i = 0; i < norder; i++)
    {
      const te_node *n = order[i];
      if ((intptr_t) te_memo_get (&uses, n) < 3)
        continue;
      if (n->op == TE_LOAD && (n->args[0]->op == TE_VAR
                               || n->args[0]->op == TE_CONST))
        continue;
      /* A let of a reduction's term names it outside the reduction: a
         notation of the dump, not a place of computation.  */
      fprintf (f, "    let %%%d = ", n->id);
      print_node_1 (f, p, n);
      fputs (";\n", f);
      te_memo_put (lets, n, TE_MEMO_TRUE);
    }
  free (order);
  te_memo_free (&uses);
  return true;
}

const char *
te_node_string (const te_program *p, const te_node *n)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (!f)
    return "?";
  te_node_dump (f, p, n);
  fclose (f);
  char *r = te_strdup (p->ctx, buf);
  free (buf);
  return r;
}

void
te_program_note (te_program *p, const char *fmt, ...)
{
  char line[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  const char **notes = te_alloc (p->ctx, (p->nnotes + 1) * sizeof *notes);
  if (p->nnotes)
    memcpy (notes, p->notes, p->nnotes * sizeof *notes);
  notes[p->nnotes++] = te_strdup (p->ctx, line);
  p->notes = notes;
}

const char *
te_require_text (const te_program *p, const te_require *r, const char *whose)
{
  char line[1400];
  if (te_reads (r->gap, NULL))
    snprintf (line, sizeof line, "the index arrays do not meet what %s "
              "gradient requires: %s", whose, r->why);
  else
    snprintf (line, sizeof line, "the sizes do not meet what %s gradient "
              "requires, %s >= 0: %s", whose, te_node_string (p, r->gap),
              r->why);
  return te_strdup (p->ctx, line);
}

void
te_program_require (te_program *p, te_node *gap, te_loc loc,
                    const char *fmt, ...)
{
  for (int i = 0; i < p->nrequires; i++)
    if (p->requires[i].gap == gap)
      return;
  char line[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  te_user_names (line);
  te_require *r = te_alloc (p->ctx, (p->nrequires + 1) * sizeof *r);
  if (p->nrequires)
    memcpy (r, p->requires, p->nrequires * sizeof *r);
  r[p->nrequires].gap = gap;
  r[p->nrequires].why = te_strdup (p->ctx, line);
  r[p->nrequires].loc = loc;
  p->nrequires++;
  p->requires = r;
  te_ctx_assume (p->ctx, gap);
  te_program_note (p, "require: %s >= 0: %s", te_node_string (p, gap), line);
}

/* A pointer argument: T + OFFSET, or T alone.  */
static void
print_pointer (FILE *f, const te_program *p, const te_tensor *t,
               const te_node *offset)
{
  fputs (t ? t->name : "NULL", f);
  if (t && offset && !te_is_const (offset, 0))
    {
      fputs (" + ", f);
      print_node (f, p, offset);
    }
}

/* call:  [ret[0] =] g (n, x + i * n, a.arg2[0]);
   or, for a gradient:  call g_grad (..., d_x + i * n, &d_a.arg2[0], d_r[0]);  */
static void
print_call (FILE *f, const te_program *p, const te_call *c)
{
  fputs ("call:\n    ", f);
  if (c->ret && !c->grad)
    fprintf (f, "%s[0] = ", c->ret->name);
  fprintf (f, "%s (", c->grad ? c->grad_name : c->name);
  for (int i = 0; i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (i)
        fputs (", ", f);
      if (a->kind == TE_PK_INT || a->kind == TE_PK_FLOAT)
        print_node (f, p, a->value);
      else
        print_pointer (f, p, a->tensor, a->offset);
    }
  for (int i = 0; c->grad && i < c->nargs; i++)
    {
      const te_call_arg *a = &c->args[i];
      if (a->kind != TE_PK_FLOAT && a->kind != TE_PK_PTR_FLOAT)
        continue;
      fputs (", ", f);
      if (a->kind == TE_PK_FLOAT && a->adj)
        fputs ("&", f);
      print_pointer (f, p, a->adj, a->offset);
      if (a->kind == TE_PK_FLOAT && a->adj)
        fputs ("[0]", f);
    }
  if (c->grad && c->d_return)
    {
      fputs (", ", f);
      print_node (f, p, c->d_return);
    }
  fputs (");\n", f);
}

void
te_stage_dump (FILE *f, const te_program *p, const te_stage *s)
{
  if (s->call)
    {
      print_call (f, p, s->call);
      return;
    }
  fputs (s->reversed ? "for (reversed) " : "for ", f);
  if (s->fused)
    fputs ("(fused) ", f);
  if (s->par)
    fputs ("(parallel) ", f);
  if (s->blas)
    fputs ("(blas) ", f);
  if (s->group)
    fprintf (f, "(group %d) ", s->group);
  if (s->nloops == 0)
    fputs ("()", f);
  print_loops (f, p, s->nloops, s->loops);
  fputs (":\n", f);
  for (int i = 0; i < s->nstmts; i++)
    {
      const te_stmt *st = &s->stmts[i];
      te_memo lets = { 0 };
      printer pr = { &lets, false, 0 };
      printer *saved = cur_printer;
      cur_printer = &pr;
      print_lets (f, p, st, &lets);
      fputs ("    ", f);
      if (st->guard)
        {
          fputs ("if (", f);
          print_node (f, p, st->guard);
          fputs (") ", f);
        }
      if (st->ninner)
        {
          fputs ("for ", f);
          print_loops (f, p, st->ninner, st->inner);
          fputs (": ", f);
        }
      fprintf (f, "%s[", st->dst->name);
      print_node (f, p, st->index);
      fprintf (f, "] %s ", st->op == TE_SET ? "=" : "+=");
      print_node (f, p, st->value);
      fputs (";\n", f);
      cur_printer = saved;
      te_memo_free (&lets);
    }
}

static const char *
role_name (te_role r)
{
  switch (r)
    {
    case TE_ROLE_UNUSED:
      return "unused";
    case TE_ROLE_INPUT:
      return "input";
    case TE_ROLE_OUTPUT:
      return "output";
    case TE_ROLE_INOUT:
      return "in-out";
    case TE_ROLE_TEMP:
      return "temporary";
    }
  return "?";
}

void
te_program_dump_notes (FILE *f, const te_program *p, int from)
{
  for (int i = from; i < p->nnotes; i++)
    fprintf (f, "  %s\n", p->notes[i]);
}

void
te_program_dump (FILE *f, const te_program *p)
{
  te_program_dump_body (f, p);
  te_program_dump_notes (f, p, 0);
}

void
te_program_dump_body (FILE *f, const te_program *p)
{
  fprintf (f, "program %s (", p->name);
  for (int i = 0; i < p->nparams; i++)
    {
      const te_param *q = &p->params[i];
      fprintf (f, "%s%s %s%s", i ? ", " : "", te_type_name (q->type),
               q->kind == TE_PK_PTR_FLOAT || q->kind == TE_PK_PTR_INT ? "*"
                                                                       : "",
               q->name);
    }
  fprintf (f, ")%s%s\n", p->ret ? " returns " : "",
           p->ret ? te_type_name (p->ret_type) : "");
  for (int i = 0; i < p->ntensors; i++)
    {
      const te_tensor *t = p->tensors[i];
      fprintf (f, "  tensor %s: %s, %s", t->name, te_type_name (t->type),
               role_name (t->role));
      if (t->kind == TE_TK_STATIC)
        fputs (t->constant ? ", constant table" : ", global", f);
      if (t->size)
        {
          fputs (", size ", f);
          print_node (f, p, t->size);
        }
      fputc ('\n', f);
    }
  for (int i = 0; i < p->nrequires; i++)
    {
      fputs ("  requires ", f);
      print_node (f, p, p->requires[i].gap);
      fprintf (f, " >= 0: %s\n", p->requires[i].why);
    }
  for (int i = 0; i < p->nstages; i++)
    {
      fprintf (f, "  stage %d: ", i);
      te_stage_dump (f, p, &p->stages[i]);
    }
}

/* cgen-text.c -- the text of the C writer (cgen.c): growing strings,
   blocks of statements, and the breaking of long lines.  Nothing here
   knows the TE: it is C text and C's operator precedence.

   Before (one line of 84 columns, cut here at 79):
       d_x[i] += d_y[i] * (1.0 - tanh (x[i]) * tanh (x[i])) + d_z[i] * ...
   After:
       d_x[i] += d_y[i] * (1.0 - tanh (x[i]) * tanh (x[i]))
                 + d_z[i] * (1.0 - cosh (x[i]));

   1. An sbuf is a string that grows as it is printed to.  A block is the
      text of statements at one column; a for or an if takes a block as
      its body (blk_compound, blk_if_else) by indenting its lines, in
      braces when it holds more than one statement, GNU style.
   2. cg_wrap_lines breaks each line longer than WIDTH columns: while a
      character passes WIDTH, it breaks at the best space before it (the
      outermost parenthesis level, the loosest operator, the last such),
      then lays the line out again.  The operator after a break starts
      the continuation line under the operand it continues (after an
      assignment, under the right-hand side); after a comma, the next
      argument goes under the first.

   Limits: a for header is never broken; a line with no operator or
   comma to break at before column WIDTH stays long; at most 64 breaks a
   line, 32 parenthesis levels and 16 pending operators a level are
   tracked.  */

#include "back/cgen-text.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growing strings and blocks of statements -------------------------- */

void
sb_vprintf (sbuf *b, const char *fmt, va_list ap)
{
  va_list aq;
  va_copy (aq, ap);
  int len = vsnprintf (NULL, 0, fmt, aq);
  va_end (aq);
  if (len < 0)
    len = 0;
  if (b->n + len + 1 > b->cap)
    {
      size_t cap = b->cap ? b->cap : 64;
      while (cap < b->n + len + 1)
        cap *= 2;
      char *s = realloc (b->s, cap);
      if (!s)
        abort ();
      b->s = s;
      b->cap = cap;
    }
  vsnprintf (b->s + b->n, len + 1, fmt, ap);
  b->n += len;
}

void
sb_printf (sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (b, fmt, ap);
  va_end (ap);
}

/* The string of B, which B gives up.  */
char *
sb_take (sbuf *b)
{
  char *s = b->s;
  if (!s)
    {
      s = malloc (1);
      if (!s)
        abort ();
      s[0] = 0;
    }
  b->s = NULL;
  b->n = b->cap = 0;
  return s;
}

/* A statement of one line.  */
void
blk_stmt (block *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sb_vprintf (&b->text, fmt, ap);
  va_end (ap);
  sb_printf (&b->text, "\n");
  b->nstmts++;
}

/* Append the lines of IN to OUT, INDENT columns further right.  */
void
blk_indent (block *out, int indent, const block *in)
{
  const char *s = in->text.s;
  while (s && *s)
    {
      const char *nl = strchr (s, '\n');
      size_t len = nl ? (size_t) (nl - s) : strlen (s);
      if (len)
        sb_printf (&out->text, "%*s%.*s\n", indent, "", (int) len, s);
      else
        sb_printf (&out->text, "\n");
      s += len + (nl != NULL);
    }
}

/* BODY as the substatement of a statement, GNU style: indented by 2, in
   braces indented by 2 if it is not one statement.  Frees BODY.  */
static void
blk_sub (block *out, block *body)
{
  if (body->nstmts == 1)
    blk_indent (out, 2, body);
  else
    {
      sb_printf (&out->text, "  {\n");
      blk_indent (out, 4, body);
      sb_printf (&out->text, "  }\n");
    }
  free (body->text.s);
  memset (body, 0, sizeof *body);
}

/* The statement HEAD BODY (a for or an if).  Frees BODY.  */
void
blk_compound (block *out, const char *head, block *body)
{
  sb_printf (&out->text, "%s\n", head);
  blk_sub (out, body);
  out->nstmts++;
}

/* if (COND) A else B.  Frees A and B.  */
void
blk_if_else (block *out, const char *cond, block *a, block *b)
{
  sb_printf (&out->text, "if (%s)\n", cond);
  blk_sub (out, a);
  sb_printf (&out->text, "else\n");
  blk_sub (out, b);
  out->nstmts++;
}

/* Append the statements of IN to OUT at the same column.  Frees IN.  */
void
blk_append (block *out, block *in)
{
  blk_indent (out, 0, in);
  out->nstmts += in->nstmts;
  free (in->text.s);
  memset (in, 0, sizeof *in);
}

/* ---- breaking long lines ----------------------------------------------- */

#define WIDTH 79

/* The precedence of the binary operator and space that start S (N
   chars), or 0.  */
static int
operator_prec (const char *s, int n)
{
  static const struct
  {
    const char *op;
    int prec;
  } ops[] = { { "+ ", P_ADD }, { "- ", P_ADD },  { "* ", P_MUL },
              { "/ ", P_MUL }, { "% ", P_MUL },  { "&& ", P_AND },
              { "|| ", P_OR }, { "? ", P_COND }, { ": ", P_COND },
              { "< ", P_REL }, { "<= ", P_REL }, { "> ", P_REL },
              { ">= ", P_REL }, { "== ", P_EQ }, { "!= ", P_EQ } };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      int len = (int) strlen (ops[i].op);
      if (len <= n && !strncmp (s, ops[i].op, len))
        return ops[i].prec;
    }
  return 0;
}

/* Where the operands of one parenthesis level start: the level's own
   column, and after each operator the column of its right operand,
   loosest first.  */
typedef struct level
{
  int col;
  int n;
  int prec[16], opnd[16];
} level;

/* The column under which an operator of precedence PREC continues L.  */
static int
level_align (const level *l, int prec)
{
  int col = l->col;
  for (int i = 0; i < l->n && l->prec[i] < prec; i++)
    col = l->opnd[i];
  return col;
}

/* Record an operator of precedence PREC in L whose right operand starts
   at column OPND.  */
static void
level_push (level *l, int prec, int opnd)
{
  while (l->n && l->prec[l->n - 1] >= prec)
    l->n--;
  if (l->n < 16)
    {
      l->prec[l->n] = prec;
      l->opnd[l->n++] = opnd;
    }
}

/* Lay LINE (N chars) out with a line break at each space BRK[0..NBRK-1]
   names, GNU style: the operator after it starts the next line, under the
   operand it continues; after a comma, the next argument goes under the
   first.  With OUT, print it there.  Without, return the position of the
   first character past WIDTH, or -1, and set *CAND to the best space to
   break at before it (outermost, loosest, last), or -1.  */
static int
layout (const char *line, int n, const int *brk, int nbrk, sbuf *out,
        int *cand)
{
  int col = 0, depth = 0, k = 0, lead = 0;
  int best = -1, best_key = INT_MAX;
  level lv[32];
  bool assigned = false;
  while (lead < n && line[lead] == ' ')
    lead++;
  lv[0].col = lead + 2;
  lv[0].n = 0;
  for (int i = 0; i < n; i++)
    {
      char c = line[i];
      int prec = c == ' ' && i > lead
                     ? (line[i - 1] == ',' ? 1
                                           : operator_prec (line + i + 1,
                                                            n - i - 1))
                     : 0;
      if (k < nbrk && i == brk[k])
        {
          col = level_align (&lv[depth], prec);
          if (out)
            sb_printf (out, "\n%*s", col, "");
          k++;
          best = -1;
          best_key = INT_MAX;
          if (prec > 1)
            level_push (&lv[depth], prec, col + 2 + (prec == P_AND
                                                     || prec == P_OR));
          continue;
        }
      if ((c == '(' || c == '[') && depth < 31)
        {
          depth++;
          lv[depth].col = col + 1;
          lv[depth].n = 0;
        }
      else if ((c == ')' || c == ']') && depth > 0)
        depth--;
      else if (prec)
        {
          if (depth * 32 + prec <= best_key)
            {
              best = i;
              best_key = depth * 32 + prec;
            }
          if (prec > 1)
            {
              int len = (int) strcspn (line + i + 1, " ");
              level_push (&lv[depth], prec, col + len + 2);
            }
        }
      else if (c == '=' && depth == 0 && !assigned && i + 1 < n
               && line[i + 1] == ' ' && i > 1
               && (line[i - 1] == ' ' || line[i - 2] == ' '))
        {
          lv[0].col = col + 2;
          assigned = true;
        }
      if (out)
        sb_printf (out, "%c", c);
      if (++col > WIDTH && !out)
        {
          *cand = best;
          return i;
        }
    }
  if (out)
    sb_printf (out, "\n");
  return -1;
}

/* TEXT with its long lines broken before operators.  */
char *
cg_wrap_lines (const char *text)
{
  sbuf out = { 0 };
  while (*text)
    {
      const char *nl = strchr (text, '\n');
      int n = nl ? (int) (nl - text) : (int) strlen (text);
      int brk[64], nbrk = 0, cand;
      const char *body = text + strspn (text, " ");
      if (strncmp (body, "for (", 5))
        while (nbrk < 64 && layout (text, n, brk, nbrk, NULL, &cand) >= 0
               && cand >= 0 && (!nbrk || cand > brk[nbrk - 1]))
          brk[nbrk++] = cand;
      layout (text, n, brk, nbrk, &out, &cand);
      text += n + (nl != NULL);
    }
  return sb_take (&out);
}

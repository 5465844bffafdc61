/* cgen-text.h -- private to the C writer: the growing strings, blocks of
   statements and line breaking of cgen-text.c, which cgen.c and
   cgen-expr.c print with.  */

#ifndef TG_CGEN_TEXT_H
#define TG_CGEN_TEXT_H

#include <stdarg.h>
#include <stddef.h>

/* A string that grows as it is printed to.  */
typedef struct sbuf
{
  char *s;
  size_t n, cap;
} sbuf;

/* Statements whose lines are indented relative to the block's own
   column; NSTMTS counts the statements at that column.  */
typedef struct block
{
  sbuf text;
  int nstmts;
} block;

/* C's precedence levels, loosest first.  */
enum
{
  P_COND = 3,
  P_OR = 4,
  P_AND = 5,
  P_EQ = 9,
  P_REL = 10,
  P_ADD = 12,
  P_MUL = 13,
  P_UNARY = 15,
  P_PRIMARY = 16
};

/* Strings: print to B, growing it; sb_take hands its string over.  */
void sb_vprintf (sbuf *b, const char *fmt, va_list ap);
void sb_printf (sbuf *b, const char *fmt, ...);
char *sb_take (sbuf *b);

/* Blocks: a statement of one line, IN indented into OUT, a for or an if
   around BODY, an if/else, IN appended to OUT.  */
void blk_stmt (block *b, const char *fmt, ...);
void blk_indent (block *out, int indent, const block *in);
void blk_compound (block *out, const char *head, block *body);
void blk_if_else (block *out, const char *cond, block *a, block *b);
void blk_append (block *out, block *in);

/* TEXT with its lines longer than 79 columns broken, GNU style.  */
char *cg_wrap_lines (const char *text);

#endif /* TG_CGEN_TEXT_H */

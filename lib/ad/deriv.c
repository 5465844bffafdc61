/* deriv.c -- local derivatives: one rule per operation.

   deriv_adjoint (ctx, n, i, a) answers: if the adjoint of node N is A,
   what does N contribute to the adjoint of its operand I?  For y = f(x)
   that is A * f'(x), written with y itself where the derivative is a
   function of the result (exp, tanh, sqrt), so that y's computation is
   shared with the forward expression.

   Non-smooth points follow PyTorch (DESIGN.md section 2): d|x|/dx = 0 at
   0, min/max/fmin/fmax and selects send the adjoint to the chosen operand
   with ties going to the first, floor/ceil/trunc/round have derivative 0.
   Operations without a derivative (compares, integer arithmetic) are
   never asked: their operands are not floating.  */

#include "ad/ad.h"

#include <math.h>

/* C11 does not promise these.  */
#ifndef M_LN2
#define M_LN2 0.69314718055994530942
#endif
#ifndef M_LN10
#define M_LN10 2.30258509299404568402
#endif
#ifndef M_2_SQRTPI
#define M_2_SQRTPI 1.12837916709551257390
#endif

static te_node *
fc (te_ctx *ctx, const te_node *like, double v)
{
  return te_float (ctx, like->type, v);
}

/* A * B and A / B, shorthand.  */
static te_node *
mul (te_ctx *ctx, te_node *a, te_node *b)
{
  return te_binary (ctx, TE_MUL, a, b);
}

static te_node *
dvd (te_ctx *ctx, te_node *a, te_node *b)
{
  return te_binary (ctx, TE_DIV, a, b);
}

/* select (C, A, 0): the adjoint flows only where C holds.  */
static te_node *
only_if (te_ctx *ctx, te_node *c, te_node *a)
{
  return te_select (ctx, c, a, fc (ctx, a, 0));
}

te_node *
deriv_adjoint (te_ctx *ctx, te_node *n, int i, te_node *a, te_diag *diag)
{
  te_node *x = n->args[0], *y = n->args[1];
  switch (n->op)
    {
    case TE_NEG: /* d(-x) = -1 */
      return te_unary (ctx, TE_NEG, a);
    case TE_ADD: /* d(x+y)/dx = d(x+y)/dy = 1 */
      return a;
    case TE_SUB: /* d(x-y)/dx = 1, d/dy = -1 */
      return i == 0 ? a : te_unary (ctx, TE_NEG, a);
    case TE_MUL: /* d(x*y)/dx = y, d/dy = x */
      return mul (ctx, a, i == 0 ? y : x);
    case TE_DIV: /* d(x/y)/dx = 1/y, d/dy = -(x/y)/y; for a reciprocal
                    1/y, -(1/y)(1/y): the quotient it has, no second
                    division (a sigmoid's derivative) */
      if (i == 0)
        return dvd (ctx, a, y);
      if (te_is_const (x, 1))
        return te_unary (ctx, TE_NEG, mul (ctx, mul (ctx, a, n), n));
      return te_unary (ctx, TE_NEG, dvd (ctx, mul (ctx, a, n), y));
    case TE_MIN: /* x <= y ? x : y; ties give x, a NaN x gives y */
    case TE_MAX: /* x >= y ? x : y */
    case TE_FMAX: /* fmax (x, y) is x when x >= y or y is NaN */
    case TE_FMIN:
      /* One operand twice (fmin (x, x)): all of it to the first.  For
         fmin the test would be x != x || x <= x, always true, and GCC
         12.2 at -O3 with AVX-512VL vectorizes a gradient that tests it
         and its negation under another test wrongly (fuzz seed
         1210612, kernel 43: elements of d_x got 0; the same C without
         the plugin too).  */
      if (x == y)
        return i == 0 ? a : fc (ctx, a, 0);
      if (n->op == TE_MIN || n->op == TE_MAX)
        {
          te_node *picks_x
              = te_binary (ctx, n->op == TE_MIN ? TE_LE : TE_GE, x, y);
          return only_if (ctx, i == 0 ? picks_x : te_not (ctx, picks_x), a);
        }
      else
        {
          te_node *picks_x = te_binary (
              ctx, TE_OR,
              te_binary (ctx, n->op == TE_FMAX ? TE_GE : TE_LE, x, y),
              te_binary (ctx, TE_NE, y, y));
          return only_if (ctx,
                          i == 0 ? picks_x : te_unary (ctx, TE_NOT, picks_x),
                          a);
        }
    case TE_CAST: /* float <-> double: the identity, in the operand's type */
      return te_cast (ctx, x->type, a);
    case TE_SELECT: /* c ? x : y */
      if (i == 1)
        return only_if (ctx, x, a);
      return te_select (ctx, x, fc (ctx, a, 0), a);
    case TE_EXP: /* exp' = exp */
      return mul (ctx, a, n);
    case TE_EXP2: /* (2^x)' = 2^x ln 2 */
      return mul (ctx, a, mul (ctx, n, fc (ctx, n, M_LN2)));
    case TE_EXPM1: /* expm1' = expm1 + 1 */
      return mul (ctx, a, te_binary (ctx, TE_ADD, n, fc (ctx, n, 1)));
    case TE_LOG: /* log' = 1/x */
      return dvd (ctx, a, x);
    case TE_LOG2: /* 1 / (x ln 2) */
      return dvd (ctx, a, mul (ctx, x, fc (ctx, x, M_LN2)));
    case TE_LOG10: /* 1 / (x ln 10) */
      return dvd (ctx, a, mul (ctx, x, fc (ctx, x, M_LN10)));
    case TE_LOG1P: /* 1 / (1 + x) */
      return dvd (ctx, a, te_binary (ctx, TE_ADD, x, fc (ctx, x, 1)));
    case TE_SQRT: /* 1 / (2 sqrt x) */
      return dvd (ctx, a, mul (ctx, fc (ctx, n, 2), n));
    case TE_CBRT: /* 1 / (3 cbrt(x)^2) */
      return dvd (ctx, a, mul (ctx, fc (ctx, n, 3), mul (ctx, n, n)));
    case TE_SIN: /* cos */
      return mul (ctx, a, te_unary (ctx, TE_COS, x));
    case TE_COS: /* -sin */
      return te_unary (ctx, TE_NEG, mul (ctx, a, te_unary (ctx, TE_SIN, x)));
    case TE_TAN: /* 1 + tan^2 */
      return mul (ctx, a, te_binary (ctx, TE_ADD, fc (ctx, n, 1), mul (ctx, n, n)));
    case TE_ASIN: /* 1 / sqrt (1 - x^2) */
    case TE_ACOS: /* -1 / sqrt (1 - x^2) */
      {
        te_node *d = te_unary (
            ctx, TE_SQRT, te_binary (ctx, TE_SUB, fc (ctx, x, 1), mul (ctx, x, x)));
        te_node *r = dvd (ctx, a, d);
        return n->op == TE_ASIN ? r : te_unary (ctx, TE_NEG, r);
      }
    case TE_ATAN: /* 1 / (1 + x^2) */
      return dvd (ctx, a, te_binary (ctx, TE_ADD, fc (ctx, x, 1), mul (ctx, x, x)));
    case TE_SINH: /* cosh */
      return mul (ctx, a, te_unary (ctx, TE_COSH, x));
    case TE_COSH: /* sinh */
      return mul (ctx, a, te_unary (ctx, TE_SINH, x));
    case TE_TANH: /* 1 - tanh^2 */
      return mul (ctx, a, te_binary (ctx, TE_SUB, fc (ctx, n, 1), mul (ctx, n, n)));
    case TE_ERF: /* 2/sqrt(pi) exp(-x^2) */
    case TE_ERFC: /* -2/sqrt(pi) exp(-x^2) */
      {
        te_node *g = te_unary (ctx, TE_EXP,
                               te_unary (ctx, TE_NEG, mul (ctx, x, x)));
        te_node *r = mul (ctx, a, mul (ctx, fc (ctx, x, M_2_SQRTPI), g));
        return n->op == TE_ERF ? r : te_unary (ctx, TE_NEG, r);
      }
    case TE_FABS: /* sign (x), 0 at 0 */
      return te_select (ctx, te_binary (ctx, TE_GT, x, fc (ctx, x, 0)), a,
                        only_if (ctx,
                                 te_binary (ctx, TE_LT, x, fc (ctx, x, 0)),
                                 te_unary (ctx, TE_NEG, a)));
    case TE_FLOOR: /* piecewise constant */
    case TE_CEIL:
    case TE_TRUNC:
    case TE_ROUND:
      return fc (ctx, a, 0);
    case TE_POW:
      /* d(x^y)/dx = y x^(y-1); d/dy = x^y log x, taken as 0 where x <= 0
         (there x^y is defined only for integer y, constant in y).  */
      if (i == 0)
        {
          te_node *ym1 = te_binary (ctx, TE_SUB, y, fc (ctx, y, 1));
          te_node *p;
          if (te_is_const (ym1, 0))
            p = fc (ctx, n, 1);
          else if (te_is_const (ym1, 1))
            p = x;
          else
            p = te_binary (ctx, TE_POW, x, ym1);
          return mul (ctx, a, mul (ctx, y, p));
        }
      return only_if (ctx, te_binary (ctx, TE_GT, x, fc (ctx, x, 0)),
                      mul (ctx, a, mul (ctx, n, te_unary (ctx, TE_LOG, x))));
    case TE_ATAN2:
      /* atan2 (x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2) */
      {
        te_node *r2 = te_binary (ctx, TE_ADD, mul (ctx, x, x), mul (ctx, y, y));
        return i == 0 ? dvd (ctx, mul (ctx, a, y), r2)
                      : te_unary (ctx, TE_NEG, dvd (ctx, mul (ctx, a, x), r2));
      }
    case TE_HYPOT: /* x / hypot, y / hypot */
      return dvd (ctx, mul (ctx, a, i == 0 ? x : y), n);
    case TE_CONST:
    case TE_PARAM:
    case TE_VAR:
    case TE_LOAD:
    case TE_MOD:
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
    case TE_NUM_OPS:
      break;
    }
  te_diag_set (diag, TE_DIAG_INTERNAL, 0,
               "no derivative rule for operation '%s'", te_op_name (n->op));
  return NULL;
}

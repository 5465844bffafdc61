/* { dg-do run } */
/* { dg-options "-fgimple" } */
/* Integer arithmetic that pass_ubsan checks for overflow,
   .UBSAN_CHECK_MUL and .UBSAN_CHECK_ADD, returns the plain operation's
   value: lifted as that operation.  pass_ubsan runs after the plugin's
   pass, so a kernel written in C never shows them to the lifter; this
   one is written in GIMPLE as pass_ubsan leaves it (its counters plain:
   a counter stepped by .UBSAN_CHECK_ADD is no evolution to SCEV), and
   starts at the plugin's pass.

   rowsq: y[i*m + j] = x[i*m + j]^2 + x[i + j] over i < n, j < m:
     d_x[i*m + j] += 2 d_y[i*m + j] x[i*m + j],
     d_x[i + j] += d_y[i*m + j].
   Checked through its descriptor.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void __GIMPLE (ssa, startwith ("tensorgrad"))
rowsq (int n, int m, const double *x, double *y)
{
  int j;
  int i;
  int _1;
  int _2;
  long unsigned int _3;
  long unsigned int _4;
  const double *_5;
  double _6;
  double _13;
  int _14;
  long unsigned int _15;
  long unsigned int _16;
  const double *_17;
  double _18;
  double *_23;
  double _24;

  __BB(2):
  i_29 = 0;
  goto __BB7;

  __BB(3):
  j_32 = 0;
  goto __BB5;

  __BB(4):
  _1 = .UBSAN_CHECK_MUL (i_25, m_33(D));
  _2 = .UBSAN_CHECK_ADD (j_26, _1);
  _3 = (long unsigned int) _2;
  _4 = _3 * 8ul;
  _5 = x_35(D) + _4;
  _6 = __MEM <const double> (_5);
  _13 = _6 * _6;
  _14 = .UBSAN_CHECK_ADD (i_25, j_26);
  _15 = (long unsigned int) _14;
  _16 = _15 * 8ul;
  _17 = x_35(D) + _16;
  _18 = __MEM <const double> (_17);
  _23 = y_36(D) + _4;
  _24 = _13 + _18;
  __MEM <double> (_23) = _24;
  j_38 = j_26 + 1;
  goto __BB5;

  __BB(5,loop_header(2)):
  j_26 = __PHI (__BB3: j_32, __BB4: j_38);
  if (j_26 < m_33(D))
    goto __BB4;
  else
    goto __BB6;

  __BB(6):
  i_34 = i_25 + 1;
  goto __BB7;

  __BB(7,loop_header(1)):
  i_25 = __PHI (__BB2: i_29, __BB6: i_34);
  if (i_25 < n_31(D))
    goto __BB3;
  else
    goto __BB8;

  __BB(8):
  return;
}

TG_DECLARE_GRADCHECK (rowsq);

int
main (void)
{
  int n = 3, m = 4;
  double *x = tg_alloc (n * m), *y = tg_alloc (n * m);
  tg_fill (x, n * m, 1, -2, 2);
  TG_GRADCHECK (rowsq, &n, &m, x, y);
  free (x), free (y);
  return tg_exit ();
}

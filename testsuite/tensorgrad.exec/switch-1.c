/* { dg-do run } */
/* switch statements: an activation picked by an integer parameter, with
   a default; an element-wise kind from an integer array, with a case
   range (GNU C), a case falling through into the next, and cases
   sharing a body; a switch whose cases add different terms to a sum.
   Each case is a condition on the switch's value, so each statement has
   the gradient of its case's arm:
     act:    kind 0 tanh, 1 sin, 2 square, else identity;
     kinds:  c[i] in 0..1: 3 x, 2 and 3: x^2 then + x (2 falls into 3),
             else x / 2;
     terms:  s = sum_i (m[i] == 0 ? x^2 : m[i] == 1 ? 2 x : 0).  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
act (int n, int kind, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    switch (kind)
      {
      case 0: y[i] = tanh (x[i]); break;
      case 1: y[i] = sin (x[i]); break;
      case 2: y[i] = x[i] * x[i]; break;
      default: y[i] = x[i]; break;
      }
}

__attribute__ ((differentiable))
void
kinds (int n, const int *c, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    {
      float v = 0.0f;
      switch (c[i])
        {
        case 0 ... 1:
          v = 3.0f * x[i];
          break;
        case 2:
          v = x[i] * x[i];
          /* fall through */
        case 3:
          v += x[i];
          break;
        default:
          v = x[i] / 2.0f;
        }
      y[i] = v;
    }
}

__attribute__ ((differentiable))
double
terms (int n, const int *m, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    switch (m[i])
      {
      case 0:
        s += x[i] * x[i];
        break;
      case 1:
        s += 2 * x[i];
        break;
      }
  return s;
}

int
main (void)
{
  int n = 5;
  double *x = tg_alloc (n), *y = tg_alloc (n);
  tg_fill (x, n, 1, -1, 1);
  for (int kind = 0; kind < 4; kind++)
    TG_GRADCHECK (act, &n, &kind, x, y);
  int c[8] = { 0, 1, 2, 3, 4, 2, 3, 1 }, m = 8;
  float *xf = tg_alloc_f (m), *yf = tg_alloc_f (m);
  tg_fill_f (xf, m, 2, -1, 1);
  TG_GRADCHECK (kinds, &m, c, xf, yf);
  int mk[5] = { 0, 1, 2, 1, 0 };
  TG_GRADCHECK (terms, &n, mk, x);
  return tg_exit ();
}

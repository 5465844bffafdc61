/* { dg-do run } */
/* { dg-additional-sources "inline-1-aux.cc" } */
/* An inline kernel in a header that two files include is defined in
   both, once in the program (a COMDAT group): so are its gradient and
   its descriptor, and the program links.

   softplus: y[i] = log (1 + exp (x[i]));  d_x[i] += d_y[i] / (1 + exp (-x[i]))  */

#include "inline-1-aux.h"
#include "tg-test.h"

void other_softplus_grad (int n, const double *x, double *y, double *d_x,
                          double *d_y); /* inline-1-aux.cc */

int
main ()
{
  enum { N = 5 };
  double x[N], y[N], dx[N] = { 0 }, dx2[N] = { 0 }, dy[N];
  tg_fill (x, N, 1, -3, 3);
  tg_fill (dy, N, 2, -1, 1);
  softplus (N, x, y);
  softplus_grad (N, x, y, dx, dy);
  other_softplus_grad (N, x, y, dx2, dy);
  for (int i = 0; i < N; i++)
    CHECK_NEAR_AT (dx[i], dy[i] / (1 + std::exp (-x[i])), 1e-13, 1e-14, i);
  CHECK_SAME (dx2, dx, sizeof dx);
  int n = N;
  TG_GRADCHECK (softplus, &n, x, y);
  return tg_exit ();
}

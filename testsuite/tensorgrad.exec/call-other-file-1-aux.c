/* The second translation unit of call-other-file-1.c: a differentiable
   kernel calling dense, which call-other-file-1.c defines, through the
   prototype of dense_grad the plugin wrote there.  */
#include <math.h>
#include "call-other-file-1.gen.h"

void dense (int n, int m, const double *x, const double *w, const double *b,
            double *y);

__attribute__ ((differentiable))
double
mlp (int n, int h, const double *x, const double *w1, const double *b1,
     const double *w2, const double *b2)
{
  double t[h], a[16], o[2];
  dense (n, h, x, w1, b1, t);
  for (int i = 0; i < h; i++)
    a[i] = tanh (t[i]);
  dense (h, 2, a, w2, b2, o);
  return o[0] * o[0] + sin (o[1]);
}

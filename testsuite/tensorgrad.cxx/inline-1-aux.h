/* inline-1.cc's kernel, defined in a header that two translation units
   include.  */

#include <cmath>

__attribute__ ((differentiable))
inline void
softplus (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = std::log1p (std::exp (x[i]));
}

void softplus_grad (int n, const double *x, double *y, double *d_x,
                    double *d_y);

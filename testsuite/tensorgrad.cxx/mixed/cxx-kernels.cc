// cxx.exp's C++ file: a C++ kernel, one in a namespace and an extern "C"
// one; the header its compile writes declares the first two for C++
// only, the third for C and C++ alike.
//
// relu:  y[i] = x[i] > 0 ? x[i] : 0;  d_x[i] += x[i] > 0 ? d_y[i] : 0
// shift: y[i] = x[i] + b;  d_x[i] += d_y[i], d_b += sum d_y[i]
// cube:  y[i] = x[i]^3;  d_x[i] += 3 x[i]^2 d_y[i]

__attribute__ ((differentiable))
void
relu (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : 0;
}

namespace nn {
__attribute__ ((differentiable))
void
shift (int n, float b, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] + b;
}
}

extern "C" __attribute__ ((differentiable))
void
cube (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i];
}

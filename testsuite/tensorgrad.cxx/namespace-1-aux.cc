/* namespace-1.cc's caller: the gradients declared in their kernels'
   namespaces.  */

namespace nn {
namespace ops {
void relu_grad (int n, const double *x, double *y, double *d_x, double *d_y);
}
inline namespace v2 {
void soft_grad (int n, const double *x, double *y, double *d_x, double *d_y);
}
}

void
call_grads (int n, const double *x, double *y, double *d_x, double *d_y,
            double *y2, double *d_x2)
{
  nn::ops::relu_grad (n, x, y, d_x, d_y);
  nn::soft_grad (n, x, y2, d_x2, d_y);
}

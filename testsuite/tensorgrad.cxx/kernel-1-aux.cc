/* kernel-1.cc's caller in another translation unit: declares the
   gradients with the signature the README documents, in C++.  */

void layer_grad (int n, double w, double b, const double *x, double *y,
                 double *d_w, double *d_b, double *d_x, double *d_y);
float energy (int n, const float *x);
void energy_grad (int n, const float *x, float *d_x, float d_return);

void
call_layer_grad (int n, double w, double b, const double *x, double *y,
                 double *d_w, double *d_b, double *d_x, double *d_y)
{
  layer_grad (n, w, b, x, y, d_w, d_b, d_x, d_y);
}

void
call_energy_grad (int n, const float *x, float *d_x, float d_return)
{
  energy_grad (n, x, d_x, d_return);
}

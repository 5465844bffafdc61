/* extern-c-1.cc's caller: the gradients declared with C linkage, cube's
   in the global namespace (a C function has one name).  */

extern "C" {
void scale_grad (int n, double a, const double *x, double *y, double *d_a,
                 double *d_x, double *d_y);
void square_grad (int n, const float *x, float *y, float *d_x, float *d_y);
void cube_grad (int n, const double *x, double *y, double *d_x, double *d_y);
}

extern "C" void
call_grads (int n, double a, const double *x, double *y, double *d_a,
            double *d_x, double *d_y, const float *xf, float *yf, float *dxf,
            float *dyf, double *yc, double *dxc)
{
  scale_grad (n, a, x, y, d_a, d_x, d_y);
  square_grad (n, xf, yf, dxf, dyf);
  cube_grad (n, x, yc, dxc, d_y);
}

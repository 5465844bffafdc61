/* Calls layer_grad, which layer.c's gradient defines, for gdb.exp.  */
#include <stdio.h>

void layer (int n, int m, const double *x, const double *w, double *y,
            double *z);
void layer_grad (int n, int m, const double *x, const double *w, double *y,
                 double *z, double *d_x, double *d_w, double *d_y,
                 double *d_z);

int
main (void)
{
  double x[6] = { 1, 2, 3, -1, -2, -3 }, w[3] = { .1, .2, .3 };
  double y[6], z[3], d_x[6] = { 0 }, d_w[3] = { 0 };
  double d_y[6] = { 1, 1, 1, 1, 1, 1 }, d_z[3] = { 1, 1, 1 };
  layer (2, 3, x, w, y, z);
  layer_grad (2, 3, x, w, y, z, d_x, d_w, d_y, d_z); /* LINE-CALL */
  printf ("%.6f %.6f %.6f\n", d_w[0], d_w[1], d_w[2]);
  return 0;
}

/* { dg-do compile } */
/* How to rewrite (README): a kernel whose signature has no gradient ABI.
   A layer taking its weights in a struct, an activation passed as a
   function pointer, a kernel that returns the number of rows it wrote,
   a variadic one, and a prototype of a gradient that does not match.
   Refused at the parameter, the function or the prototype.  The
   rewrites (a wrapper around a kernel of arrays, a switch on an integer
   code, the count from a plain function, fixed parameters, the
   expected prototype) are tensorgrad.exec/rewrite-signature.c.  */

#include <math.h>
#include <stdarg.h>

struct dense
{
  int in, out;
  const double *w, *b;
};

__attribute__ ((differentiable))
void
dense_fwd (int n, const struct dense *L, /* { dg-error "parameter 'L' has unsupported type 'const struct dense \\*'" } */
           const double *x, double *y) /* { dg-message "a differentiable function takes integers, 'float' or 'double' values, and pointers to them" "" { target *-*-* } .-1 } */
{
  for (int i = 0; i < n; i++)
    for (int o = 0; o < L->out; o++)
      {
        double s = L->b[o];
        for (int k = 0; k < L->in; k++)
          s += x[i * L->in + k] * L->w[k * L->out + o];
        y[i * L->out + o] = s;
      }
}

__attribute__ ((differentiable))
void
apply (int n, double (*f) (double), /* { dg-error "parameter 'f' has unsupported type 'double \\(\\*\\)\\(double\\)'" } */
       const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = f (x[i]);
}

__attribute__ ((differentiable))
int
positive_part (int n, const double *x, double *y) /* { dg-error "differentiable function 'positive_part' must return void, float or double" } */
{
  int c = 0;
  for (int i = 0; i < n; i++)
    {
      y[i] = x[i] > 0 ? x[i] : 0;
      c += x[i] > 0;
    }
  return c;
}

__attribute__ ((differentiable))
double
sum_of (int n, ...) /* { dg-error "differentiable function 'sum_of' cannot be variadic" } */
{
  va_list ap;
  double s = 0;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    s += va_arg (ap, double);
  va_end (ap);
  return s;
}

void scale_grad (int n, double a, const double *x, double *y, double *d_x,
                 double *d_y);
/* { dg-error "prototype of 'scale_grad' does not match the gradient of 'scale'" "" { target *-*-* } .-2 } */
/* { dg-message "expected 'void ?\\(int, +double, +const double \\*, +double \\*, +double \\*, +double \\*, +double \\*\\)'" "" { target *-*-* } .-3 } */

__attribute__ ((differentiable))
void
scale (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

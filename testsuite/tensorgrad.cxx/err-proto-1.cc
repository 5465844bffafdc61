/* { dg-do compile } */
/* A C++ declaration of a gradient, before or after its kernel, must have
   the gradient's type (another type is an overload in C++, which would
   leave a call to it unresolved at the link) and its kernel's language
   linkage; each mismatch is an error at the declaration with what is
   expected.  A declaration of another kernel's gradient of the same name
   (the float overload's) is no mismatch.  */

void a_grad (int n, const double *x, double *y, double *d_x); /* { dg-error "prototype of 'void a_grad\\(int, const double\\*, double\\*, double\\*\\)' does not match the gradient of 'void a\\(int, const double\\*, double\\*\\)'" } */
/* { dg-message "expected 'void\\(int, const double\\*, double\\*, double\\*, double\\*\\)'" "" { target *-*-* } .-1 } */

__attribute__ ((differentiable))
void
a (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

__attribute__ ((differentiable))
void
b (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

void b_grad (int n, const double *x, double *y, float *d_x, double *d_y); /* { dg-error "prototype of 'void b_grad\\(int, const double\\*, double\\*, float\\*, double\\*\\)' does not match the gradient of 'void b\\(int, const double\\*, double\\*\\)'" } */
/* { dg-message "expected 'void\\(int, const double\\*, double\\*, double\\*, double\\*\\)'" "" { target *-*-* } .-1 } */

extern "C" __attribute__ ((differentiable))
void
c (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

void c_grad (int n, const double *x, double *y, double *d_x, double *d_y); /* { dg-error "prototype of 'void c_grad\\(int, const double\\*, double\\*, double\\*, double\\*\\)' has C\\+\\+ language linkage; the gradient of 'void c\\(int, const double\\*, double\\*\\)', declared 'extern \"C\"', has C linkage" } */
/* { dg-message "declare it 'extern \"C\"'" "" { target *-*-* } .-1 } */

__attribute__ ((differentiable))
void
d (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

extern "C" void d_grad (int n, const double *x, double *y, double *d_x, double *d_y); /* { dg-error "prototype of 'void d_grad\\(int, const double\\*, double\\*, double\\*, double\\*\\)' has C language linkage; the gradient of 'void d\\(int, const double\\*, double\\*\\)' has C\\+\\+ linkage" } */
/* { dg-message "declare it without 'extern \"C\"'" "" { target *-*-* } .-1 } */

__attribute__ ((differentiable))
void
e (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

__attribute__ ((differentiable))
void
e (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

void e_grad (int n, const float *x, float *y, float *d_x, float *d_y);

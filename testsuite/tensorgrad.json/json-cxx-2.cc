/* In C++, in the pass: declarations of the gradients of the wrong type
   and of the wrong language linkage, each error with its note.

   json-error: prototype of 'void a_grad\(int, const double\*, double\*, double\*\)' does not match
   json-note: expected 'void\(int, const double\*, double\*, double\*, double\*\)'
   json-error: has C\+\+ language linkage; the gradient of 'void c\(int, const double\*, double\*\)', declared 'extern "C"', has C linkage
   json-note: declare it 'extern "C"'  */

void a_grad (int n, const double *x, double *y, double *d_x);

__attribute__ ((differentiable))
void
a (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

extern "C" __attribute__ ((differentiable))
void
c (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

void c_grad (int n, const double *x, double *y, double *d_x, double *d_y);

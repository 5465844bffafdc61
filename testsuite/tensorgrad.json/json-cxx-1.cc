/* In C++, when the front end has parsed a kernel: a member function
   and a template refused, each error with its note.

   json-error: is a member of 'layer'
   json-note: make it a function outside the class
   json-error: is a template; a template cannot be a kernel
   json-note: write the kernel for each element type  */

struct layer
{
  __attribute__ ((differentiable))
  static void
  forward (int n, const double *x, double *y)
  {
    for (int i = 0; i < n; i++)
      y[i] = 2 * x[i];
  }
};

template <typename T>
__attribute__ ((differentiable))
void
scale (int n, T a, const T *x, T *y)
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

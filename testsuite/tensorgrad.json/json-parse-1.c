/* Errors the plugin reports when the front end has parsed a kernel, each
   with its note as a child: two parameters of types a kernel cannot
   take, and a prototype of the gradient of the wrong type.

   json-error: prototype of 'f_grad' does not match the gradient of 'f'
   json-note: expected 'void\(int, +const double \*, double \*, double \*, double \*\)'
   json-error: parameter 'v' has unsupported type 'struct s'
   json-note: a differentiable function takes integers
   json-error: parameter 'c' has unsupported type 'char \*'
   json-note: a differentiable function takes integers  */

void f_grad (int n, const double *x, double *y, double *d_x);

__attribute__ ((differentiable))
void
f (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

struct s
{
  int a;
};

__attribute__ ((differentiable))
void
g (int n, struct s v, char *c, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}

/* { dg-do compile } */
/* tensorgrad differentiates functions of namespace scope: a member
   function (static or not) and a lambda are refused at the kernel, with
   a note on what to write instead.  */

struct layer
{
  __attribute__ ((differentiable))
  static void
  forward (int n, const double *x, double *y) /* { dg-error "differentiable function 'static void layer::forward\\(int, const double\\*, double\\*\\)' is a member of 'layer'; only a function of namespace scope can be a kernel" } */
  {
    /* { dg-message "make it a function outside the class" "" { target *-*-* } .-2 } */
    for (int i = 0; i < n; i++)
      y[i] = 2 * x[i];
  }

  double w;
  __attribute__ ((differentiable))
  void
  apply (int n, const double *x, double *y) /* { dg-error "is a member of 'layer'" } */
  {
    for (int i = 0; i < n; i++)
      y[i] = w * x[i];
  }
};

auto twice = [] (int n, const double *x, double *y) /* { dg-error "a lambda cannot be a differentiable function" } */
  __attribute__ ((differentiable)) {
    for (int i = 0; i < n; i++)
      y[i] = 2 * x[i];
  };

void
use (double *p)
{
  layer l = { 2 };
  layer::forward (1, p, p);
  l.apply (1, p, p);
  twice (1, p, p);
}

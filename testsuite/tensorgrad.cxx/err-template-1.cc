/* { dg-do compile } */
/* A template cannot be a kernel: refused once, at the template, not at
   each instantiation; an overload per element type is what to write.  */

template <typename T>
__attribute__ ((differentiable))
void
scale (int n, T a, const T *x, T *y) /* { dg-error "differentiable function 'void scale\\(int, T, const T\\*, T\\*\\)' is a template; a template cannot be a kernel" } */
{
  /* { dg-message "write the kernel for each element type" "" { target *-*-* } .-2 } */
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

template void scale<float> (int, float, const float *, float *);

void
use (double *p)
{
  scale (1, 2.0, p, p);
}

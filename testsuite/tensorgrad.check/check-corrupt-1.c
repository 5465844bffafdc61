/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-corrupt" } */
/* A wrong gradient is an error naming the function, the shadow and the
   first wrong element.  check-corrupt (for this testsuite only) adds 1 to
   the first element of the first checked shadow before comparing: d_x[0]
   is then 1 + 2 x[0] c[0] instead of 2 x[0] c[0].  */

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y) /* { dg-error "gradient of .square. is wrong at n=3: .d_x.\\\[0\\\] is \[-0-9.e+\]+ where finite differences give \[-0-9.e+\]+" } */
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}
/* { dg-message "relative error \[0-9.e+-\]+, above the tolerance 1.0e-08 \\(check-tol=\\)" "" { target *-*-* } 10 } */

/* { dg-do compile } */
/* The integer helpers of err-helper-int-1.c marked differentiable, as
   users try after the call is refused: an integer function is not
   differentiated and its calls in an index are not taken either; the
   note at each says so, and what to write.  */

__attribute__ ((differentiable)) static inline int
imax (int a, int b) /* { dg-error "differentiable function 'imax' must return void, float or double" } */
{
  /* { dg-message "'imax' returns 'int': an integer function is not differentiated, and a kernel does not take a call of one in an index either; drop the attribute and write its value where it is used \\(a macro or a conditional expression\\)" "" { target *-*-* } .-2 } */
  return a > b ? a : b;
}

__attribute__ ((differentiable)) static inline long
lclamp (long i, long n) /* { dg-error "differentiable function 'lclamp' must return void, float or double" } */
{
  /* { dg-message "'lclamp' returns 'long int': an integer function is not differentiated" "" { target *-*-* } .-2 } */
  return i < 0 ? 0 : i < n ? i : n - 1;
}

__attribute__ ((differentiable))
void
blur (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -2; k <= 2; k++)
	s += w[k + 2] * x[lclamp (imax (i + k, -1), n)];
      y[i] = s;
    }
}

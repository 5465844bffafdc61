/* { dg-do compile } */
/* A function of the file that returns an integer, called for an index,
   whose body is more than one return of an expression (it clamps with
   two if statements): refused at the call, with a note at the function
   that says why.  The note used to advise marking the function
   differentiable, which only led to "differentiable function 'clampi'
   must return void, float or double".  One return of an expression of
   its integer parameters (imax, imin) is read as that expression
   (int-calls-1.c).  */

static inline int
clampi (int v, int lo, int hi) /* { dg-message "a function of the file is substituted where a kernel calls it only when it returns float or double, and 'clampi' returns 'int'; write its value in the kernel \\(a macro or a conditional expression\\)" } */
{
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

__attribute__ ((differentiable))
void
blur (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -2; k <= 2; k++)
	s += w[k + 2] * x[clampi (i + k, 0, n - 1)]; /* { dg-error "call to 'clampi' cannot be differentiated" } */
      y[i] = s;
    }
}

/* As a macro, the same padding is accepted.  */
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

__attribute__ ((differentiable))
void
blur_macro (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -2; k <= 2; k++)
	s += w[k + 2] * x[MIN (MAX (i + k, 0), n - 1)];
      y[i] = s;
    }
}

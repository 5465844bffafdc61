/* { dg-do compile } */
/* A function of the file that returns an integer, called for an index
   (edge padding through imin and imax): refused at the call, with a note
   at the function that says why.  The note used to advise marking the
   function differentiable, which only led to "differentiable function
   'imax' must return void, float or double".  */

static inline int
imax (int a, int b) /* { dg-message "a function of the file is substituted where a kernel calls it only when it returns float or double, and 'imax' returns 'int'; write its value in the kernel \\(a macro or a conditional expression\\)" } */
{
  return a > b ? a : b;
}

static inline int
imin (int a, int b)
{
  return a < b ? a : b;
}

__attribute__ ((differentiable))
void
blur (int n, const double *w, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int k = -2; k <= 2; k++)
	s += w[k + 2] * x[imin (imax (i + k, 0), n - 1)]; /* { dg-error "call to 'imax' cannot be differentiated" } */
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

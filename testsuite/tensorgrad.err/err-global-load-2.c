/* { dg-do compile } */
/* What a kernel may not read of static storage, each refused at the
   read with a note at the variable: a floating global that may change
   (its gradient would have nowhere to go), an integer array that may
   change, a function's static array that is not const, a constant table
   whose initializer is in another file, a table of chars, and one too
   large to copy.  (Constant
   tables with their initializer, and global integer scalars, are read:
   table-poly-1.c, global-bound-1.c.)  */

double scale = 2.0; /* { dg-message "pass .scale. to the kernel as a parameter, so that its gradient has somewhere to go" } */

__attribute__ ((differentiable))
void
scaled (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = scale * x[i]; /* { dg-error "global variable .scale., which the kernel reads, cannot be differentiated" } */
}

int perm[4] = { 3, 2, 1, 0 }; /* { dg-message "pass .perm. to the kernel as a parameter" } */

__attribute__ ((differentiable))
void
permute (const double *x, double *y)
{
  for (int i = 0; i < 4; i++)
    y[i] = x[perm[i]]; /* { dg-error "global array .perm., which the kernel reads, cannot be differentiated" } */
}

__attribute__ ((differentiable))
void
mutable_weights (int n, const double *x, double *y)
{
  static double w[3] = { 1, 2, 3 }; /* { dg-message "pass .w. to the kernel as a parameter" } */
  for (int i = 0; i < n; i++)
    y[i] = w[i % 3] * x[i]; /* { dg-error "static array .w., which the kernel reads, cannot be differentiated" } */
}

extern const double coef[4]; /* { dg-message "pass .coef. to the kernel as a parameter, or define it in this file" } */

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = coef[i % 4] * x[i]; /* { dg-error "the values of constant table .coef. are not visible here; its initializer must be in this file" } */
}

static const char bytes[4] = { 1, 2, 3, 4 };

__attribute__ ((differentiable))
void
by_bytes (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = bytes[i % 4] * x[i]; /* { dg-error "global variable .bytes. of type .char. is not supported; a differentiable function may read constant tables of float or double and integers of 32 or 64 bits" } */
}

static const float huge[70000] = { 1.0f };

__attribute__ ((differentiable))
void
by_huge (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = huge[i] * x[i]; /* { dg-error "constant table .huge. has 70000 elements; at most 65536 are supported" } */
}

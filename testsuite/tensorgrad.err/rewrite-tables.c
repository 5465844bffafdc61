/* { dg-do compile } */
/* How to rewrite (README): constant tables the plugin cannot read.
   Polynomial coefficients defined in another file, per-channel
   multipliers in a table of chars, and a lookup table of 70000 entries.
   Refused at the reads.  The rewrites, the table defined in this file,
   of int, or passed as a parameter, are tensorgrad.exec/rewrite-tables.c.  */

extern const double coef[4]; /* { dg-message "pass 'coef' to the kernel as a parameter, or define it in this file" } */

__attribute__ ((differentiable))
void
poly (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = coef[0] + x[i] * (coef[1] + x[i] * (coef[2] + x[i] * coef[3])); /* { dg-error "the values of constant table 'coef' are not visible here; its initializer must be in this file" } */
}

static const signed char mult[4] = { 1, -2, 3, -1 };

__attribute__ ((differentiable))
void
channels (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 4; c++)
      y[i * 4 + c] = mult[c] * x[i * 4 + c]; /* { dg-error "global variable 'mult' of type 'signed char' is not supported; a differentiable function may read constant tables of float or double and integers of 32 or 64 bits" } */
}

static const float lut[70000] = { 1.0f, 0.5f, 0.25f };

__attribute__ ((differentiable))
void
lookup (int n, const float *x, float *y)
{
  for (int i = 0; i < n; i++)
    y[i] = lut[i] * x[i]; /* { dg-error "constant table 'lut' has 70000 elements; at most 65536 are supported" } */
}

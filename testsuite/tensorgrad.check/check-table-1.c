/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check" } */
/* The check reads constant tables from their initializers and a global
   integer at its initial value; a global whose value only the running
   program knows (an extern const int) leaves the kernel unchecked.
   stencil: y[i] = sum_t k[t] x[i+t]^2, k a function's static const
            table: d_x[i+t] += 2 k[t] x[i+t] d_y[i].
   bounded: y[i] = s x[i]^3 for i < NB (int NB = 4 here): d_x[i] +=
            3 s x[i]^2 d_y[i], d_s += sum x[i]^3 d_y[i].
   outside: the bound ROWS is defined in another file.  */

__attribute__ ((differentiable))
void
stencil (int n, const double *x, double *y) /* { dg-message "gradient of .stencil. checked at n=3: worst relative error \[0-9.e+-\]+ in .d_x." } */
{
  static const double k[3] = { 0.25, -0.5, 2.0 };
  for (int i = 0; i < n; i++)
    {
      double s = 0;
      for (int t = 0; t < 3; t++)
        s += k[t] * x[i + t] * x[i + t];
      y[i] = s;
    }
}

int NB = 4;

__attribute__ ((differentiable))
void
bounded (double s, const float *x, float *y) /* { dg-message "gradient of .bounded. checked: worst relative error \[0-9.e+-\]+ in .d_s., \[0-9.e+-\]+ in .d_x." } */
{
  for (int i = 0; i < NB; i++)
    y[i] = s * x[i] * x[i] * x[i];
}

extern const int ROWS;

__attribute__ ((differentiable))
void
outside (const double *x, double *y) /* { dg-message "gradient of .outside. not checked: it reads .ROWS., whose value is known only when the program runs" } */
{
  for (int r = 0; r < ROWS; r++)
    y[r] = x[r] * x[r];
}

/* { dg-do compile } */
/* A part of what a loop wrote rewritten by a later loop of its own that
   gets no version: its run of elements reaches past those the earlier
   loop wrote (y[i + 1] for i < n after y[i] for i < n; a causal row's
   tail zeroed from t, err-causal-tail-overlap-1.c, likewise), or steps
   through them at another step (every other element).  A run within
   them at the earlier loop's step gets one (exec/partial-overwrite-1.c).
   The error at the rewrite, the note naming what gets a version.  */

__attribute__ ((differentiable))
void
shifted_range (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 3;
  for (int i = 0; i < n; i++)
    y[i + 1] = x[i]; /* { dg-error "'y' is written by more than one loop nest; not supported yet" } */
  /* { dg-message "a later store gets a version where it rewrites single elements of what the earlier loop wrote, or a run of them at its innermost loop's step, all among those it wrote; store each element once, the test inside" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
every_other (int n, const float *x, float *y)
{
  for (int r = 0; r < n; r++)
    {
      for (int k = 0; k < 4; k++)
        y[4 * r + k] = x[4 * r + k];
      for (int k = 0; k < 2; k++)
        y[4 * r + 2 * k] = x[4 * r + k] * x[4 * r + k]; /* { dg-error "'y' is written here and by an earlier loop of the same nest, in elements that may meet; not supported yet" } */
      /* { dg-message "a later store gets a version where it rewrites single elements of what the earlier loop wrote, or a run of them at its innermost loop's step, all among those it wrote; store each element once, the test inside" "" { target *-*-* } .-1 } */
    }
}

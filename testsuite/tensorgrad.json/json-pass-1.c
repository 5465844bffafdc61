/* With -fdiagnostics-format=json every note is a child of its error:
   errors of the lifting (a break, with a note at its loop), of a pass
   of lib/ (with the pass's note), a call of a function of another file
   (whose note points at its declaration), then a kernel the
   compile-time check passes, whose note stands alone.
   json-options: -fplugin-arg-tensorgrad-check

   json-error: 'break' leaves the loop early
   json-note: in this loop; to differentiate only the iterations
   json-error: call to 'unknown' cannot be differentiated
   json-note: the body of 'unknown' is not in sight
   json-error: 'y' is written by more than one loop nest
   json-note: this statement rewrites part of what the earlier loop wrote
   json-toplevel-note: gradient of 'square' checked  */

double unknown (double);

__attribute__ ((differentiable))
void
leaves_early (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    {
      if (x[i] > 3)
        break;
      y[i] = x[i];
    }
}

__attribute__ ((differentiable))
void
calls (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = unknown (x[i]);
}

__attribute__ ((differentiable))
void
twice_written (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i];
  for (int i = 0; i < n / 2; i++)
    y[i] = 2 * y[i + 1];
}

__attribute__ ((differentiable))
void
square (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

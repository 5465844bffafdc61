/* { dg-do compile } */
/* An integer a loop counts may be used after the loop (an integer sum,
   tensorgrad.exec/count-masked-1.c), not inside it: as the index of a
   compaction (where the gradient would need each iteration's count) or
   as a value.  The error names it where it is read, with a note on what
   is supported.  */

__attribute__ ((differentiable))
void
compact (int n, const double *x, double *y)
{
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      y[cnt++] = x[i]; /* { dg-error "integer .cnt. is changed inside a loop and read in it, and is not its counter; such integers are not supported yet" } */
  /* { dg-message "an integer a loop counts" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
running (int n, const int *mask, const double *x, double *y)
{
  int cnt = 0;
  for (int i = 0; i < n; i++)
    {
      if (mask[i])
        cnt++;
      y[i] = x[i] * cnt; /* { dg-error "integer .cnt. is changed inside a loop and read in it" } */
      /* { dg-message "may be used after the loop" "" { target *-*-* } .-1 } */
    }
}

/* { dg-do compile } */
/* How to rewrite (README): an integer a loop counts, read in the loop.
   A compaction of the positive entries, y[cnt++] = x[i], and a running
   count of the mask as a weight.  Refused where the count is read, with
   a note.  The rewrites, the positions (and the counts) computed by the
   caller and passed as integer arrays, are
   tensorgrad.exec/rewrite-count-read.c.  */

__attribute__ ((differentiable))
void
compact (int n, const double *x, double *y)
{
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      y[cnt++] = x[i]; /* { dg-error "integer 'cnt' is changed inside a loop and read in it, and is not its counter; such integers are not supported yet" } */
  /* { dg-message "an integer a loop counts \\('c\\+\\+', 'c \\+= m\\\[i\\\]'\\) may be used after the loop" "" { target *-*-* } .-1 } */
}

__attribute__ ((differentiable))
void
running (int n, const int *mask, const double *x, double *y)
{
  int cnt = 0;
  for (int i = 0; i < n; i++)
    {
      cnt += mask[i];
      y[i] = x[i] * cnt; /* { dg-error "integer 'cnt' is changed inside a loop and read in it, and is not its counter; such integers are not supported yet" } */
      /* { dg-message "an integer a loop counts" "" { target *-*-* } .-1 } */
    }
}

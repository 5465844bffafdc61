/* { dg-do compile } */
/* How to rewrite (README): a sum stored after a loop rewrote what it
   summed.  Each row's squares summed as they are stored, then the
   entries of positive x cleared, and the sum stored last: it adds up
   the row as it was before the clearing, which rewrote only some of it.
   Refused at the store of the sum.  The rewrite, the sum stored before
   the clearing loop, is tensorgrad.exec/rewrite-sum-rewrite.c.  */

__attribute__ ((differentiable))
void
clip_after_sum (int B, int V, const double *x, double *p, double *zs)
{
  for (int b = 0; b < B; b++)
    {
      double z = 0;
      for (int j = 0; j < V; j++)
        {
          p[b * V + j] = x[b * V + j] * x[b * V + j];
          z += p[b * V + j];
        }
      for (int j = 0; j < V; j++)
        if (x[b * V + j] > 0)
          p[b * V + j] = 0;
      zs[b] = z; /* { dg-error "the sum stored here adds up 'p' as it was before a later loop of the same nest rewrote it; not supported yet" } */
      /* { dg-message "store the sum before the loop that rewrites 'p'" "" { target *-*-* } .-1 } */
    }
}

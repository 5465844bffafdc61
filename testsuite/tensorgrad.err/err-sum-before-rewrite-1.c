/* { dg-do compile } */
/* A row's sum stored after a later loop of the row rewrote, under a
   condition, what it summed: the version before the rewrite is not the
   one the rewrite reads everywhere, so the sum cannot read it.  Refused
   at the store of the sum, with a note.  (An unconditional rewrite of
   each element works: sum-before-rewrite-1.c.)  */

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
    }
}

/* { dg-message "store the sum before the loop that rewrites 'p'" "" { target *-*-* } 0 } */

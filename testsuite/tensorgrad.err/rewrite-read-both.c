/* { dg-do compile } */
/* How to rewrite (README): an in-out array read before and after its
   update.  A momentum step: the velocity v updated in place from its
   entry value, then read back by the position update.  Refused at the
   update.  The rewrite, the new velocity in an output of its own, is
   tensorgrad.exec/rewrite-read-both.c.  */

__attribute__ ((differentiable))
void
momentum (int n, double mu, double lr, const double *g, double *v, double *x)
{
  for (int i = 0; i < n; i++)
    v[i] = mu * v[i] + g[i]; /* { dg-error "'v' is read both before and after this statement overwrites it; not supported yet" } */
  for (int i = 0; i < n; i++)
    x[i] -= lr * v[i];
}

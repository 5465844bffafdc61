/* { dg-do compile } */
/* How to rewrite (README): a loop left early.  The loss of a sequence
   up to its first padding token, left by break, goto or return.
   Refused at the jump, with a note at the loop.  The rewrite, the
   length counted by the caller and passed as the loop's bound, is
   tensorgrad.exec/rewrite-early-exit.c.  */

__attribute__ ((differentiable))
double
seq_loss (int T, const int *tok, const double *p)
{
  double loss = 0;
  for (int t = 0; t < T; t++) /* { dg-message "in this loop; to differentiate only the iterations before the exit, count them before calling the kernel and pass the count as the loop's bound" } */
    {
      if (tok[t] == 0)
        break; /* { dg-error "'break' leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      loss += p[t] * p[t];
    }
  return loss;
}

__attribute__ ((differentiable))
double
seq_loss_goto (int T, const int *tok, const double *p)
{
  double loss = 0;
  for (int t = 0; t < T; t++) /* { dg-message "in this loop" } */
    {
      if (tok[t] == 0)
        goto done; /* { dg-error "'goto' leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      loss += p[t] * p[t];
    }
done:
  return loss;
}

__attribute__ ((differentiable))
void
seq_copy (int T, const int *tok, const double *p, double *y)
{
  for (int t = 0; t < T; t++) /* { dg-message "in this loop" } */
    {
      if (tok[t] == 0)
        return; /* { dg-error "'return' leaves the loop early: a loop with more than one exit cannot be differentiated" } */
      y[t] = 2 * p[t];
    }
}

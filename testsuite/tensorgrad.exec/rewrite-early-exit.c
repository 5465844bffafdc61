/* { dg-do run } */
/* How to rewrite (README): a loop left early.  The rewrite of
   tensorgrad.err/rewrite-early-exit.c: the caller counts the tokens
   before the first padding one (seq_len, plain C) and passes the count
   as the loop's bound; the kernels no longer read tok.  Checked: the
   loss and y equal the originals' (compiled here as plain C), and the
   gradients through the descriptors.  */

#include "tg-test.h"

#define differentiable unused
#define seq_loss seq_loss_orig
#define seq_copy seq_copy_orig
#include "tensorgrad.err/rewrite-early-exit.c"
#undef seq_loss
#undef seq_copy
#undef differentiable

/* The number of tokens before the first 0 in TOK[0..T-1].  */
static int
seq_len (int T, const int *tok)
{
  int t = 0;
  while (t < T && tok[t] != 0)
    t++;
  return t;
}

__attribute__ ((differentiable))
double
seq_loss (int len, const double *p)
{
  double loss = 0;
  for (int t = 0; t < len; t++)
    loss += p[t] * p[t];
  return loss;
}

__attribute__ ((differentiable))
void
seq_copy (int len, const double *p, double *y)
{
  for (int t = 0; t < len; t++)
    y[t] = 2 * p[t];
}

int
main (void)
{
  int T = 7;
  int tok[7] = { 3, 1, 4, 1, 0, 9, 2 };
  double *p = tg_alloc (T), *y = tg_alloc (T), *y0 = tg_alloc (T);
  tg_fill (p, T, 1, -1, 1);
  int len = seq_len (T, tok);
  CHECK (seq_loss (len, p) == seq_loss_orig (T, tok, p));
  CHECK (seq_loss (len, p) == seq_loss_goto (T, tok, p));
  seq_copy_orig (T, tok, p, y0);
  seq_copy (len, p, y);
  CHECK_SAME (y, y0, T * sizeof *y);
  TG_GRADCHECK (seq_loss, &len, p);
  TG_GRADCHECK (seq_copy, &len, p, y);
  return tg_exit ();
}

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump" } */
/* The shape of the gradients of attention-1.c's kernels (which that test
   checks, also without the optimizer): what the dump says the passes did
   to them.  */

#include "attention-1.c"

/* The row maximum, which the lifter lifts for each loop that reads it,
   and the scores' sums hoisted out of it are computed once.  */
/* { dg-final { scan-tensorgrad-dump "dedupe: mx, computed again the same way, is read from mx" } } */
/* { dg-final { scan-tensorgrad-dump "dedupe: t\[0-9\]+, computed again the same way, is read from t\[0-9\]+" } } */

/* The gradients work head by head, as an expert's backward does: one
   loop nest over the rows (b, t, h), no other, and every temporary one
   row long (T or hs elements: no size is a product).  */
/* { dg-final { scan-tensorgrad-backward "stage 1: for \\(fused\\) b < B, t < T, h < NH:" } } */
/* { dg-final { scan-tensorgrad-backward-not "\n  stage 2:" } } */
/* { dg-final { scan-tensorgrad-backward-not "temporary, size \[^\n\]*\\*" } } */
/* The exponentials are the stored probabilities times their sum
   (attention-reuse-1.c): the gradient computes none again.  */
/* { dg-final { scan-tensorgrad-backward-not "tensor p\\.v1:" } } */

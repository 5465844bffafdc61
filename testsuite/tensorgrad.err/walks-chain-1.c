/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-dump -fplugin-arg-tensorgrad-dump-c=walks-chain-1.gen.c" } */
/* Issue 12: a flat sum of 2048 products with distinct constants, so
   2048 distinct terms in a chain 2048 deep.  Every walk after lifting
   must be linear in it (no rescan of the chain per term): the counts the
   dump prints are at most 8 times the distinct nodes.  */

#define T1(a) x[i] * (a)
#define T2(a) T1 (a) + T1 ((a) + 1)
#define T4(a) T2 (a) + T2 ((a) + 2)
#define T8(a) T4 (a) + T4 ((a) + 4)
#define T16(a) T8 (a) + T8 ((a) + 8)
#define T32(a) T16 (a) + T16 ((a) + 16)
#define T64(a) T32 (a) + T32 ((a) + 32)
#define T128(a) T64 (a) + T64 ((a) + 64)
#define T256(a) T128 (a) + T128 ((a) + 128)
#define T512(a) T256 (a) + T256 ((a) + 256)
#define T1024(a) T512 (a) + T512 ((a) + 512)
#define T2048(a) T1024 (a) + T1024 ((a) + 1024)

__attribute__ ((differentiable))
void
chain2048 (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = T2048 (1.0);
}

/* { dg-final { scan-tensorgrad-walks 8 } } */

/* { dg-do run } */
/* { dg-options "-fplugin-arg-tensorgrad-dump-c=dump-c-span-1.gen.c -fplugin-arg-tensorgrad-dump -I." } */
/* { dg-additional-sources "dump-c-span-1-aux.c" } */
/* Sums in lanes across two loops of a stage (lanes.c step 5) in both
   back ends: scale, y[i][j] = a x[i][j] + c in float, a stage without
   loops of its own whose j runs in lanes; d_a += x d_y and d_c += d_y
   keep partial sums per row, added lane by lane into those of the rows
   after each row, and those to the element after the last.  The C
   file's gradient (dump-c-span-1-aux.c) and the injected one add in one
   order, so they agree to the last bit, also with NULL shadows, which
   put tests inside the loop in lanes and before each element's
   addition; rows of 21 (blocks and a rest), 5 (a rest only) and 16
   (blocks only).  TG_GRADCHECK checks the injected gradient against
   central differences.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
scale (int n, int m, const float *x, const float *a, const float *c, float *y)
{
  for (int i = 0; i < n; i++)
    {
      const float *xr = x + i * m;
      float *yr = y + i * m;
      for (int j = 0; j < m; j++)
        yr[j] = a[0] * xr[j] + c[0];
    }
}

void scale_grad_c (int n, int m, const float *x, const float *a,
                   const float *c, float *y, float *d_x, float *d_a,
                   float *d_c, float *d_y);

static void
check (int n, int m)
{
  float *x = tg_alloc_f (n * m), *y = tg_alloc_f (n * m);
  float *dy = tg_alloc_f (n * m);
  float a = 0.75f, c = -0.5f;
  tg_fill_f (x, n * m, 1, -1, 1);
  tg_fill_f (dy, n * m, 2, -1, 1);
  TG_GRADCHECK (scale, &n, &m, x, &a, &c, y);
  scale (n, m, x, &a, &c, y);
  float *dx1 = tg_alloc_f (n * m), *dx2 = tg_alloc_f (n * m);
  float da1 = 0.25f, da2 = 0.25f, dc1 = -1, dc2 = -1, da3 = 0.25f, dc3 = -1;
  scale_grad (n, m, x, &a, &c, y, dx1, &da1, &dc1, dy);
  scale_grad_c (n, m, x, &a, &c, y, dx2, &da2, &dc2, dy);
  for (int i = 0; i < n * m; i++)
    CHECK (dx1[i] == dx2[i]);
  CHECK (da1 == da2);
  CHECK (dc1 == dc2);
  scale_grad_c (n, m, x, &a, &c, y, NULL, &da3, NULL, dy);
  CHECK (da1 == da3);
  scale_grad_c (n, m, x, &a, &c, y, NULL, NULL, &dc3, dy);
  CHECK (dc1 == dc3);
}

int
main (void)
{
  check (3, 21);
  check (4, 5);
  check (2, 16);
  return tg_exit ();
}

/* { dg-final { scan-tensorgrad-dump "lanes: d_a sums in 8 lanes of loop j, across loop\\(s\\) i" } } */
/* { dg-final { scan-tensorgrad-file dump-c-span-1.gen.c "d_a_l2\\\[l\[0-9\]*\\\] \\+= d_a_l\\\[l\[0-9\]*\\\];" } } */

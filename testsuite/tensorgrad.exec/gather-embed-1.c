/* { dg-do run } */
/* An embedding lookup, a gather through the integer index array idx
   (no shadow) with repeated indices, n = 5 lookups of rows of d = 3 from
   a table of v = 7 rows at run time:
     y[i*d + k] = table[idx[i]*d + k].
   Gradient void embed_grad (int n, int d, int v, const int *idx,
   const double *table, double *y, double *d_table, double *d_y): a
   scatter-add, d_table[idx[i]*d + k] += d_y[i*d + k] (row 2 is looked up
   three times and must get all three terms; rows never looked up get
   nothing).  Checks every d_table against central differences and the
   repeated and unused rows exactly, accumulation into a pre-filled
   d_table, and that idx, table, y, d_y are untouched.  Checked by hand: a
   gather gets no descriptor; it also stands for the gathers among the tests
   that check the descriptor path independently.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
void
embed (int n, int d, int v, const int *idx, const double *table,
       double *y)
{
  (void) v;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < d; k++)
      y[i * d + k] = table[idx[i] * d + k];
}

struct ctx
{
  int n, d, v;
  const int *idx;
  double *table, *y, *cy;
};

static double
loss (void *p)
{
  struct ctx *k = p;
  embed (k->n, k->d, k->v, k->idx, k->table, k->y);
  return tg_dot (k->cy, k->y, k->n * k->d);
}

int
main (void)
{
  int n = 5, d = 3, v = 7, nt = v * d, ny = n * d;
  int idx[] = { 2, 5, 2, 0, 2 };
  int idx0[] = { 2, 5, 2, 0, 2 };
  double *table = tg_alloc (nt), *y = tg_alloc (ny);
  double *cy = tg_alloc (ny), *d_table = tg_alloc (nt);
  tg_fill (table, nt, 1, -2, 2);
  tg_fill (cy, ny, 3, -1, 1);
  tg_fill (d_table, nt, 4, -1, 1);

  embed (n, d, v, idx, table, y);
  double *t0 = tg_dup (table, nt), *y0 = tg_dup (y, ny);
  double *d_y = tg_dup (cy, ny);
  double *pre_t = tg_dup (d_table, nt);

  embed_grad (n, d, v, idx, table, y, d_table, d_y);

  CHECK_SAME (idx, idx0, sizeof idx);
  CHECK_SAME (table, t0, nt * sizeof *table);
  CHECK_SAME (y, y0, ny * sizeof *y);
  CHECK_SAME (d_y, cy, ny * sizeof *d_y);
  double *g_t = tg_alloc (nt);
  tg_sub (g_t, d_table, pre_t, nt);
  for (int k = 0; k < d; k++)
    {
      CHECK_NEAR_AT (g_t[2 * d + k],
		     cy[0 * d + k] + cy[2 * d + k] + cy[4 * d + k],
		     1e-12, 1e-14, k);
      CHECK_AT (d_table[1 * d + k] == pre_t[1 * d + k], k);
      CHECK_AT (d_table[6 * d + k] == pre_t[6 * d + k], k);
    }
  struct ctx k = { n, d, v, idx, table, y, cy };
  tg_fd_check ("table", table, nt, loss, &k, g_t, TG_RTOL, TG_ATOL);
  return tg_exit ();
}

/* { dg-do run } */
/* Integers a loop counts, used after it as a float or double, checked
   through the descriptor (every array is read in every iteration).
   wmean:     cnt += w[i] with integer weights, s += w[i] x[i],
              *out = s / cnt: d_x[i] += w[i] d_out / cnt.
   relu_mean: float, n_valid += (y[i] >= 0) and s += y[i]^2 where
              y[i] >= 0, returned s / n_valid:
              d_y[i] += y[i] >= 0 ? 2 y[i] d_ret / n_valid : 0.
   center:    a count of the positive x (a long, cnt++) used by a later
              nest, y[i] = x[i] - s / (cnt + 1) with s the positive
              sum: d_x[j] += d_y[j] - [x[j] > 0] sum_i d_y[i] / (cnt + 1).
   pos_mean:  float, counted over the two loops of a matrix, c++ where
              x[r][j] > 0, *out = s / c.  */

#include "tg-test.h"

__attribute__ ((differentiable))
void
wmean (int n, const int *w, const double *x, double *out)
{
  double s = 0;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    {
      s += w[i] * x[i];
      cnt += w[i];
    }
  *out = s / cnt;
}

__attribute__ ((differentiable))
float
relu_mean (int n, const float *y)
{
  float s = 0;
  int n_valid = 0;
  for (int i = 0; i < n; i++)
    {
      n_valid += (y[i] >= 0);
      s += y[i] >= 0 ? y[i] * y[i] : 0;
    }
  return s / n_valid;
}

__attribute__ ((differentiable))
void
center (int n, const double *x, double *y)
{
  double s = 0;
  long cnt = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      {
        s += x[i];
        cnt++;
      }
  for (int i = 0; i < n; i++)
    y[i] = x[i] - s / (cnt + 1);
}

__attribute__ ((differentiable))
void
pos_mean (int R, int n, const float *x, float *out)
{
  float s = 0;
  int c = 0;
  for (int r = 0; r < R; r++)
    for (int j = 0; j < n; j++)
      if (x[r * n + j] > 0)
        {
          s += x[r * n + j];
          c++;
        }
  *out = s / c;
}

int
main (void)
{
  int n = 6;
  int w[] = { 1, 0, 3, 2, 0, 1 };
  double *x = tg_alloc (n), out;
  tg_fill (x, n, 1, -2, 2);
  TG_GRADCHECK (wmean, &n, w, x, &out);
  int n1 = 1, w1[] = { 4 };
  TG_GRADCHECK (wmean, &n1, w1, x, &out);

  int m = 9;
  float *y = tg_alloc_f (m);
  tg_fill_away_f (y, m, 2, -1.5, 1.5, 0.0, 0.1);
  TG_GRADCHECK (relu_mean, &m, y);

  double *xc = tg_alloc (m), *yc = tg_alloc (m);
  tg_fill_away (xc, m, 3, -2, 2, 0.0, 0.05);
  TG_GRADCHECK (center, &m, xc, yc);
  for (int i = 0; i < m; i++)
    xc[i] = -1 - i;
  TG_GRADCHECK (center, &m, xc, yc); /* no positive element: cnt = 0 */

  int R = 3, c = 4;
  float *xm = tg_alloc_f (R * c), o;
  tg_fill_away_f (xm, R * c, 4, -1, 2, 0.0, 0.1);
  TG_GRADCHECK (pos_mean, &R, &c, xm, &o);
  return tg_exit ();
}


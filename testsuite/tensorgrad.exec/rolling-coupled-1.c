/* { dg-do run } */
/* Two rolling buffers updated together, c from the previous h, then h
   from the new c (a cell with two states keeping two steps each):
     c[(t+1)%2][i] = w[i] c[t%2][i] + tanh (h[t%2][i]);
     h[(t+1)%2][i] = 2 c[(t+1)%2][i] x[i];
   The gradient stores every step and recomputes them in its prologue,
   both statements of each step together (run as two loops, h was
   recomputed from c's last step only, and the gradient was wrong with
   -fplugin-arg-tensorgrad-no-opt).  Backwards from hb_T = d_r v, with hb and cb the adjoints of h
   and c: d_v += d_r h_T; for t = T - 1 down to 0:
     cb_{t+1} += 2 x hb_{t+1};  d_x += 2 c_{t+1} hb_{t+1};
     d_w += cb_{t+1} c_t;  cb_t = w cb_{t+1};
     hb_t = cb_{t+1} (1 - tanh^2 h_t);
   then d_h0 += hb_0, d_c0 += cb_0.  TG_GRADCHECK checks d_w, d_x, d_h0,
   d_c0 and d_v against central differences, accumulation into the shadows,
   and that the inputs are untouched.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
roll2 (int T, int H, const double *w, const double *x, const double *h0,
       const double *c0, const double *v)
{
  double h[2][H], c[2][H];
  for (int i = 0; i < H; i++)
    {
      h[0][i] = h0[i];
      c[0][i] = c0[i];
    }
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++)
      {
	c[(t + 1) % 2][i] = w[i] * c[t % 2][i] + tanh (h[t % 2][i]);
	h[(t + 1) % 2][i] = 2.0 * c[(t + 1) % 2][i] * x[i];
      }
  double l = 0;
  for (int i = 0; i < H; i++)
    l += v[i] * h[T % 2][i];
  return l;
}

enum { T = 5, H = 3 };

int
main (void)
{
  int t = T, h = H;
  double w[H], x[H], h0[H], c0[H], v[H];
  tg_fill (w, H, 1, -0.9, 0.9);
  tg_fill (x, H, 2, -0.8, 0.8);
  tg_fill (h0, H, 3, -1, 1);
  tg_fill (c0, H, 4, -1, 1);
  tg_fill (v, H, 5, -1, 1);
  TG_GRADCHECK (roll2, &t, &h, w, x, h0, c0, v);
  return tg_exit ();
}

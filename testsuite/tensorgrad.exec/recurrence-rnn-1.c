/* { dg-do run } */
/* Recurrences through an output: a damped prefix sum whose first
   element a statement of its own writes, and an RNN cell over time with h
   holding every state (h[0..H) copied from h0) and a returned loss: every
   gradient against central differences, the output shadow unchanged.  */
#include <math.h>
#include "tg-test.h"
__attribute__((differentiable))
void prefix(int n, const double *x, double *y)
{
  y[0] = x[0];
  for (int i = 1; i < n; i++) y[i] = y[i-1] * 0.9 + sin(x[i]);
}
__attribute__((differentiable))
double rnn(int T, int H, int D, const double *h0, const double *W, const double *U, const double *b, const double *x, double *h)
{
  for (int i = 0; i < H; i++) h[i] = h0[i];
  for (int t = 0; t < T; t++)
    for (int i = 0; i < H; i++) {
      double a = b[i];
      for (int j = 0; j < H; j++) a += W[i*H+j] * h[t*H+j];
      for (int k = 0; k < D; k++) a += U[i*D+k] * x[t*D+k];
      h[(t+1)*H + i] = tanh(a);
    }
  double l = 0;
  for (int i = 0; i < H; i++) l += h[T*H + i] * (i + 1);
  return l;
}
struct ctx { int n; double *x, *y, *cw; };
static double loss(void *v) { struct ctx *k = v; prefix(k->n, k->x, k->y); return tg_dot(k->cw, k->y, k->n); }
enum { T = 4, H = 3, D = 2 };
static double h0[H], W[H*H], U[H*D], bb[H], xx[T*D], hh[(T+1)*H];
static double loss2(void *v) { (void) v; return rnn(T, H, D, h0, W, U, bb, xx, hh); }
int main(void) {
  int n = 7; double x[7], y[7], cw[7], dx[7] = {0}, dy[7];
  tg_fill(x, n, 1, -1, 1); tg_fill(cw, 7, 2, -1, 1);
  struct ctx k = { n, x, y, cw };
  prefix(n, x, y);
  memcpy(dy, cw, sizeof dy);
  prefix_grad(n, x, y, dx, dy);
  CHECK(memcmp(dy, cw, sizeof dy) == 0);
  tg_fd_check("x", x, n, loss, &k, dx, 1e-6, 1e-7);
  tg_fill(h0, H, 3, -1, 1); tg_fill(W, H*H, 4, -1, 1); tg_fill(U, H*D, 5, -1, 1); tg_fill(bb, H, 6, -1, 1); tg_fill(xx, T*D, 7, -1, 1);
  double dh0[H] = {0}, dW[H*H] = {0}, dU[H*D] = {0}, db[H] = {0}, dxx[T*D] = {0}, dhh[(T+1)*H] = {0};
  rnn(T, H, D, h0, W, U, bb, xx, hh);
  rnn_grad(T, H, D, h0, W, U, bb, xx, hh, dh0, dW, dU, db, dxx, dhh, 1.0);
  tg_fd_check("h0", h0, H, loss2, 0, dh0, 1e-6, 1e-7);
  tg_fd_check("W", W, H*H, loss2, 0, dW, 1e-6, 1e-7);
  tg_fd_check("U", U, H*D, loss2, 0, dU, 1e-6, 1e-7);
  tg_fd_check("b", bb, H, loss2, 0, db, 1e-6, 1e-7);
  tg_fd_check("x", xx, T*D, loss2, 0, dxx, 1e-6, 1e-7);
  return tg_exit();
}

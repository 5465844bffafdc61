/* { dg-do run } */
/* The full program: a two-layer MLP (tanh hidden layer) with a softmax
   cross-entropy loss over integer labels, returning the mean loss as a
   double, n = 5 samples, d = 3 inputs, h = 7 hidden, c = 3 classes at run
   time, hidden activations and logits in local VLAs:
     a[i*h+j] = tanh (b1[j] + sum_p x[i*d+p] W1[p*h+j]);
     z[i*c+k] = b2[k] + sum_j a[i*h+j] W2[j*c+k];
     return (1/n) sum_i (logsumexp_k z[i*c+k] - z[i*c + label[i]]),
   the log-sum-exp stabilised by the row maximum (an fmax reduction).
   Gradient void mlp_loss_grad (n, d, h, c, x, label, W1, b1, W2, b2, d_x,
   d_W1, d_b1, d_W2, d_b2, double d_return) (label gets no shadow): with
   dz = d_return (softmax (z) - onehot (label)) / n, the two dense layers'
   backward (d_W2 += a^T dz, d_b2 += colsum dz, da = dz W2^T,
   dpre = da (1 - a^2), d_W1 += x^T dpre, d_b1 += colsum dpre,
   d_x += dpre W1^T).  TG_GRADCHECK checks every component of every shadow
   against central differences of c_ret * mlp_loss, accumulation into the
   shadows, and that the inputs and labels are untouched; then that
   d_return = 0 adds nothing.  */

#include <math.h>
#include "tg-test.h"

__attribute__ ((differentiable))
double
mlp_loss (int n, int d, int h, int c, const double *x, const int *label,
	  const double *W1, const double *b1, const double *W2,
	  const double *b2)
{
  double a[n * h], z[n * c];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
	double acc = b1[j];
	for (int p = 0; p < d; p++)
	  acc += x[i * d + p] * W1[p * h + j];
	a[i * h + j] = tanh (acc);
      }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < c; k++)
      {
	double acc = b2[k];
	for (int j = 0; j < h; j++)
	  acc += a[i * h + j] * W2[j * c + k];
	z[i * c + k] = acc;
      }
  double l = 0;
  for (int i = 0; i < n; i++)
    {
      double mx = z[i * c];
      for (int k = 1; k < c; k++)
	mx = fmax (mx, z[i * c + k]);
      double s = 0;
      for (int k = 0; k < c; k++)
	s += exp (z[i * c + k] - mx);
      l += mx + log (s) - z[i * c + label[i]];
    }
  return l / n;
}

int
main (void)
{
  int n = 5, d = 3, h = 7, c = 3;
  int nx = n * d, nW1 = d * h, nW2 = h * c;
  int label[] = { 2, 0, 1, 2, 2 };
  int label0[] = { 2, 0, 1, 2, 2 };
  double *x = tg_alloc (nx), *W1 = tg_alloc (nW1), *b1 = tg_alloc (h);
  double *W2 = tg_alloc (nW2), *b2 = tg_alloc (c);
  tg_fill (x, nx, 1, -1, 1);
  tg_fill (W1, nW1, 2, -1, 1);
  tg_fill (b1, h, 3, -0.5, 0.5);
  tg_fill (W2, nW2, 4, -1.5, 1.5);
  tg_fill (b2, c, 5, -0.5, 0.5);
  TG_GRADCHECK (mlp_loss, &n, &d, &h, &c, x, label, W1, b1, W2, b2);
  /* tg_gradcheck passes the labels through: neither pass wrote them.  */
  CHECK_SAME (label, label0, sizeof label);

  /* d_return = 0 adds nothing.  */
  double *d_x = tg_alloc (nx), *d_W1 = tg_alloc (nW1), *d_b1 = tg_alloc (h);
  double *d_W2 = tg_alloc (nW2), *d_b2 = tg_alloc (c);
  tg_fill (d_x, nx, 6, -1, 1);
  tg_fill (d_W1, nW1, 7, -1, 1);
  tg_fill (d_b1, h, 8, -1, 1);
  tg_fill (d_W2, nW2, 9, -1, 1);
  tg_fill (d_b2, c, 10, -1, 1);
  double *pre_x = tg_dup (d_x, nx), *pre_W1 = tg_dup (d_W1, nW1);
  double *pre_b1 = tg_dup (d_b1, h), *pre_W2 = tg_dup (d_W2, nW2);
  double *pre_b2 = tg_dup (d_b2, c);
  mlp_loss (n, d, h, c, x, label, W1, b1, W2, b2);
  mlp_loss_grad (n, d, h, c, x, label, W1, b1, W2, b2, d_x, d_W1, d_b1,
		 d_W2, d_b2, 0.0);
  CHECK_SAME (d_x, pre_x, nx * sizeof *d_x);
  CHECK_SAME (d_W1, pre_W1, nW1 * sizeof *d_W1);
  CHECK_SAME (d_b1, pre_b1, h * sizeof *d_b1);
  CHECK_SAME (d_W2, pre_W2, nW2 * sizeof *d_W2);
  CHECK_SAME (d_b2, pre_b2, c * sizeof *d_b2);
  return tg_exit ();
}

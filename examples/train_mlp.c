/* train_mlp.c -- fit a two-layer network with gradients from tensorgrad.

   The loss (softmax cross-entropy of a tanh network, averaged over the
   data) is written once, as plain loops; the plugin writes its gradient,
   mlp_loss_grad, and this program runs gradient descent with it on two
   interleaved spirals (with momentum).  It prints the loss and the
   accuracy as it goes and fails unless the fit gets much better than
   chance.

   Build (make examples does it with the freshly built plugin):
     gcc -O2 -fplugin=tensorgrad train_mlp.c -lm  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 200, D = 2, H = 32, C = 2 };

__attribute__ ((differentiable))
double
mlp_loss (int n, int d, int h, int c, const double *x, const int *label,
          const double *w1, const double *b1, const double *w2,
          const double *b2)
{
  double hid[n * h], out[n * c];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < h; j++)
      {
        double a = b1[j];
        for (int k = 0; k < d; k++)
          a += x[i * d + k] * w1[k * h + j];
        hid[i * h + j] = tanh (a);
      }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < c; j++)
      {
        double a = b2[j];
        for (int k = 0; k < h; k++)
          a += hid[i * h + k] * w2[k * c + j];
        out[i * c + j] = a;
      }
  double l = 0;
  for (int i = 0; i < n; i++)
    {
      double m = out[i * c];
      for (int j = 1; j < c; j++)
        m = fmax (m, out[i * c + j]);
      double s = 0;
      for (int j = 0; j < c; j++)
        s += exp (out[i * c + j] - m);
      l += m + log (s) - out[i * c + label[i]];
    }
  return l / n;
}

/* Two interleaved spirals, deterministic.  */
static void
spirals (double *x, int *label)
{
  for (int i = 0; i < N; i++)
    {
      int cls = i % 2;
      double t = 0.5 + 3.0 * (i / 2) / (N / 2);
      double r = t / 1.75;
      double a = 2.5 * t + cls * M_PI;
      x[i * D] = r * cos (a);
      x[i * D + 1] = r * sin (a);
      label[i] = cls;
    }
}

static double
accuracy (const double *x, const int *label, const double *w1,
          const double *b1, const double *w2, const double *b2)
{
  int right = 0;
  for (int i = 0; i < N; i++)
    {
      double o[C];
      for (int j = 0; j < C; j++)
        {
          o[j] = b2[j];
          for (int k = 0; k < H; k++)
            {
              double a = b1[k];
              for (int q = 0; q < D; q++)
                a += x[i * D + q] * w1[q * H + k];
              o[j] += tanh (a) * w2[k * C + j];
            }
        }
      right += (o[1] > o[0]) == label[i];
    }
  return (double) right / N;
}

int
main (void)
{
  double x[N * D], w1[D * H], b1[H], w2[H * C], b2[C];
  int label[N];
  spirals (x, label);
  unsigned s = 12345;
  for (int i = 0; i < D * H; i++)
    w1[i] = ((s = s * 1103515245 + 12345) >> 16 & 0x7fff) / 16384.0 - 1;
  for (int i = 0; i < H * C; i++)
    w2[i] = ((s = s * 1103515245 + 12345) >> 16 & 0x7fff) / 32768.0 - 0.5;
  memset (b1, 0, sizeof b1);
  memset (b2, 0, sizeof b2);

  double first = mlp_loss (N, D, H, C, x, label, w1, b1, w2, b2), last = first;
  /* Gradient descent with momentum.  */
  double v1[D * H] = { 0 }, vb1[H] = { 0 }, v2[H * C] = { 0 }, vb2[C] = { 0 };
  printf ("step     loss   accuracy\n");
  for (int step = 0; step <= 6000; step++)
    {
      double g1[D * H] = { 0 }, gb1[H] = { 0 }, g2[H * C] = { 0 },
             gb2[C] = { 0 };
      last = mlp_loss (N, D, H, C, x, label, w1, b1, w2, b2);
      /* d_x is NULL: the gradient of the data is not wanted.  */
      mlp_loss_grad (N, D, H, C, x, label, w1, b1, w2, b2, NULL, g1, gb1, g2, gb2,
                     1.0);
      if (step % 1000 == 0)
        printf ("%4d  %7.4f   %5.1f%%\n", step, last,
                100 * accuracy (x, label, w1, b1, w2, b2));
      double lr = 0.1, mu = 0.9;
      for (int i = 0; i < D * H; i++)
        w1[i] += v1[i] = mu * v1[i] - lr * g1[i];
      for (int i = 0; i < H; i++)
        b1[i] += vb1[i] = mu * vb1[i] - lr * gb1[i];
      for (int i = 0; i < H * C; i++)
        w2[i] += v2[i] = mu * v2[i] - lr * g2[i];
      for (int i = 0; i < C; i++)
        b2[i] += vb2[i] = mu * vb2[i] - lr * gb2[i];
    }
  double acc = accuracy (x, label, w1, b1, w2, b2);
  printf ("loss %.4f -> %.4f, accuracy %.1f%%\n", first, last, 100 * acc);
  if (!(last < 0.5 * first && acc > 0.8))
    {
      printf ("FAIL: the fit did not improve enough\n");
      return 1;
    }
  return 0;
}

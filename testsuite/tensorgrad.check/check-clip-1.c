/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-dump" } */
/* The interpreter runs a loop that clip.c starts past zero (te_loop.start)
   from its start: a padded 1-D convolution's gradient, whose loop over
   the taps runs from max (0, P - i) with the bounds test gone, is
   checked against finite differences.  */

__attribute__ ((differentiable))
void
conv_pad (int n, int K, int P, const double *x, const double *w, double *y) /* { dg-message "gradient of .conv_pad. checked at \[^:\]*: worst relative error \[0-9.e+-\]+ in .d_\[xw\]." } */
{
  for (int i = 0; i < n; i++)
    {
      double acc = 0;
      for (int k = 0; k < K; k++)
        {
          int j = i + k - P;
          if (j >= 0 && j < n)
            acc += x[j] * w[k];
        }
      y[i] = acc;
    }
}

/* { dg-final { scan-tensorgrad-backward ", max \\(0, P - i\\) <= k < " } } */

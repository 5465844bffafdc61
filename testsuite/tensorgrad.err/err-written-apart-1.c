/* { dg-do compile } */
/* Two nests whose elements tensorgrad cannot tell apart: four features
   of each row, then a fifth, in rows S apart, which meet unless S >= 5,
   which the kernel does not say.  The error used to say that the
   gradient would lose the value the earlier nest wrote, as if they
   surely met; it says that they may, and what to write.  */

__attribute__ ((differentiable))
void
padded_rows (int n, int S, const double *x, double *y)
{
  for (int r = 0; r < n; r++)
    for (int j = 0; j < 4; j++)
      y[r * S + j] = 2 * x[r * 4 + j];
  for (int r = 0; r < n; r++)
    {
      y[r * S + 4] = x[r] * x[r]; /* { dg-error "'y' is written by more than one loop nest, which may write the same elements; not supported yet" } */
      /* { dg-message "tensorgrad cannot tell that this nest and an earlier one write different elements; where they meet, the gradient would lose the value the earlier nest wrote; write this result to another array" "" { target *-*-* } .-1 } */
    }
}

/* Accepted: the tiles of a matrix-vector product bounded by a variable
   computed from M % 8 and the rows after them from that variable
   (exec/tiled-bound-var-1.c).  */
__attribute__ ((differentiable))
void
tiled (int M, int K, const double *A, const double *x, double *y)
{
  int Mt = M - M % 8;
  for (int i = 0; i < Mt; i += 8)
    for (int r = 0; r < 8; r++)
      {
	double s = 0;
	for (int k = 0; k < K; k++)
	  s += A[(i + r) * K + k] * x[k];
	y[i + r] = s;
      }
  for (int i = Mt; i < M; i++)
    {
      double s = 0;
      for (int k = 0; k < K; k++)
	s += A[i * K + k] * x[k];
      y[i] = s;
    }
}

/* Also accepted: the remainder loop continuing the tiles' counter; a
   recurrence counting down in every row seeded by its last element
   (exec/recurrence-rows-down-1.c), also through a scalar the loop stores
   in every iteration.  */
__attribute__ ((differentiable))
void
tiled_continued (int M, int K, const double *A, const double *x, double *y)
{
  int i;
  for (i = 0; i < M - M % 8; i += 8)
    for (int r = 0; r < 8; r++)
      {
	double s = 0;
	for (int k = 0; k < K; k++)
	  s += A[(i + r) * K + k] * x[k];
	y[i + r] = s;
      }
  for (; i < M; i++)
    {
      double s = 0;
      for (int k = 0; k < K; k++)
	s += A[i * K + k] * x[k];
      y[i] = s;
    }
}

__attribute__ ((differentiable))
void
suffix_rows (int R, int n, double a, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      y[r * n + n - 1] = x[r * n + n - 1];
      for (int i = n - 2; i >= 0; i--)
	y[r * n + i] = a * y[r * n + i + 1] + x[r * n + i];
    }
}

__attribute__ ((differentiable))
void
suffix_rows_scalar (int R, int n, double a, const double *x, double *y)
{
  for (int r = 0; r < R; r++)
    {
      double s = 0;
      for (int i = n - 1; i >= 0; i--)
	{
	  s = a * s + x[r * n + i];
	  y[r * n + i] = s;
	}
    }
}

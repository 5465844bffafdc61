/* { dg-do compile } */
/* An output written over part of each row and read over the whole row:
   a causal row's exponentials stored for u <= t, then read for u < T,
   by a later loop of the same row or by a later nest (reported at the
   store of the sum, where the lifter puts the sum's statement).  The elements
   past t are the caller's values, whose adjoint an output does not
   return: the gradient was silently wrong (it read them as the
   kernel's).  Refused at the read; read behind the test that they were
   written, the same kernel is accepted.  */

#include <math.h>

__attribute__ ((differentiable))
void
causal_mix (int T, const float *s, float *p, float *o, const float *v)
{
  for (int t = 0; t < T; t++)
    {
      float z = 0;
      for (int u = 0; u <= t; u++)
	{
	  p[t * T + u] = expf (s[t * T + u]);
	  z += p[t * T + u];
	}
      for (int u = 0; u < T; u++)
	o[t * T + u] = p[t * T + u] * v[u] / z; /* { dg-error "'p' may be read here beyond the elements the kernel wrote; not supported yet" } */
      /* { dg-message "the caller's values of an output are not the kernel's; read only the elements the kernel writes" "" { target *-*-* } .-1 } */
    }
}

__attribute__ ((differentiable))
void
causal_rowsum (int T, const double *s, double *p, double *o)
{
  for (int t = 0; t < T; t++)
    for (int u = 0; u <= t; u++)
      p[t * T + u] = exp (s[t * T + u]);
  for (int t = 0; t < T; t++)
    {
      double a = 0;
      for (int u = 0; u < T; u++)
	a += p[t * T + u];
      o[t] = a; /* { dg-error "'p' may be read here beyond the elements the kernel wrote; not supported yet" } */
      /* { dg-message "the caller's values of an output are not the kernel's; read only the elements the kernel writes" "" { target *-*-* } .-1 } */
    }
}

/* Accepted: the read behind u <= t, or over u <= t.  */
__attribute__ ((differentiable))
void
causal_mix_guarded (int T, const float *s, float *p, float *o,
		    const float *v)
{
  for (int t = 0; t < T; t++)
    {
      float z = 0;
      for (int u = 0; u <= t; u++)
	{
	  p[t * T + u] = expf (s[t * T + u]);
	  z += p[t * T + u];
	}
      for (int u = 0; u < T; u++)
	o[t * T + u] = u <= t ? p[t * T + u] * v[u] / z : 0;
    }
}

__attribute__ ((differentiable))
void
causal_rowsum_tri (int T, const double *s, double *p, double *o)
{
  for (int t = 0; t < T; t++)
    for (int u = 0; u <= t; u++)
      p[t * T + u] = exp (s[t * T + u]);
  for (int t = 0; t < T; t++)
    {
      double a = 0;
      for (int u = 0; u <= t; u++)
	a += p[t * T + u];
      o[t] = a;
    }
}

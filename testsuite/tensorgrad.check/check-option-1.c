/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-check -fplugin-arg-tensorgrad-check-tol=abc" } */
/* check-tol= takes a number between 0 and 1.  */
/* { dg-error "check-tol=abc.: the tolerance must be a number between 0 and 1" "" { target *-*-* } 0 } */

double
plain (double a)
{
  return 2.0 * a;
}

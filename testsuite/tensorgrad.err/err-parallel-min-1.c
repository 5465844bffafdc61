/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-parallel-min=2k -fplugin-arg-tensorgrad-parallel-min" } */
/* parallel-min takes a count (0 or more): a value that is none, and the
   option without a value, are errors without a location.  */
/* { dg-error "option 'parallel-min' takes a count of statement runs, 0 or more, not '2k'" "" { target *-*-* } 0 } */
/* { dg-error "option 'parallel-min' needs a value: 'parallel-min=N'" "" { target *-*-* } 0 } */

double
plain (double a)
{
  return 2.0 * a;
}

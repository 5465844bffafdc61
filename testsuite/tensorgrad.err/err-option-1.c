/* { dg-do compile } */
/* { dg-options "-fplugin-arg-tensorgrad-bogus" } */
/* An unknown plugin option is an error without a location.  The file
   uses no attribute, so nothing else depends on the plugin loading.  */
/* { dg-error "unknown option .bogus." "" { target *-*-* } 0 } */

double
plain (double a)
{
  return 2.0 * a;
}

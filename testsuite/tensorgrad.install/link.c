/* install.exp links this program with the installed libtensorgrad only,
   as pkg-config --libs gives it (no -lm, no MPFR: the shared library
   brings what it needs), and again statically with pkg-config --static
   --libs.  It uses no math function itself, so the link shows what the
   library needs.  tg_gradcheck must pass a right hand-written pair,
     y[i] = x[i]^3, d_x[i] += 3 x[i]^2 d_y[i],
   and fail a wrong one (2 x[i]^2).  Prints the library's version and
   "link: ok".  */

#include <stdio.h>
#include <tensorgrad.h>

static double factor = 3;

static void
cube (int n, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i];
}

static void
cube_grad (int n, const double *x, double *y, double *d_x, double *d_y)
{
  (void) y;
  for (int i = 0; i < n; i++)
    d_x[i] += factor * x[i] * x[i] * d_y[i];
}

static void
cube_fwd (void *const *a, void *ret)
{
  (void) ret;
  cube (TG_ARG (int, a, 0), TG_PTR (double, a, 1), TG_PTR (double, a, 2));
}

static void
cube_bwd (void *const *a, void *const *s, const void *d_return)
{
  (void) d_return;
  cube_grad (TG_ARG (int, a, 0), TG_PTR (double, a, 1),
             TG_PTR (double, a, 2), TG_PTR (double, s, 0),
             TG_PTR (double, s, 1));
}

static void
cube_ext (void *const *a, long *count)
{
  count[1] = count[2] = TG_ARG (int, a, 0);
}

static const tg_param cube_params[] = {
  { "n", TG_INT, TG_IN },
  { "x", TG_PTR_DOUBLE, TG_IN },
  { "y", TG_PTR_DOUBLE, TG_OUT },
};
static const tg_kernel cube_kernel
  = TG_KERNEL ("cube", cube_params, TG_VOID, cube_fwd, cube_bwd, cube_ext);

int
main (void)
{
  int n = 6;
  double x[6] = { -1.5, -0.5, 0.25, 0.75, 1.0, 2.0 }, y[6];
  tg_report r;
  int right = tg_gradcheck (&cube_kernel, TG_ARGS (&n, x, y), NULL, &r);
  if (right != 0)
    tg_report_print (stdout, &r);
  tg_report_free (&r);
  factor = 2;
  int wrong = tg_gradcheck (&cube_kernel, TG_ARGS (&n, x, y), NULL, &r);
  tg_report_free (&r);
  printf ("libtensorgrad %s\n", tg_version ());
  if (right != 0 || wrong != 1)
    {
      printf ("link: FAILED: the right pair gave %d, the wrong one %d\n",
              right, wrong);
      return 1;
    }
  puts ("link: ok");
  return 0;
}

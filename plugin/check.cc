/* check.cc -- the compile-time self-check of a synthesized gradient
   (-fplugin-arg-tensorgrad-check): the plugin's side of lib/check/.

   lib/check/gradient.c runs the backward program against high-precision
   finite differences of the forward (its opening comment has the method
   and its limits) and returns a ck_result; this file parses the check's
   options and turns the result into GCC's diagnostics at the function:
       note: gradient of 'scale' checked at n=3: worst relative error
       0.0e+00 in 'd_a', 0.0e+00 in 'd_x'
   or an error naming the shadow and the first wrong element, or a note
   saying why the kernel was not checked.  */

#include "check.h"

extern "C" {
#include "check/check.h"
}

#include <string.h>
#include <mpfr.h>

/* ---- options ------------------------------------------------------------ */

/* Every check-sizes= value, joined by ';'.  GCC 12 drops one character
   from the end of a plugin argument's value for each '=' in it after the
   first (parse_plugin_arg_opt), so the values are taken from the command
   line as GCC saved it; VALUE, as the plugin got it, if that fails.  */
static const char *
all_sizes (const char *value)
{
  char *all = NULL;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const char *arg = save_decoded_options[i].arg;
      const char *s = (save_decoded_options[i].opt_index == OPT_fplugin_arg_
                       && arg ? strstr (arg, "-check-sizes=") : NULL);
      if (!s || memchr (arg, '=', s - arg))
        continue;
      s += strlen ("-check-sizes=");
      char *old = all;
      all = old ? concat (old, ";", s, NULL) : xstrdup (s);
      free (old);
    }
  return all ? all : xstrdup (value);
}

bool
check_option (const char *key, const char *value, check_options *opt)
{
  bool flag = !strcmp (key, "check") || !strcmp (key, "check-corrupt");
  if (!flag && strcmp (key, "check-tol") && strcmp (key, "check-sizes"))
    return false;
  if (flag && value)
    {
      error ("tensorgrad: option %qs takes no value", key);
      return true;
    }
  if (!flag && (!value || !*value))
    {
      error ("tensorgrad: option %qs needs a value (%s)", key,
             !strcmp (key, "check-tol") ? "check-tol=1e-8"
                                        : "check-sizes=NAME:n=4,m=3");
      return true;
    }
  if (!strcmp (key, "check"))
    opt->enabled = true;
  else if (!strcmp (key, "check-corrupt"))
    opt->corrupt = true;
  else if (!strcmp (key, "check-tol"))
    {
      char *end;
      double t = strtod (value, &end);
      if (*end || !(t > 0) || t >= 1)
        error ("tensorgrad: %<check-tol=%s%>: the tolerance must be a number "
               "between 0 and 1",
               value);
      else
        opt->tol = t;
    }
  else if (!opt->sizes)
    opt->sizes = all_sizes (value);
  return true;
}

/* ---- the diagnostics ---------------------------------------------------- */

/* Report RES, the check of FNDECL, at LOC.  */
static void
report (tree fndecl, location_t loc, const ck_result *res)
{
  const char *at = res->at;
  char list[1024], es[32], ts[32];
  size_t len = 0;
  switch (res->status)
    {
    case CK_BAD_SIZES:
      if (res->sizes_error == CK_SIZES_FORM)
        error_at (loc, "tensorgrad: %<check-sizes=%.*s%> is not of the form "
                  "NAME:n=4,m=3", res->entry_len, res->entry);
      else if (res->sizes_error == CK_SIZES_VALUE)
        error_at (loc, "tensorgrad: %<check-sizes=%.*s%>: give each size as "
                  "NAME=N, N >= 0", res->entry_len, res->entry);
      else
        error_at (loc, "tensorgrad: %<check-sizes%>: %qD has no integer "
                  "parameter %<%.*s%>", fndecl, res->name_len, res->name);
      break;
    case CK_NOT_CHECKED:
      inform (loc, "gradient of %qD not checked: %s", fndecl, res->why);
      break;
    case CK_NO_EVAL:
      error_at (loc, "gradient of %qD cannot be evaluated: %s", fndecl,
                res->diag.msg);
      break;
    case CK_NOT_FINITE:
      error_at (loc, "gradient of %qD is not finite%s: %qs[%lld] is %s",
                fndecl, at, res->shadow, (long long) res->elem, res->grad);
      inform (loc, "finite differences give %s there", res->diff);
      break;
    case CK_WRONG:
      error_at (loc, "gradient of %qD is wrong%s: %qs[%lld] is %s where "
                "finite differences give %s", fndecl, at, res->shadow,
                (long long) res->elem, res->grad, res->diff);
      snprintf (es, sizeof es, "%.1e", res->err);
      snprintf (ts, sizeof ts, "%.1e", res->tol);
      inform (loc, "relative error %s, above the tolerance %s (check-tol=)",
              es, ts);
      break;
    case CK_CHECKED:
      for (int k = 0; k < res->nshadows && len < sizeof list; k++)
        len += snprintf (list + len, sizeof list - len, "%s%.1e in %s%s%s",
                         len ? ", " : "", res->shadows[k].worst, open_quote,
                         res->shadows[k].name, close_quote);
      if (!len)
        inform (loc, "gradient of %qD checked%s: it has no floating input",
                fndecl, at);
      else
        inform (loc, "gradient of %qD checked%s: worst relative error %s",
                fndecl, at, list);
      break;
    }
}

void
check_gradient (tree fndecl, const te_program *fwd, const te_program *bwd,
                const check_options *opt)
{
  ck_options o;
  memset (&o, 0, sizeof o);
  o.tol = opt->tol;
  o.sizes = opt->sizes;
  o.corrupt = opt->corrupt;
  o.lquote = open_quote;
  o.rquote = close_quote;
  ck_result res;
  /* GCC's constant folding shares MPFR's flags; the interpreter keeps its
     exponent range to itself.  */
  mpfr_flags_t flags = mpfr_flags_save ();
  ck_gradient (IDENTIFIER_POINTER (DECL_NAME (fndecl)), fwd, bwd, &o, &res);
  mpfr_flags_restore (flags, MPFR_FLAGS_ALL);
  report (fndecl, DECL_SOURCE_LOCATION (fndecl), &res);
  ck_result_free (&res);
}

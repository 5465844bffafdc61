#!/usr/bin/env python3
"""Check GCC's -fdiagnostics-format=json output against a test's comments.

Usage: json-groups.py SOURCE OUTPUT

SOURCE holds, in order, the diagnostics it expects, one per line:
    json-error: RE        a top-level error whose message matches RE
    json-note: RE         the next child of that error: a note matching RE
    json-toplevel-note: RE
                          a note that stands alone (no error before it),
                          at the top level
OUTPUT is what the compiler printed (JSON on one line, maybe after other
text on lines of their own).  Every top-level error must be expected, in
order, each with exactly its notes as children; a note at the top level
must be expected as one.  Prints what differs; exit status 1 then.
"""

import json
import re
import sys


def expectations(path):
    errors, toplevel = [], []
    for line in open(path, encoding="utf-8"):
        m = re.search(r"json-(error|note|toplevel-note): (.*?)\s*(\*/)?\s*$",
                      line)
        if not m:
            continue
        kind, pattern = m.group(1), m.group(2)
        if kind == "error":
            errors.append((pattern, []))
        elif kind == "note":
            if not errors:
                sys.exit("%s: json-note before any json-error" % path)
            errors[-1][1].append(pattern)
        else:
            toplevel.append(pattern)
    return errors, toplevel


def diagnostics(path):
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("["):
            return json.loads(line)
    sys.exit("%s: no JSON array in the compiler's output" % path)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    errors, toplevel = expectations(sys.argv[1])
    diags = diagnostics(sys.argv[2])
    bad = []
    got_errors = [d for d in diags if d.get("kind") == "error"]
    for d in diags:
        if d.get("kind") == "note" and not any(
                re.search(p, d.get("message", "")) for p in toplevel):
            bad.append("note at the top level: %r" % d.get("message"))
    for p in toplevel:
        if not any(d.get("kind") == "note"
                   and re.search(p, d.get("message", "")) for d in diags):
            bad.append("no note at the top level matches %r" % p)
    if len(got_errors) != len(errors):
        bad.append("%d errors, expected %d: %r" % (
            len(got_errors), len(errors),
            [d.get("message") for d in got_errors]))
    for (pattern, notes), d in zip(errors, got_errors):
        msg = d.get("message", "")
        if not re.search(pattern, msg):
            bad.append("error %r does not match %r" % (msg, pattern))
        children = d.get("children", [])
        if [c.get("kind") for c in children] != ["note"] * len(notes):
            bad.append("error %r has children %r, expected %d notes" % (
                msg, [(c.get("kind"), c.get("message")) for c in children],
                len(notes)))
            continue
        for p, c in zip(notes, children):
            if not re.search(p, c.get("message", "")):
                bad.append("note %r of error %r does not match %r" % (
                    c.get("message"), msg, p))
    for line in bad:
        print(line)
    if not bad:
        print("ok: %d errors, %d notes" % (
            len(got_errors), sum(len(d.get("children", [])) for d in diags)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: MIT
"""What the end-to-end tests' Python checks share: reading a results file
and failing with one line that says what was wrong.

The scripts import it from their own directory: lib.sh puts tests/e2e on
PYTHONPATH (and keeps __pycache__ out of the source tree)."""
import json
import sys


def check(cond, what):
    """Fails the test with "FAIL: what" unless cond holds."""
    if not cond:
        sys.exit("FAIL: " + what)


def records(path):
    """Every record of a results file (JSON Lines), in order."""
    with open(path) as f:
        return [json.loads(line) for line in f]


def results(path, end="complete"):
    """The result records of a results file. end says what its last record
    must be: "complete" (an end record of a run that completed), "any" (an
    end record) or None (nothing asked)."""
    recs = records(path)
    if end is not None:
        last = recs[-1] if recs else {}
        check(last.get("type") == "end", path + ": no end record")
        check(end == "any" or last.get("status") == end,
              "%s: run %s, not %s" % (path, last.get("status"), end))
    return [r for r in recs if r["type"] == "result"]


def one(rs, bench, metric, **params):
    """The one result of bench and metric among rs (with these parameters,
    compared as text), which must be "ok"."""
    out = [r for r in rs if r["bench"] == bench and r.get("metric") == metric
           and all(str(r["params"].get(k)) == str(v) for k, v in params.items())]
    check(len(out) == 1, "%s %s %s: %d results" % (bench, metric, params or "", len(out)))
    check(out[0]["status"] == "ok", "%s %s: %s %s" % (bench, metric, out[0]["status"], out[0].get("reason")))
    return out[0]


def close(a, b, rel=1e-6):
    """a and b equal but for rounding (relative difference rel)."""
    return abs(a - b) <= rel * max(abs(a), abs(b))


def md_tables(text, title):
    """The tables of a md guide's section "## title", in order: each
    [head, rows], a row its cells' texts."""
    body = text.split("\n## " + title + "\n", 1)[1].split("\n## ", 1)[0]
    tables, cur = [], None
    for l in body.splitlines():
        if not l.startswith("|"):
            cur = None
            continue
        cells = [c.strip() for c in l.strip().strip("|").split(" | ")]
        if cur is None:
            cur = [cells, []]
            tables.append(cur)
        elif not l.startswith("|---"):
            cur[1].append(cells)
    return tables

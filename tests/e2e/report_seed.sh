#!/bin/sh
# SPDX-License-Identifier: MIT
# The guide from the seed's own figures: the fixtures (seven boards' LMBench
# rows and six boards' OpenSSL table, as results files) import and render,
# and the md, rst and csv tables have the seed's rows, columns and values.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"
DB="$T/s.db"
"$PG" import --db "$DB" "$F"/seed-*.jsonl >/dev/null || fail "import failed"
for fmt in md rst csv json; do
	"$PG" report --db "$DB" --format $fmt -o "$T/guide.$fmt" 2>/dev/null || fail "report --format $fmt failed"
done
# Straight from the files, without the store, the same guide.
"$PG" report "$F"/seed-*.jsonl >"$T/files.md" || fail "report from files failed"
"$PG" report --db "$DB" >"$T/store.md" 2>/dev/null || fail "report from the store failed"
cmp -s "$T/files.md" "$T/store.md" || fail "report from files differs from report from the store"
# -o FILE.md: the same guide, and its charts in files beside it
[ "$(grep -v '^!\[' "$T/guide.md" | uniq)" = "$(uniq "$T/store.md")" ] || fail "report -o guide.md is another guide"
grep -q '^!\[bw_mem-fcp\](guide-lmbench-[0-9]*.svg)$' "$T/guide.md" || fail "no chart beside the md guide"
for f in $(sed -n 's/^!\[.*\](\(.*\))$/\1/p' "$T/guide.md"); do
	[ -s "$T/$f" ] || fail "the md guide's chart $f was not written"
done
# Without --format, the -o file's extension names the format (md otherwise).
for ext in rst csv json; do
	"$PG" report --db "$DB" -o "$T/byext.$ext" 2>/dev/null || fail "report -o byext.$ext failed"
	sed 's/byext-/guide-/' "$T/byext.$ext" | cmp -s - "$T/guide.$ext" || fail "report -o FILE.$ext did not write $ext"
done
"$PG" report --db "$DB" -o "$T/byext.txt" 2>/dev/null || fail "report -o byext.txt failed"
sed 's/byext-/guide-/' "$T/byext.txt" | cmp -s - "$T/guide.md" || fail "report -o FILE.txt did not write md"

python3 - "$T" "$F" <<'PY' || fail "the rendered tables do not reproduce the seed"
import csv, json, re, sys
from pgcheck import md_tables
t, f = sys.argv[1], sys.argv[2]
seed = list(csv.reader(open(f + "/seed-lmbench.csv")))
boards = seed[0][1:]
want = {r[0]: r[1:] for r in seed[1:]}

def join(tables, lead):
    """A table written in parts (too wide for one: its boards split, the
    first lead columns in each) as one: head, rows in order."""
    head, rows, order = tables[0][0][:lead], {}, []
    for h, body in tables:
        head += h[lead:]
        for r in body:
            key = tuple(r[:lead])
            if key not in rows:
                order.append(key)
                rows[key] = list(key)
            rows[key] += r[lead:]
    return head, [rows[k] for k in order]

def md_section(text, title, lead=1, keep=lambda head: True):
    return join([tb for tb in md_tables(text, title) if keep(tb[0])], lead)

def rst_section(text, title, lead=1, keep=lambda head: True):
    body = text.split("\n" + title + "\n" + "=" * len(title) + "\n", 1)[1]
    body = re.split(r"\n[^\n]+\n=+\n", body)[0]	# up to the next section
    tables = []
    for part in re.split(r"\n\.\. csv-table::[^\n]*", body)[1:]:
        blocks = part.split("\n\n")
        hdr = next(csv.reader([blocks[0].split(":header: ", 1)[1]]))
        rows = [next(csv.reader([l.strip()])) for l in blocks[1].splitlines() if l.strip()]
        if keep(hdr):
            tables.append([hdr, rows])
    return join(tables, lead)

def check(head, rows, what):
    assert head[1:] == boards, (what, "columns", head)
    got = {r[0]: r[1:] for r in rows}
    assert list(got) == list(want), (what, "rows", set(got) ^ set(want))
    for name, cells in want.items():
        assert got[name] == cells, (what, name, got[name], cells)

md = open(t + "/guide.md").read()
check(*md_section(md, "LMBench"), "md")

rst = open(t + "/guide.rst").read()
check(*rst_section(rst, "LMBench"), "rst")
assert ".. image:: guide-lmbench-1.svg" in rst, "no chart in the rst guide"
try:
    import docutils.core
except ImportError:
    docutils = None
if docutils:
    # docutils (when there) reads it without a warning: halt at level 2.
    html = docutils.core.publish_string(rst, writer_name="html",
                                        settings_overrides={"halt_level": 2, "report_level": 5}).decode()
    assert html.count("<tr") > 170, "docutils lost table rows"

rows = list(csv.reader(open(t + "/guide.csv")))
lm = [r for r in rows[1:] if r[0] == "LMBench"]
check(["benchmark"] + rows[0][2::2], [[r[1]] + r[2::2] for r in lm], "csv")

# OpenSSL as the seed prints it: a row per algorithm and buffer size, per
# board the throughput (KBytes/Sec); then its CPU load table, a row per
# algorithm and a column per board (one figure over all the sizes).
ossl = list(csv.reader(open(f + "/seed-openssl.csv")))
ob = [h.split(" (")[0] for h in ossl[0][2:]]
cpu = {r[0]: r[1:] for r in csv.reader(open(f + "/seed-openssl-cpu.csv"))}
sized = lambda h: h[1] == "Buffer Size (in bytes)"
for fmt, sec in (("md", md_section), ("rst", rst_section)):
    text = md if fmt == "md" else rst
    head, rows = sec(text, "Crypto", 2, sized)
    assert head[:2] == ["Algorithm", "Buffer Size (in bytes)"], (fmt, head)
    # the six boards the seed's table has: j7200-evm has no OpenSSL figures
    names = [h.split(": ", 1) for h in head[2:]]
    assert [n[0] for n in names] == ob, (fmt, head)
    assert set(n[1] for n in names) == {"throughput (KBytes/Sec)"}, (fmt, head)
    got = {(r[0], r[1]): r for r in rows}
    # the buffer sizes in bytes, as the seed prints them (1024, not 1k)
    for r in ossl[1:]:
        row = got[(r[0], r[1])]
        for b, v in zip(ob, r[2:]):
            assert row[2 + ob.index(b)] == v, (fmt, r[0], r[1], b)
    assert [k for k in got][:6] == [("aes-128-cbc", s) for s in ("16", "64", "256", "1024", "8192", "16384")], (fmt, list(got)[:6])
    head, rows = sec(text, "Crypto", 1, lambda h: not sized(h))
    assert head == ["Algorithm"] + [b + ": CPU load (system) %" for b in ob], (fmt, head)
    got = {r[0]: r[1:] for r in rows}
    assert sorted(got) == sorted(k for k in cpu if k != "algorithm"), (fmt, sorted(got))
    for alg, cells in cpu.items():
        if alg != "algorithm":
            assert got[alg] == [("%.1f" % float(v) if v else "") for v in cells], (fmt, alg, got[alg])

g = json.load(open(t + "/guide.json"))
assert [s["title"] for s in g["sections"]] == ["LMBench", "Crypto"], g["sections"]
for s in g["sections"]:
    for r in s["rows"]:
        assert len(r["cells"]) == 7, r["name"]
PY

# Sections appear only for groups with results, in the guide's order.
grep -q '^## Stream' "$T/guide.md" && fail "a section without results"
[ "$(grep '^## ' "$T/guide.md" | tr '\n' ' ')" = "## Machines ## LMBench ## Crypto ## Not measured " ] ||
	fail "sections: $(grep '^## ' "$T/guide.md")"
echo ok

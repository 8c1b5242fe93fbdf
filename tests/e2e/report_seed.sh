#!/bin/sh
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
cmp -s "$T/files.md" "$T/guide.md" || fail "report from files differs from report from the store"
# Without --format, the -o file's extension names the format (md otherwise).
for ext in rst csv json; do
	"$PG" report --db "$DB" -o "$T/byext.$ext" 2>/dev/null || fail "report -o byext.$ext failed"
	cmp -s "$T/byext.$ext" "$T/guide.$ext" || fail "report -o FILE.$ext did not write $ext"
done
"$PG" report --db "$DB" -o "$T/byext.txt" 2>/dev/null || fail "report -o byext.txt failed"
cmp -s "$T/byext.txt" "$T/guide.md" || fail "report -o FILE.txt did not write md"

python3 - "$T" "$F" <<'PY' || fail "the rendered tables do not reproduce the seed"
import csv, json, sys
t, f = sys.argv[1], sys.argv[2]
seed = list(csv.reader(open(f + "/seed-lmbench.csv")))
boards = seed[0][1:]
want = {r[0]: r[1:] for r in seed[1:]}

def md_section(text, title):
    lines = text.split("\n## " + title + "\n", 1)[1].split("\n## ", 1)[0].splitlines()
    rows = [l for l in lines if l.startswith("|")]
    cells = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in rows]
    return cells[0], cells[2:]

def check(head, rows, what):
    assert head[1:] == boards, (what, "columns", head)
    got = {r[0]: r[1:] for r in rows}
    assert list(got) == list(want), (what, "rows", set(got) ^ set(want))
    for name, cells in want.items():
        assert got[name] == cells, (what, name, got[name], cells)

md = open(t + "/guide.md").read()
check(*md_section(md, "LMBench"), "md")

rst = open(t + "/guide.rst").read()
sec = rst.split("\nLMBench\n=======\n", 1)[1].split("\n.. csv-table:: ", 1)[1]
body = sec.split("\n\n", 2)
hdr = next(csv.reader([body[0].split(":header: ", 1)[1]]))
rows = [next(csv.reader([l.strip()])) for l in body[1].splitlines() if l.strip()]
check(hdr, rows, "rst")
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

# OpenSSL: six boards, values and the CPU load beside the largest buffer.
ossl = list(csv.reader(open(f + "/seed-openssl.csv")))
ob = [h.split(" (")[0] for h in ossl[0][2:]]
head, rows = md_section(md, "Crypto")
assert head[1:] == sum([[b, b + " CPU Load %"] for b in boards], []), head
got = {r[0]: r for r in rows}
for r in ossl[1:]:
    name = "%s %s (KBytes/Sec)" % (r[0], r[1])
    for b, v in zip(ob, r[2:]):
        assert got[name][1 + 2 * boards.index(b)] == v, (name, b)
    assert got[name][1 + 2 * boards.index("j7200-evm")] == "", "j7200-evm has no OpenSSL figures"
cpu = {r[0]: r[1:] for r in csv.reader(open(f + "/seed-openssl-cpu.csv"))}
for b, v in zip(ob, cpu["sha256"]):
    assert got["sha256 16384 (KBytes/Sec)"][2 + 2 * boards.index(b)] == ("%.1f" % float(v) if v else ""), b

# Every row has a cell for every column.
for l in md.splitlines():
    if l.startswith("| ") and "---" not in l:
        pass
g = json.load(open(t + "/guide.json"))
assert [s["title"] for s in g["sections"]] == ["LMBench", "Crypto"], g["sections"]
for s in g["sections"]:
    for r in s["rows"]:
        assert len(r["cells"]) == 7, r["name"]
PY

# Sections appear only for groups with results, in the guide's order.
grep -q '^## Stream' "$T/guide.md" && fail "a section without results"
[ "$(grep '^## ' "$T/guide.md" | tr '\n' ' ')" = "## Machines ## LMBench ## Crypto " ] ||
	fail "sections: $(grep '^## ' "$T/guide.md")"
echo ok

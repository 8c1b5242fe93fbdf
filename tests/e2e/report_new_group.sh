#!/bin/sh
# SPDX-License-Identifier: MIT
# A new group brings its own section into the guide with nothing edited
# outside its directory: examples/group_synth/ (the skeleton group of
# docs/architecture.md) copied to src/bench/ of a copy of the tree is
# built, run and reported. Its section (new to the
# guide, order 115) pivots on the buffer size, a column per benchmark and
# channel count per board, and plots the value against the size, a line
# per channel count (per board and channel count for two boards).
# The copy is built without libpq (the shared store's optional library),
# so this build also shows that a PostgreSQL --db then says what is missing.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}
mkdir -p "$T/tree"
cp -r "$PG_SOURCE_DIR/CMakeLists.txt" "$PG_SOURCE_DIR/VERSION" "$PG_SOURCE_DIR/cmake" "$PG_SOURCE_DIR/src" "$T/tree/"
cp -r "$PG_SOURCE_DIR/examples/group_synth" "$T/tree/src/bench/synth"
"$CMAKE" -S "$T/tree" -B "$T/b" $BUILD_UNOPT -DBUILD_TESTING=OFF -DPG_WITH_LIBPQ=OFF \
	>"$T/cfg.log" 2>&1 || fail "configure failed: $(tail -n 5 "$T/cfg.log")"
grep -q 'benchmark groups: .*synth' "$T/cfg.log" || fail "the new group was not found: $(grep groups "$T/cfg.log")"
"$CMAKE" --build "$T/b" -j 2 --target perfguide >"$T/build.log" 2>&1 || fail "build failed: $(tail -n 20 "$T/build.log")"
P="$T/b/perfguide"
cd "$T"
"$P" run synth.write synth.read --suite quick --runs 3 --board bd-a --out a.jsonl --no-db >/dev/null 2>&1 ||
	fail "run synth failed"
"$P" run mem.bw.rd -p size=64k $FAST --board bd-a --out a.jsonl --no-db >/dev/null 2>&1 || fail "run mem.bw.rd failed"
grep -q '"section":"Synthetic transfers"' a.jsonl || fail "results do not carry the section"
sed 's/"board":"bd-a"/"board":"bd-b"/; s/"id":"bd-a-/"id":"bd-b-/' a.jsonl >b.jsonl
"$P" report a.jsonl --format md -o one.md 2>/dev/null || fail "report md failed"
"$P" report a.jsonl b.jsonl --format md -o two.md 2>/dev/null || fail "report md of two boards failed"
"$P" report a.jsonl b.jsonl --format html -o two.html 2>/dev/null || fail "report html failed"
"$P" report a.jsonl b.jsonl --format csv -o two.csv 2>/dev/null || fail "report csv failed"

python3 - <<'PY' || fail "the new section's table or plot is wrong"
import csv, re
def section(path, title):
    text = open(path).read()
    body = text.split("\n## " + title + "\n", 1)[1].split("\n## ", 1)[0]
    # a table wider than the page is split by boards, each part with the
    # row names: join the parts back, row by row
    tables, cur = [], []
    for l in body.splitlines() + [""]:
        if l.startswith("|"):
            cur.append([c.strip() for c in l.strip().strip("|").split(" | ")])
        elif cur:
            tables.append(cur)
            cur = []
    rows = tables[0]
    for t in tables[1:]:
        rows = [a + b[1:] for a, b in zip(rows, t)]
    # each value column may have its CPU load beside it (when the window
    # was long enough to measure it): look at the values
    keep = [i for i, h in enumerate(rows[0]) if not h.endswith(" CPU load (system) %")]
    cpu = [h for h in rows[0] if h.endswith(" CPU load (system) %")]
    assert not cpu or cpu[0] == rows[0][1][:-len(" (KiB x ch)")] + " CPU load (system) %", rows[0]
    # a cell the guide doubts (a dagger and its footnote: the machine was
    # busy while it measured, as under ctest -j2) still has its value
    plain = lambda c: re.sub(r" \u2020( \[\d+\])?$", "", c)
    pick = lambda r: [plain(r[i]) for i in keep]
    return text, pick(rows[0]), [pick(r) for r in rows[2:]]

text, head, rows = section("one.md", "Synthetic transfers")
# after LMBench (order 10), its own intro
assert text.index("## LMBench") < text.index("## Synthetic transfers"), "section order"
assert "A group the tests add: kibibytes times channels." in text
assert head == ["Buffer size (bytes)", "bd-a: Write, 1 ch (KiB x ch)", "bd-a: Write, 8 ch (KiB x ch)",
                "bd-a: Read, 1 ch (KiB x ch)", "bd-a: Read, 8 ch (KiB x ch)"], head
# a row per size, in size order; each cell size / 1024 * channels
assert [r[0] for r in rows] == ["4k", "64k", "1m"], rows
for r, kib in zip(rows, (4, 64, 1024)):
    assert r[1:5] == ["%.2f" % kib, "%.2f" % (kib * 8), "%.2f" % kib, "%.2f" % (kib * 8)], r

text, head, rows = section("two.md", "Synthetic transfers")
assert len(head) == 9 and head[5] == "bd-b: Write, 1 ch (KiB x ch)", head
assert rows[1][6] == "512.00", rows[1]

# csv stays a row per result key
lines = [r for r in csv.reader(open("two.csv")) if r[0] == "Synthetic transfers"]
assert len(lines) == 12, len(lines)

html = open("two.html").read()
sec = html.split('<h2 id="synthetic-transfers">Synthetic transfers</h2>', 1)[1].split("</section>", 1)[0]
assert sec.count("<svg") == 2, sec.count("<svg")	# a plot per benchmark, no bar charts
assert "<title>Write</title>" in sec, sec[:2000]
assert "size (log scale)" in sec
for legend in ("bd-a, channels=1", "bd-a, channels=8", "bd-b, channels=1", "bd-b, channels=8"):
    assert ">" + legend + "</text>" in sec, legend
assert 'stroke-dasharray' in sec, "the second board's lines are not dashed"
PY
# A benchmark that fails amid others: the run goes on, keeps every other
# result, ends with a summary naming the failure on one line, and exits 1;
# the guide shows the error and why.
set +e
"$P" run synth.fail mem.bw.rd -p size=64k $FAST --board bd-c --out c.jsonl --no-db >c.out 2>c.err
rc=$?
set -e
[ $rc -eq 1 ] || fail "a failed benchmark: exit $rc, expected 1"
grep -q '^perfguide: 2 results: [01] ok, [01] noisy, 0 skipped, 1 error$' c.err || fail "summary: $(cat c.err)"
grep -qx 'perfguide: error: synth.fail size=64k channels=1: fails on purpose (a second line that the summary keeps on one)' c.err ||
	fail "error line: $(cat c.err)"
# the summary's lines come last: the count, what disturbed results (on a
# busy machine), the error, after the results file is written
[ "$(sed -n '/^perfguide: wrote results/,$p' c.err | sed -n 2p | cut -c1-22)" = "perfguide: 2 results: " ] &&
	tail -n 1 c.err | grep -q '^perfguide: error: synth.fail' || fail "the summary does not end the run: $(cat c.err)"
grep -q '"bench":"mem.bw.rd".*"status":"ok"' c.jsonl || fail "the result after the failure was lost"
"$P" report c.jsonl -o c.md 2>/dev/null || fail "report of a run with an error failed"
grep -q '| error \[1\] |' c.md || fail "the guide does not show the error: $(grep -i error c.md)"
grep -q '^- \[1\] fails on purpose' c.md || fail "the guide does not say why: $(grep '^- ' c.md)"

# Nothing outside the group's directory names it.
grep -rl 'synth' "$T/tree/src" | grep -v '/src/bench/synth/' && fail "the group is named outside its directory"

# Without libpq: a PostgreSQL store is bad input that says what to install.
set +e
"$P" import --db postgresql://farm@localhost/perfguide a.jsonl >/dev/null 2>"$T/err"
rc=$?
PERFGUIDE_DB=postgres://farm@localhost/perfguide "$P" run mem.bw.rd -p size=64k $FAST --out d.jsonl >/dev/null 2>"$T/err2"
rc2=$?
set -e
[ $rc -eq 2 ] && grep -q 'built without libpq (install libpq-dev' "$T/err" || fail "import without libpq: exit $rc: $(cat "$T/err")"
[ $rc2 -eq 2 ] && grep -q 'built without libpq' "$T/err2" || fail "run without libpq: exit $rc2: $(cat "$T/err2")"
echo ok

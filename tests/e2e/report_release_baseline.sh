#!/bin/sh
# SPDX-License-Identifier: MIT
# A release's guide against a baseline of another release or a published
# table (issue 38): `report --release 09.02 --baseline seed` keeps the
# baseline board though none of its runs has that label (an imported
# table has none), says so on stderr, and takes the baseline's run of the
# release when it has one; from the store and from files. A baseline that
# shares no row with the release: the summary says so in words.
. "$(dirname "$0")/lib.sh"
need_python

run() { # run ID BOARD LABELS MEDIAN
	cat <<EOF
{"type":"run","schema":"perfguide/1","id":"$1","board":"$2","started":"2026-01-0${5:-1}T00:00:00Z","machine":{"arch":"aarch64"},"labels":$3}
{"type":"result","bench":"cpu.dhrystone","params":{"copies":1},"metric":"dmips","unit":"DMIPS","better":"higher","samples":[$4,$4,$4],"median":$4,"min":$4,"max":$4,"cv":0,"noisy":false,"stop":"interval","label":"cpu_dhrystone (DMIPS)","status":"ok"}
{"type":"end","finished":"2026-01-0${5:-1}T00:10:00Z","status":"complete"}
EOF
}
run a1 boardA '{"release":"09.02"}' 2000 >"$T/a.jsonl"
run s1 seed '{}' 1000 >"$T/seed.jsonl"
# the seed board measured again for 09.02 as well: that run is its column
run s2 seed '{"release":"09.02"}' 1500 2 >"$T/seed2.jsonl"

# cells: each board's figure in the dhrystone row of a md guide (not the
# ratio columns)
cells() {
	python3 - "$1" <<'PY'
import sys
head = None
for line in open(sys.argv[1]):
    cols = [c.strip() for c in line.strip().strip("|").split("|")]
    if line.startswith("| Benchmarks"):
        head = cols
    elif line.startswith("| cpu_dhrystone") and head:
        print(" ".join("%g" % float(c.split(" ")[0]) for h, c in zip(head[1:], cols[1:]) if " / " not in h))
        break
PY
}

# From files.
"$PG" report "$T/a.jsonl" "$T/seed.jsonl" --release 09.02 --baseline seed -o "$T/f.md" 2>"$T/f.err" ||
	fail "report --release --baseline from files: $(cat "$T/f.err")"
grep -q -- "--baseline seed: no run of it with release=09.02" "$T/f.err" || fail "not said: $(cat "$T/f.err")"
[ "$(cells "$T/f.md")" = "2000 1000" ] || fail "files: the row reads '$(cells "$T/f.md")', expected boardA 2000, seed 1000"
"$PG" report "$T/a.jsonl" "$T/seed.jsonl" --release 09.02 -o "$T/f0.md" 2>/dev/null || fail "report --release"
[ "$(cells "$T/f0.md")" = "2000" ] || fail "without --baseline the seed board is left out: '$(cells "$T/f0.md")'"
"$PG" report "$T/a.jsonl" "$T/seed.jsonl" "$T/seed2.jsonl" --release 09.02 --baseline seed -o "$T/f2.md" \
	2>"$T/f2.err" || fail "report with the seed's run of 09.02"
[ "$(cells "$T/f2.md")" = "2000 1500" ] || fail "the seed's run of 09.02 is its column: '$(cells "$T/f2.md")'"
! grep -q "no run of it" "$T/f2.err" || fail "said the seed has no run of 09.02: $(cat "$T/f2.err")"

# A baseline that shares no row with the release (a quick suite's run
# beside a published table of the standard suite's parameters): the
# summary says so in words; rst has no table of no rows (Sphinx refuses it).
sed 's/"copies":1/"copies":4/; s/"seed"/"other"/; s/"s1"/"o1"/' "$T/seed.jsonl" >"$T/other.jsonl"
for fmt in md rst html; do
	"$PG" report "$T/a.jsonl" "$T/other.jsonl" --release 09.02 --baseline other --format $fmt -o "$T/o.$fmt" \
		2>/dev/null || fail "report --format $fmt against a baseline with no shared row"
	grep -q "No board has a figure in a row the baseline has" "$T/o.$fmt" || fail "$fmt: the empty summary unsaid"
done
! grep -q "csv-table:: Against" "$T/o.rst" || fail "rst: a summary table of no rows"
grep -q '^## Against other$' "$T/o.md" || fail "md: no summary heading: $(grep '^## ' "$T/o.md")"

# From the store: every board, and the boards named.
[ "${PG_HAVE_STORE:-ON}" = ON ] || { echo "the store part skipped: built without SQLite"; exit 0; }
"$PG" import --db "$T/s.db" "$T/a.jsonl" "$T/seed.jsonl" >/dev/null || fail "import"
"$PG" report --db "$T/s.db" --release 09.02 --baseline seed -o "$T/s.md" 2>"$T/s.err" ||
	fail "report --release --baseline from the store: $(cat "$T/s.err")"
[ "$(cells "$T/s.md")" = "2000 1000" ] || fail "store: the row reads '$(cells "$T/s.md")'"
"$PG" report --db "$T/s.db" --board boardA --board seed --release 09.02 --baseline seed -o "$T/b.md" \
	2>"$T/b.err" || fail "report --board ... --release --baseline: $(cat "$T/b.err")"
[ "$(cells "$T/b.md")" = "2000 1000" ] || fail "--board: the row reads '$(cells "$T/b.md")'"
expect_usage_error "a baseline with no run at all" report --db "$T/s.db" --release 09.02 --baseline nosuch
expect_usage_error "a board named without the release" report --db "$T/s.db" --board boardA --board seed \
	--release 09.02
echo "ok"

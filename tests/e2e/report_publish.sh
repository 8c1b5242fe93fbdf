#!/bin/sh
# SPDX-License-Identifier: MIT
# A guide a vendor can publish as it is: figures to doubt marked with a
# note in every format and counted at the head (report --strict exits 3);
# intros that say what the results record; a title, a table of contents;
# csv rows keep their keys; --all-metrics and --metrics; a published
# table's figures imported onto perfguide's rows (import --table); and the
# rst with its SVG charts builds in a Sphinx project with -W.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"
DAG=$(printf '\342\200\240')

# A board's run: a noisy figure, one measured while the machine was busy
# (disturbed), a clean one, and storage rows that share their label.
cat >"$T/a.jsonl" <<'EOF'
{"type":"run","schema":"perfguide/1","id":"a1","board":"boardA","started":"2026-01-01T00:00:00Z","machine":{"arch":"aarch64","cpus":[{"id":0,"model":"Cortex-A53"}],"cpufreq":[{"policy":"policy0","governor":"performance","max_khz":1400000}],"virt":"none","emulated":false},"build":{"version":"9.9","libs_running":{"openssl":"3.0.17","jansson":"2.14"}},"config":{"runs":0,"min_runs":6,"max_runs":10,"ci_target":0.02,"cpus":[2]},"labels":{"release":"09.02"},"sections":[{"title":"Storage","order":110,"cpu_load":true,"rows_by":"bs","rows_title":"Buffer size (bytes)","metrics":"bandwidth","intro":"The {engine} engine, queue depth {depth}, {direct?O_DIRECT|buffered}. Seen by {nothing}. The end."}]}
{"type":"result","bench":"mem.bw.rd","params":{"size":1048576,"threads":1},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[50,100,150,100,100,60],"median":100,"min":50,"max":150,"cv":0.3,"noisy":true,"stop":"max_runs","label":"bw_mem-rd-1mb","status":"ok"}
{"type":"result","bench":"mem.bw.wr","params":{"size":1048576,"threads":1},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[200,200,200,200,200,200],"median":200,"min":200,"max":200,"cv":0,"noisy":false,"stop":"interval","disturbed":true,"disturbed_why":"other processes took 45% of the CPUs","label":"bw_mem-wr-1mb","status":"ok"}
{"type":"result","bench":"mem.bw.cp","params":{"size":1048576,"threads":1},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[300,300,300,300,300,300],"median":300,"min":300,"max":300,"cv":0,"noisy":false,"stop":"interval","label":"bw_mem-cp-1mb","status":"ok"}
{"type":"result","bench":"storage.write","params":{"bs":4096,"depth":4,"direct":1,"engine":"auto","size":33554432},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[10,10,10,10,10,10],"median":10,"min":10,"max":10,"cv":0,"stop":"interval","label":"LOOP EXT4 Write","note":"fs=ext4; engine=psync; depth=1","section":"Storage","cpu":{"busy_pct":20},"status":"ok"}
{"type":"result","bench":"storage.write","params":{"bs":65536,"depth":4,"direct":1,"engine":"auto","size":33554432},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[90,90,90,90,90,90],"median":90,"min":90,"max":90,"cv":0,"stop":"interval","label":"LOOP EXT4 Write","note":"fs=ext4; engine=psync; depth=1","section":"Storage","cpu":{"busy_pct":30},"status":"ok"}
{"type":"result","bench":"storage.write","params":{"bs":4096,"depth":4,"direct":1,"engine":"auto","size":33554432},"metric":"lat_p99","unit":"us","better":"lower","samples":[5,5,5,5,5,5],"median":5,"min":5,"max":5,"cv":0,"stop":"interval","section":"Storage","status":"ok"}
{"type":"end","finished":"2026-01-01T00:10:00Z","status":"complete"}
EOF
for fmt in md rst csv json html; do
	"$PG" report "$T/a.jsonl" --title "Board A, release 09.02" --format $fmt -o "$T/a.$fmt" 2>/dev/null ||
		fail "report --format $fmt failed"
done
export SOURCE_DATE_EPOCH=1767225600
"$PG" report "$T/a.jsonl" --title "Board A" >"$T/head.md" || fail "report to stdout"
unset SOURCE_DATE_EPOCH

python3 - "$T" <<'PY' || fail "the guide of board A is wrong"
import csv, json, sys
t = sys.argv[1]
DAGGER = "\u2020"
md = open(t + "/a.md").read()
head = open(t + "/head.md").read()
# title, when, release, contents
assert md.startswith("# Board A, release 09.02\n"), md[:80]
assert head.split("\n")[2] == ("Made on 2026-01-01 by perfguide %s from 1 board column; release 09.02. CPU load columns "
    "are the system's busy share of all the CPUs, other processes' included: marked " + DAGGER +
    " where they used 10%% or more.") % head.split("perfguide ")[1].split(" ")[0], head.split("\n")[2]
for entry in ("- [Machines](#machines)", "- [Figures to doubt](#figures-to-doubt)", "- [LMBench](#lmbench)", "- [Storage](#storage)"):
    assert entry in md, entry
# the machine table: what the run recorded
for row in ("| Architecture | aarch64 |", "| Frequency | 1400 MHz |", "| Governor | performance |",
            "| Emulated CPU | no |", "| Labels | release=09.02 |", "| Pinned to | CPU 2 |",
            "| Libraries | OpenSSL 3.0.17, jansson 2.14 |",
            "| Sampling | 6 to 10 samples per result, until the median is known to +/-2% |"):
    assert row in md, row
# figures to doubt: marked, a note says why, counted at the head
assert "| bw_mem-rd-1mb (MB/s) | 100.00 (min 50.00, max 150.00) " + DAGGER + " [1] |" in md, md
assert "- [1] noisy: CV 30% over 6 samples" in md
assert "| bw_mem-wr-1mb (MB/s) | 200.00 " + DAGGER + " [2] |" in md
assert "- [2] disturbed: other processes took 45% of the CPUs" in md
assert "| bw_mem-cp-1mb (MB/s) | 300.00 |" in md
assert "2 of the 5 figures in the tables are marked " + DAGGER in md
assert "- 1 noisy: " in md and "- 1 disturbed: " in md
# the intro says what ran (the note's engine and depth), drops what nothing recorded
assert "The psync engine, queue depth 1, O_DIRECT. The end." in md, md
rst = open(t + "/a.rst").read()
assert "100.00 (min 50.00, max 150.00) " + DAGGER + " [1]" in rst
assert "- [2] disturbed: other processes took 45% of the CPUs" in rst
assert ".. contents::" in rst
html = open(t + "/a.html").read()
assert '<td class="v doubt" title="noisy: CV 30% over 6 samples">100.00 (min 50.00, max 150.00) ' + DAGGER + ' <sup>1</sup></td>' in html, html
assert "<title>Board A, release 09.02</title>" in html
g = json.load(open(t + "/a.json"))
assert g["title"] == "Board A, release 09.02" and g["doubts"]["doubtful"] == 2 and g["doubts"]["disturbed"] == 1, g["doubts"]
cells = {r["name"]: r["cells"][0] for s in g["sections"] for r in s["rows"]}
assert cells["bw_mem-rd-1mb (MB/s)"]["doubt"] == ["noisy"], cells["bw_mem-rd-1mb (MB/s)"]
assert cells["bw_mem-wr-1mb (MB/s)"]["doubt_note"] == "disturbed: other processes took 45% of the CPUs"
rows = list(csv.reader(open(t + "/a.csv")))
got = {r[1]: r[2] for r in rows[1:]}
assert got["bw_mem-wr-1mb (MB/s)"] == "200.00 " + DAGGER + ": disturbed: other processes took 45% of the CPUs", got
# csv keeps every row's key: the label two storage rows share, with its buffer size
assert "LOOP EXT4 Write bs=4k (MB/s)" in got and "LOOP EXT4 Write bs=64k (MB/s)" in got, list(got)
assert "storage.write bs=4k lat_p99 (us)" in got, list(got)
PY

# CPU load: the system's counts other processes; a cell measured beside
# them is marked, its note giving their share and perfguide's own, which
# --cpu-load process shows instead (and says so at the head).
sed 's/"cpu":{"busy_pct":20}/"cpu":{"busy_pct":96,"self_pct":8},"env":{"others_pct":88}/' "$T/a.jsonl" >"$T/busy.jsonl"
"$PG" report "$T/busy.jsonl" >"$T/busy.md" 2>/dev/null || fail "report of a busy run"
grep -q '^| 4k | 10.00 | 96.0 '"$DAG"' \[[0-9]\] |' "$T/busy.md" || fail "busy CPU load: $(grep '^| 4k' "$T/busy.md")"
grep -q 'CPU load counts other processes: they used 88% of the CPUs meanwhile, perfguide 8%' "$T/busy.md" ||
	fail "busy CPU load's note: $(grep -i 'cpu load' "$T/busy.md")"
grep -q '^| 64k | 90.00 | 30.0 |' "$T/busy.md" || fail "a quiet CPU load is marked: $(grep '^| 64k' "$T/busy.md")"
"$PG" report "$T/busy.jsonl" --format html >"$T/busy.html" 2>/dev/null || fail "report of a busy run, html"
grep -q '<td class="v cpu doubt" title="CPU load counts other processes: they used 88% of the CPUs meanwhile, perfguide 8%">96.0 '"$DAG"' <sup>' \
	"$T/busy.html" || fail "busy CPU load, html: $(grep -o '<td class="v cpu[^>]*>[^<]*' "$T/busy.html")"
"$PG" report "$T/busy.jsonl" --cpu-load process >"$T/self.md" 2>/dev/null || fail "report --cpu-load process"
grep -q 'CPU load (perfguide) %' "$T/self.md" || fail "--cpu-load process: the heading"
grep -q "CPU load columns are perfguide's own share" "$T/self.md" || fail "--cpu-load process: the head says nothing"
grep -q "Here the CPU load columns are perfguide's own share of all the CPUs" "$T/self.md" ||
	fail "--cpu-load process: the section's intro says nothing"
grep -q '^| 4k | 10.00 | 8.0 '"$DAG"' \[[0-9]\] |' "$T/self.md" || fail "--cpu-load process: $(grep '^| 4k' "$T/self.md")"
grep -q "^- \[[0-9]\] the system's load: the result records no share of perfguide's own" "$T/self.md" ||
	fail "--cpu-load process without self_pct: $(grep '^| 64k' "$T/self.md")"
expect_usage_error "bad --cpu-load" report "$T/a.jsonl" --cpu-load all

# --strict: a guide with figures to doubt is written, and exits 3
set +e
"$PG" report "$T/a.jsonl" --strict -o "$T/strict.md" 2>"$T/strict.err"
rc=$?
set -e
[ $rc -eq 3 ] || fail "--strict with figures to doubt: exit $rc, expected 3"
[ -s "$T/strict.md" ] || fail "--strict wrote no guide"
grep -q '2 of 5 figures are to doubt' "$T/strict.err" || fail "--strict says nothing: $(cat "$T/strict.err")"
"$PG" report "$F/seed-am68_sk-fs.jsonl" --strict >/dev/null 2>&1 || fail "--strict without figures to doubt: exit $?"

# --all-metrics: the other metrics in a table of their own; --metrics: another
"$PG" report "$T/a.jsonl" >"$T/plain.md" 2>/dev/null
grep -q 'lat_p99' "$T/plain.md" && fail "a metric the section does not show is in the guide"
"$PG" report "$T/a.jsonl" --all-metrics >"$T/all.md" 2>/dev/null
grep -q '^### Storage: other metrics$' "$T/all.md" || fail "--all-metrics: no table of other metrics"
grep -q 'bs=4k lat_p99 (us) | 5.00 |' "$T/all.md" || fail "--all-metrics: $(grep lat_p99 "$T/all.md")"
"$PG" report "$T/a.jsonl" --metrics Storage=lat_p99 >"$T/p99.md" 2>/dev/null
grep -q '^| 4k | 5.00 |' "$T/p99.md" || fail "--metrics Storage=lat_p99: $(grep '^| 4k' "$T/p99.md")"
expect_usage_error "bad --metrics" report "$T/a.jsonl" --metrics bandwidth
expect_usage_error "bad --width" report "$T/a.jsonl" --width wide

# An emulated CPU: every figure marked, the machine table says so.
sed 's/"virt":"none","emulated":false/"virt":"qemu-user","emulated":true/' "$T/a.jsonl" >"$T/emu.jsonl"
"$PG" report "$T/emu.jsonl" >"$T/emu.md" 2>/dev/null
grep -q '| Emulated CPU | yes (qemu-user): not the hardware' "$T/emu.md" || fail "emulation in the machine table"
grep -q '| bw_mem-cp-1mb (MB/s) | 300.00 .* \[[0-9]*\] |' "$T/emu.md" || fail "an emulated figure is not marked"
grep -q 'emulated CPU (qemu-user): not the hardware' "$T/emu.md" || fail "no note for the emulated figures"

# The machine table from what was recorded: without cpufreq the MHz of
# /proc/cpuinfo, the source said, and no governor; the caches, the
# container; qemu's virt board seen from an ARM guest, perhaps emulated, is
# a figure to doubt too.
sed -e 's/"cpus":\[{"id":0,"model":"Cortex-A53"}\],"cpufreq":\[[^]]*\]/"cpus":[{"id":0,"model":"Cortex-A72","mhz":4190.5}],"cpufreq":[],"caches":[{"level":1,"type":"Data","size":32768,"count":2},{"level":2,"type":"Unified","size":1048576,"count":1}],"container":"docker"/' \
	-e 's/"virt":"none","emulated":false/"virt":"qemu","emulated":false/' "$T/a.jsonl" >"$T/guest.jsonl"
"$PG" report "$T/guest.jsonl" >"$T/guest.md" 2>/dev/null
for row in '| Frequency | 4190 MHz (/proc/cpuinfo when the run started: no cpufreq) |' '| Governor | none (no cpufreq) |' \
	'| Caches | L1d 32k x2, L2 1m |' '| Container | docker |' '| Emulated CPU | perhaps (qemu, with KVM or emulated'; do
	grep -qF "$row" "$T/guest.md" || fail "machine table: no '$row': $(sed -n '/^## Machines/,/^## /p' "$T/guest.md")"
done
grep -q '| bw_mem-cp-1mb (MB/s) | 300.00 .* \[[0-9]*\] |' "$T/guest.md" || fail "a perhaps emulated figure is not marked"
grep -q 'perhaps an emulated CPU (qemu, with KVM or without: the guest cannot tell)' "$T/guest.md" ||
	fail "no note for the perhaps emulated figures"

# A published table imported onto perfguide's rows: the seed's bw_mem rows
# and a run of mem.bw.rd share a row; the map names a row no label gives.
printf 'lat_mem_rd-stride128-sz50,mem.lat.rd,size=512 stride=128,latency\n' >"$T/map.csv"
"$PG" import --db "$T/t.db" --table "$F/seed-lmbench.csv" --map "$T/map.csv" --release 09.02 --date 2024-06-01 \
	>"$T/imp.out" 2>"$T/imp.err" || fail "import --table: $(cat "$T/imp.err")"
grep -q "seed-lmbench.csv: 102 rows onto perfguide's benchmarks, 13 rows of its own, 7 boards" "$T/imp.err" ||
	fail "import --table: $(cat "$T/imp.err")"
grep -q 'run table-seed-lmbench-am68_sk-fs-09.02 (am68_sk-fs, 115 results) imported' "$T/imp.out" ||
	fail "import --table: $(cat "$T/imp.out")"
"$PG" run mem.bw.rd -p size=1m $FAST --board mine --db "$T/t.db" --out "$T/mine.jsonl" >/dev/null 2>&1 ||
	fail "run mem.bw.rd"
"$PG" report --db "$T/t.db" --board am68_sk-fs --board mine >"$T/shared.md" 2>/dev/null || fail "report of both"
[ "$(grep -c '^| bw_mem-rd-1mb (MB/s) |' "$T/shared.md")" -eq 1 ] || fail "the table's row and the run's are two"
grep -Eq '^\| bw_mem-rd-1mb \(MB/s\) \| 6632.61 \(min 3016.59, max 10248.62\) \| [0-9.]+' "$T/shared.md" ||
	fail "the shared row: $(grep bw_mem-rd-1mb "$T/shared.md")"
grep -q '^| lat_mem_rd-stride128-sz50 (ns) | 2.00 |' "$T/shared.md" || fail "the mapped row: $(grep sz50 "$T/shared.md")"
"$PG" runs --db "$T/t.db" | grep -q '^table-seed-lmbench-am68_sk-fs-09.02 .* 2024-06-01T00:00:00Z .*complete  *release=09.02$' ||
	fail "runs: $("$PG" runs --db "$T/t.db" | head -3)"
printf 'benchmark,b\nrow (us),fast\n' >"$T/bad.csv"
expect_usage_error "a cell that is no figure" import --db "$T/t.db" --table "$T/bad.csv"
grep -q "line 2: 'fast' of b is not a figure" "$T/err" || fail "bad cell: $(cat "$T/err")"
printf 'x,mem.bw.rd,size=1m,no_such_metric\n' >"$T/badmap.csv"
expect_usage_error "a map line with no such metric" import --db "$T/t.db" --table "$F/seed-lmbench.csv" --map "$T/badmap.csv"
expect_usage_error "--release without --table" import --db "$T/t.db" --release 1 "$T/a.jsonl"

# The rst and its SVG charts in a Sphinx project: it builds with -W.
mkdir "$T/doc"
"$PG" report "$F"/seed-*.jsonl --baseline j721e-idk-gw -o "$T/doc/guide.rst" 2>/dev/null || fail "report --format rst"
ls "$T/doc" | grep -q '^guide-crypto-1.svg$' || fail "no chart beside the rst: $(ls "$T/doc" | head)"
for f in $(sed -n 's/^\.\. image:: //p' "$T/doc/guide.rst"); do
	[ -s "$T/doc/$f" ] || fail "the rst's chart $f was not written"
done
command -v sphinx-build >/dev/null 2>&1 || skip "no sphinx-build (apt-get install python3-sphinx) to build the rst"
printf 'project = "guide"\nextensions = []\nexclude_patterns = ["_build"]\n' >"$T/doc/conf.py"
printf 'Guides\n======\n\n.. toctree::\n\n   guide\n' >"$T/doc/index.rst"
sphinx-build -W -q -b html "$T/doc" "$T/doc/_build" >"$T/sphinx.out" 2>&1 || fail "sphinx-build -W: $(tail -5 "$T/sphinx.out")"
[ -s "$T/doc/_build/_images/guide-crypto-1.svg" ] || fail "Sphinx did not take the charts"
grep -q '<img alt="' "$T/doc/_build/guide.html" || fail "no chart in Sphinx's page"
echo ok

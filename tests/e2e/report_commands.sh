#!/bin/sh
# SPDX-License-Identifier: MIT
# Every command the guide prints (the advice on figures to doubt, the
# commands that fill what was not measured) is one perfguide takes: each
# `perfguide run ...` is planned by the binary (run --dry-run: its options,
# selectors and parameters checked against its tables), every other
# command's options are in its --help. Commands are printed as typed in
# every format: md and rst literals, html <code>, and Sphinx leaves their
# "--" alone (no en dash).
. "$(dirname "$0")/lib.sh"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"

# One run with a figure of each kind to doubt, on a CPU that may be
# emulated (qemu's virt board seen from an ARM guest: "perhaps").
R='"type":"result","unit":"MB/s","better":"higher","status":"ok"'
cat >"$T/a.jsonl" <<EOF
{"type":"run","schema":"perfguide/1","id":"a1","board":"boardA","started":"2026-01-01T00:00:00Z","machine":{"arch":"aarch64","cpus":[{"id":0,"model":"Cortex-A72"}],"cpufreq":[],"virt":"qemu","emulated":false},"build":{"version":"9.9"},"config":{"suite":"quick","runs":0,"min_runs":6,"max_runs":10,"ci_target":0.02,"selectors":["mem.bw"]}}
{$R,"bench":"mem.bw.rd","params":{"size":1048576,"threads":1},"metric":"bandwidth","samples":[50,100,150,100,100,60],"median":100,"min":50,"max":150,"cv":0.3,"noisy":true,"stop":"max_runs"}
{$R,"bench":"mem.bw.wr","params":{"size":1048576,"threads":1},"metric":"bandwidth","samples":[200,200,200,200,200,200],"median":200,"min":200,"max":200,"cv":0,"stop":"interval","disturbed":true,"disturbed_why":"other processes took 45% of the CPUs"}
{$R,"bench":"mem.bw.cp","params":{"size":1048576,"threads":1},"metric":"bandwidth","samples":[300,300,300,300,300,300],"median":300,"min":300,"max":300,"cv":0,"stop":"time"}
{$R,"bench":"mem.bw.frd","params":{"size":1048576,"threads":1},"metric":"bandwidth","samples":[300,300],"median":300,"min":300,"max":300,"cv":0,"stop":"runs"}
{$R,"bench":"mem.bw.fwr","params":{"size":1048576,"threads":1},"metric":"bandwidth","samples":[100,100,100,300,300,300],"median":200,"min":100,"max":300,"cv":0.01,"stop":"interval","bimodal":[100,300]}
{"type":"end","finished":"2026-01-01T00:10:00Z","status":"complete"}
EOF
mkdir "$T/doc"
for fmt in md rst html; do
	"$PG" report "$T/a.jsonl" -o "$T/doc/a.$fmt" 2>/dev/null || fail "report --format $fmt"
done
"$PG" report "$F"/seed-*.jsonl -o "$T/seed.md" 2>/dev/null || fail "report of the fixtures"

python3 - "$T" >"$T/commands" <<'PY' || fail "the guide's commands"
import re, sys
t = sys.argv[1]
md = open(t + "/doc/a.md").read()
doubts = md.split("## Figures to doubt")[1].split("\n## ")[0]
for kind in ("noisy", "disturbed", "capped", "few samples", "bimodal"):
    assert "- 1 " + kind + ":" in doubts, (kind, doubts)
assert "- 5 emulated:" in doubts, doubts
notme = md.split("## Not measured")[1].split("\n## ")[0]
for seed in ("CoreMark-Pro", "MultiBench", "Graphics (glmark2)", "OSPI flash (UBIFS)", "U-Boot", "USB device controller"):
    assert "\n- " + seed in notme, (seed, notme)
assert "U-Boot (QSPI/OSPI, UFS, EMMC, MMC/SD): perfguide has no such benchmark" in notme, notme
assert "- Stream: the runs did not select it (they ran mem.bw); `perfguide run mem.stream --suite standard` fills it" in notme, notme
md += open(t + "/seed.md").read()
cmds = sorted(set(c for c in re.findall(r"`([^`]+)`", md) if c.startswith("perfguide ")))
assert len(cmds) > 20, cmds
# every doubt's advice and every not-measured line names a command
for line in doubts.splitlines() + notme.splitlines():
    if line.startswith("- ") and "no such benchmark: it runs under Linux" not in line:
        assert "`perfguide " in line, line
rst = open(t + "/doc/a.rst").read()
assert "``perfguide run SELECTOR --min-time 1 --runs 10``" in rst, rst
html = open(t + "/doc/a.html").read()
assert "<code>perfguide run SELECTOR --min-time 1 --runs 10</code>" in html
for c in cmds:
    print(c)
PY

mkdir "$T/dir"
while IFS= read -r cmd; do
	# the placeholders a reader fills in
	line=$(printf '%s\n' "$cmd" | sed -e "s|SELECTOR|mem.bw.rd|g" -e "s|DIR|$T/dir|g" -e "s|HOST|127.0.0.1|g")
	set -- $line
	shift
	sub=$1
	for w in "$@"; do
		case $w in
		-p | -h) ;;
		-*)
			opt=${w%%=*}
			"$PG" "$sub" --help | grep -q -- "$opt[ ,=]" || fail "'$cmd': $sub has no option $opt"
			;;
		esac
	done
	[ "$sub" = run ] || continue
	set +e
	"$PG" "$@" --dry-run --no-db >"$T/dry.out" 2>"$T/dry.err"
	rc=$?
	set -e
	[ $rc -eq 0 ] || fail "'$cmd': run --dry-run exit $rc: $(tail -3 "$T/dry.err")"
done <"$T/commands"

# Sphinx leaves an option as typed: no "--" became a dash.
command -v sphinx-build >/dev/null 2>&1 || skip "no sphinx-build (apt-get install python3-sphinx) to build the rst"
printf 'project = "guide"\nextensions = []\nexclude_patterns = ["_build"]\n' >"$T/doc/conf.py"
printf 'Guides\n======\n\n.. toctree::\n\n   a\n' >"$T/doc/index.rst"
rm -f "$T/doc/a.md" "$T/doc/a.html"
sphinx-build -W -q -b html "$T/doc" "$T/doc/_build" >"$T/sphinx.out" 2>&1 || fail "sphinx-build -W: $(tail -5 "$T/sphinx.out")"
page=$T/doc/_build/a.html
grep -q '<span class="pre">--min-time</span>' "$page" || fail "Sphinx lost '--min-time': $(grep -o 'min-time.\{0,40\}' "$page" | head -3)"
if grep -q "$(printf '\342\200\223')" "$page"; then
	fail "Sphinx made a dash of '--': $(grep -o ".\{30\}$(printf '\342\200\223').\{30\}" "$page" | head -3)"
fi
echo ok

#!/bin/sh
# SPDX-License-Identifier: MIT
# Parameters reach the benchmarks they are for, with every selection (issue
# 39): the LAVA definition's EXTRA example (lava/perfguide.yaml, the same in
# lava/README.md) through its run step with BENCHMARKS=all, each group, the
# selections the LAVA files show, under each suite (--dry-run: which
# benchmark takes which value); the unscoped -p dir=... with all; -p path=
# among storage and crypto, for real; a benchmark named by its id under a
# suite that leaves it out gets a result (net.tcp.rr, quick), and one that
# cannot run at any setting a LAVA case `skip`; a typo still one line, exit 2.
. "$(dirname "$0")/lib.sh"
need_json
L=$PG_SOURCE_DIR/lava
mkdir "$T/sd"

# The example as the definition gives it, and the README the same.
ex=$(sed -n 's/.*more options for `perfguide run` (e\.g\. "\([^"]*\)").*/\1/p' "$L/perfguide.yaml")
[ -n "$ex" ] || fail "no EXTRA example in lava/perfguide.yaml"
grep -qF "(\`$ex\`)" "$L/README.md" || fail "lava/README.md's EXTRA example is not '$ex'"
EX=$(echo "$ex" | sed "s|/mnt/sd|$T/sd|g")
case "$EX" in *"-p "*) ;; *) fail "the EXTRA example sets no parameter: $ex" ;; esac

# step SUITE BENCHMARKS EXTRA: the definition's run step (under sh), as
# LAVA runs it; its console in $T/step.log. Fails unless perfguide-run passed.
step() {
	rm -rf "$T/perfguide-results"
	(cd "$T" && SUITE=$1 BENCHMARKS=$2 EXTRA=$3 PERFGUIDE=$PG sh "$L/perfguide-run.sh") >"$T/step.log" 2>&1 ||
		fail "the run step exited $?"
	grep -q 'TEST_CASE_ID=perfguide-run RESULT=pass' "$T/step.log" ||
		fail "SUITE=$1 BENCHMARKS='$2' EXTRA='$3': $(grep -v '^[a-z]*\.[^ ]* .* floor ' "$T/step.log" | head -c 700)"
}

groups=$("$PG" list | sed -n 's/^\([a-z0-9]*\)\.[^ ]* .*/\1/p' | sort -u)
yaml_sel=$(sed -n 's/^# *BENCHMARKS: "\(.*\)"$/\1/p' "$L/perfguide.yaml")
readme_sel=$(sed -n 's/^`GROUPS="\([^"]*\)"`.*/\1/p' "$L/README.md")
[ -n "$yaml_sel" ] && [ -n "$readme_sel" ] || fail "no example selection in the LAVA files"
for suite in quick standard full; do
	for sel in all $groups "$yaml_sel" "$readme_sel" "mem net.tcp.rr"; do
		step "$suite" "$sel" "$EX --dry-run"
		# where a selected benchmark has the parameter, it took the value
		if grep -q '^os\.syscall\.stat ' "$T/step.log"; then
			grep -q "^os\.syscall\.stat .*dir=$T/sd " "$T/step.log" || fail "$suite $sel: os took no dir"
		fi
		if grep -q '^storage\.write ' "$T/step.log"; then
			grep -q "^storage\.write .*path=$T/sd " "$T/step.log" || fail "$suite $sel: storage took no path"
		fi
		! grep -q "^net\.udp\..* dir=$T" "$T/step.log" || fail "$suite $sel: a net.udp direction took a path"
	done
done
# Named under quick, which leaves it out: it is in the plan.
step quick "mem net.tcp.rr" "--dry-run"
grep -q '^net\.tcp\.rr .*floor' "$T/step.log" || fail "net.tcp.rr named under quick is not in the plan"

# The issue's own example: unscoped, with all; net.udp.* keep their direction, and the run says so.
step standard all "-p dir=$T/sd --runs 10 --dry-run"
grep -q "^os\.mmap .*dir=$T/sd " "$T/step.log" && grep -q '^net\.udp\.zeroloss .*dir=out' "$T/step.log" &&
	grep -q "^-p dir=$T/sd: net.udp.zeroloss, net.udp.stream keep their own dir (dir: '$T/sd' is not one of out,in)" \
		"$T/step.log" || fail "-p dir= with all: $(grep '^-p\|^os.mmap\|^net.udp' "$T/step.log")"
# A parameter no selected benchmark has, and a typo of a choice, stay errors.
expect_usage_error "-p dir= where nothing selected has dir" run mem --dry-run -p dir=$T/sd
grep -q "no selected benchmark has a parameter 'dir'" "$T/err" || fail "said: $(cat "$T/err")"
expect_usage_error "a mistyped direction" run net.udp.stream os.mmap --dry-run -p dir=ot
grep -q "net.udp.stream: dir: 'ot' is not one of out,in (a typo?.* -p os.dir=ot)" "$T/err" || fail "said: $(cat "$T/err")"
expect_usage_error "the sole benchmark refuses" run crypto.aes-128-cbc --dry-run -p path=$T/sd
grep -qx "perfguide: run: crypto.aes-128-cbc: path: '$T/sd' is not one of sendmsg,splice" "$T/err" ||
	fail "said: $(cat "$T/err")"
expect_usage_error "a scope without the parameter" run mem --dry-run -p os.dri=$T/sd

# Storage aimed at a directory beside crypto, for real: each got its own.
"$PG" run storage.write crypto.aes-128-cbc -p path="$T/sd" -p crypto.backend=openssl --suite quick --runs 2 \
	--processes 1 --no-db --out "$T/sc.jsonl" >"$T/sc.out" 2>"$T/sc.err" ||
	fail "storage.write crypto.aes-128-cbc -p path=DIR: exit $?: $(cat "$T/sc.err")"
grep -q "^perfguide: -p path=$T/sd: crypto.aes-128-cbc keeps its own path" "$T/sc.err" || fail "no note: $(cat "$T/sc.err")"
python3 - "$T/sc.jsonl" "$T/sd" <<'PY' || fail "the results differ from the plan"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
res = [r for r in recs if r["type"] == "result"]
st = [r for r in res if r["bench"] == "storage.write"]
cr = [r for r in res if r["bench"] == "crypto.aes-128-cbc"]
assert st and all(r["params"]["path"] == sys.argv[2] for r in st), st[:1]
assert cr and all(r["params"]["path"] == "sendmsg" for r in cr), cr[:1]
PY

# Named under a suite that leaves it out: a result, and a LAVA case.
step quick "mem.bw.rd net.tcp.rr" "-p mem.bw.rd.size=64k -p net.tcp.rr.time=1 --runs 2 --min-time 0.01"
grep -q 'TEST_CASE_ID=net.tcp.rr_time-1 RESULT=\(pass\|unknown\)' "$T/step.log" ||
	fail "no net.tcp.rr case under quick: $(grep -i 'lava\|tcp' "$T/step.log" | head -c 600)"
# One that cannot run at any setting here (a machine with 1 MiB free): skipped, the reason given, a `skip` case.
export PERFGUIDE_TEST_MEM_AVAILABLE=1m
step quick "mem.bw.rd" "--runs 2"
grep -q '^mem\.bw\.rd .*skipped: needs 2m of memory, 1m available' "$T/step.log" &&
	grep -q 'TEST_CASE_ID=mem.bw.rd_size-1m RESULT=skip>' "$T/step.log" || fail "no skip: $(head -c 600 "$T/step.log")"
unset PERFGUIDE_TEST_MEM_AVAILABLE
echo ok

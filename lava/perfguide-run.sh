#!/bin/sh
# SPDX-License-Identifier: MIT
# The run step of lava/perfguide.yaml: the test definition's parameters
# arrive as exported shell variables. perfguide reports each result itself
# (run --lava runs lava-test-case and lava-test-set) and puts the results
# file into the job log (base64 between marker lines, for `perfguide import
# --from-lava-log`); this script adds the run's own case (perfguide-run: did
# perfguide finish) and, where an artifact store is named, uploads the file.
# It runs the same under dash, busybox sh and bash (which reserves GROUPS:
# the selectors are BENCHMARKS).
SUITE=${SUITE:-quick}
PERFGUIDE=${PERFGUIDE:-perfguide}

# The run's own case, through LAVA's helper, or its signal line where the
# helper is not on PATH (the script run by hand or by another runner).
run_case() {
	if command -v lava-test-case >/dev/null 2>&1; then
		lava-test-case perfguide-run --result "$@"
	elif [ $# -gt 1 ]; then
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=perfguide-run RESULT=$1 MEASUREMENT=$3 UNITS=$5>"
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=perfguide-run RESULT=$1>"
	fi
}

# BENCHMARKS: selectors, or "all". Empty is a mistake (a job's parameter
# that did not arrive), not a request for every benchmark: say so and stop.
case "${BENCHMARKS:-}" in
*[![:space:]]*) ;;
*)
	echo "perfguide-run: BENCHMARKS is empty: name the benchmarks (mem os cpu, ids or globs) or 'all'"
	run_case fail
	exit 2 ;;
esac
sel=$BENCHMARKS
[ "$sel" = all ] && sel=""

out="perfguide-results/lava-$(date -u +%Y%m%dT%H%M%S).jsonl"
mkdir -p perfguide-results

set -- run --lava --no-db --suite "$SUITE" --out "$out"
[ -n "${BOARD:-}" ] && set -- "$@" --board "$BOARD"
[ -n "${PEER:-}" ] && set -- "$@" --peer "$PEER"
[ -n "${RELEASE:-}" ] && set -- "$@" --label "release=$RELEASE"
# BENCHMARKS and EXTRA are lists: split on blanks, never globbed.
set -f
# shellcheck disable=SC2086
"$PERFGUIDE" "$@" ${EXTRA:-} $sel
rc=$?
set +f

# 0 all ran or were skipped, 1 a benchmark failed (its case says which),
# 2 bad input, 130 interrupted.
case $rc in
0) run_case pass ;;
*) run_case fail --measurement "$rc" --units exit-status ;;
esac

# The results file is in the log already; an artifact store keeps it too.
if [ -f "$out" ] && [ -n "${ARTIFACTORIAL_URL:-}" ] && command -v curl >/dev/null 2>&1; then
	url=$(curl -sSf -F "path=@$out" -F "token=${ARTIFACTORIAL_TOKEN:-}" "$ARTIFACTORIAL_URL")
	if [ -n "$url" ]; then
		lava-test-reference perfguide-results --result pass --reference "$url"
	else
		echo "perfguide-run: could not upload $out to $ARTIFACTORIAL_URL (it is in the log)"
	fi
fi
exit 0

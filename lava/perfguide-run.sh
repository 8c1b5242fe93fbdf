#!/bin/sh
# The run step of lava/perfguide.yaml: the test definition's parameters
# arrive as shell variables. perfguide reports each result itself
# (run --lava runs lava-test-case and lava-test-set); this script adds the
# run's own case (perfguide-run: did perfguide finish) and attaches the
# results file.
SUITE=${SUITE:-quick}
PERFGUIDE=${PERFGUIDE:-perfguide}
out="perfguide-results/lava-$(date -u +%Y%m%dT%H%M%S).jsonl"
mkdir -p perfguide-results

set -- run --lava --no-db --suite "$SUITE" --out "$out"
[ -n "${BOARD:-}" ] && set -- "$@" --board "$BOARD"
[ -n "${PEER:-}" ] && set -- "$@" --peer "$PEER"
[ -n "${RELEASE:-}" ] && set -- "$@" --label "release=$RELEASE"
# GROUPS and EXTRA are lists: split on blanks, never globbed.
set -f
# shellcheck disable=SC2086
"$PERFGUIDE" "$@" ${EXTRA:-} ${GROUPS:-}
rc=$?
set +f

# 0 all ran or were skipped, 1 a benchmark failed (its case says which),
# 2 bad input, 130 interrupted.
case $rc in
0) lava-test-case perfguide-run --result pass ;;
*) lava-test-case perfguide-run --result fail --measurement "$rc" --units exit-status ;;
esac

[ -f "$out" ] || exit 0
if [ -n "${ARTIFACTORIAL_URL:-}" ] && command -v curl >/dev/null 2>&1; then
	url=$(curl -sSf -F "path=@$out" -F "token=${ARTIFACTORIAL_TOKEN:-}" "$ARTIFACTORIAL_URL")
	if [ -n "$url" ]; then
		lava-test-reference perfguide-results --result pass --reference "$url"
		exit 0
	fi
	echo "perfguide-run: could not upload $out to $ARTIFACTORIAL_URL; it follows in the log"
fi
# No artifact store: the results file goes into the job log, between
# markers, for `perfguide import` after cutting it out.
echo "--- perfguide results file $(basename "$out") ---"
# Through sed, a '<' as \u003c: in a results file (JSON Lines) one is only
# ever inside a string, where \u003c is the same character. The file imports
# as it is, and no line of it can be a LAVA signal (LAVA matches one anywhere
# in a line; perfguide writes its files so, and this holds for any file).
sed 's/</\\u003c/g' "$out"
echo "--- end of perfguide results file ---"
exit 0

# SPDX-License-Identifier: MIT
# The core builds with libc alone: without jansson the binary still lists,
# runs and shows results, and says why it writes no results file.
. "$(dirname "$0")/lib.sh"
nolib_tree
ldd "$NB/perfguide" 2>/dev/null | grep -q jansson && fail "linked jansson anyway"
cd "$T"
"$NB/perfguide" run mem.bw.rd -p size=64k --runs 2 --min-time 0.01 >"$T/out" 2>"$T/err" || fail "run failed"
grep -q '^mem.bw.rd .*MB/s' "$T/out" || fail "no result line"
grep -q 'without jansson' "$T/err" || fail "no word on the missing results file"
set +e
"$NB/perfguide" run mem.bw.rd --out x.jsonl >/dev/null 2>"$T/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "--out without jansson: exit $rc"
grep -q 'libjansson-dev' "$T/err" || fail "the message does not say what to install"
echo "ok"

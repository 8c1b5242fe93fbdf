# SPDX-License-Identifier: MIT
# Built without liburing and libaio, the storage group is still there: the
# io_uring and libaio engines say `skipped` and what to install, psync runs,
# and the default engine (auto) falls back on it.
. "$(dirname "$0")/lib.sh"
nolib_tree
ldd "$NB/perfguide" 2>/dev/null | grep -E -q 'liburing|libaio' && fail "linked liburing or libaio anyway"
mkdir "$T/d"
cd "$T"
"$NB/perfguide" run storage.read -p path="$T/d" -p size=1m -p direct=0 -p time=1 -p ramp=0 \
	-p engine=io_uring,libaio,psync,auto --runs 1 >"$T/out" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
grep -q 'engine=io_uring .*skipped: built without liburing: install liburing-dev and rebuild' "$T/out" ||
	fail "io_uring does not say what to install: $(cat "$T/out")"
grep -q 'engine=libaio .*skipped: built without libaio: install libaio-dev and rebuild' "$T/out" ||
	fail "libaio does not say what to install: $(cat "$T/out")"
[ "$(grep -c 'engine=\(psync\|auto\) .*bandwidth .*MB/s' "$T/out")" -eq 2 ] ||
	fail "psync and auto did not measure: $(cat "$T/out")"
[ -z "$(ls -A "$T/d")" ] || fail "files left: $(ls -A "$T/d")"
echo "ok"

# SPDX-License-Identifier: MIT
# Every bad input: one line naming the problem, exit 2, before any work.
. "$(dirname "$0")/lib.sh"
cd "$T"

expect_usage_error "unknown command" frobnicate
expect_usage_error "unknown benchmark" run mem.bw.nope
expect_usage_error "glob matching nothing" run 'zzz.*'
expect_usage_error "unknown parameter" run mem.bw.rd -p colour=red
expect_usage_error "parameter of another benchmark" run mem.bw.rd -p stride=64
expect_usage_error "bad size suffix" run mem.bw.rd -p size=12q
expect_usage_error "zero size" run mem.bw.rd -p size=0
expect_usage_error "negative size" run mem.bw.rd -p size=-4k
expect_usage_error "size below the minimum" run mem.bw.rd -p size=100
expect_usage_error "size beyond free memory" run mem.bw.rd -p size=900g
expect_usage_error "threads beyond free memory" run mem.bw.rd -p size=1g -p threads=1000
expect_usage_error "bad thread count" run mem.bw.rd -p threads=two
expect_usage_error "bad choice" run mem.lat.rand -p pages=giant
expect_usage_error "size below stride" run mem.lat.rd -p size=64 -p stride=128
expect_usage_error "bad -p syntax" run mem.bw.rd -p size
expect_usage_error "bad suite" run --suite fast
expect_usage_error "zero runs" run mem.bw.rd --runs 0
expect_usage_error "negative min-time" run mem.bw.rd --min-time -1
expect_usage_error "non-numeric min-time" run mem.bw.rd --min-time soon
expect_usage_error "budget without a duration" run mem.bw.rd --budget soon
expect_usage_error "zero budget" run mem.bw.rd --budget 0m
expect_usage_error "negative budget" run mem.bw.rd --budget -5
expect_usage_error "budget of nothing" run mem.bw.rd --budget ''
expect_usage_error "budget with a stray unit" run mem.bw.rd --budget 5ms
expect_usage_error "zero iterations" run mem.bw.rd --iterations 0
expect_usage_error "negative iterations" run mem.bw.rd --iterations -5
expect_usage_error "non-numeric iterations" run mem.bw.rd --iterations many
expect_usage_error "missing CPU" run mem.bw.rd --cpu 4096
expect_usage_error "bad CPU list" run mem.bw.rd --cpu 1-x
expect_usage_error "unknown option" run --frob
expect_usage_error "unknown list option" list --frob
expect_usage_error "unknown info option" info --frob
if [ "${PG_HAVE_JANSSON:-ON}" = ON ]; then
	expect_usage_error "unwritable --out" run mem.bw.rd --out "$T/no/such/dir/r.jsonl"
	grep -q "$T/no/such/dir/r.jsonl" "$T/err" || fail "the message does not name the file"
fi

# No results were written by any of the refused runs.
[ ! -e perfguide-results ] || fail "a refused run created perfguide-results/"

# --help and --version answer on stdout with status 0.
for c in "--help" "--version" "run --help" "list --help" "info --help"; do
	# shellcheck disable=SC2086
	"$PG" $c >"$T/out" 2>&1 || fail "'$c' exited non-zero"
	[ -s "$T/out" ] || fail "'$c' printed nothing"
done
grep -q -- '--min-time' "$T/out" 2>/dev/null || "$PG" run --help | grep -q -- '--min-time' || fail "run --help lacks --min-time"
echo "ok"

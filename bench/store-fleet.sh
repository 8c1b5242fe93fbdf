#!/bin/sh
# SPDX-License-Identifier: MIT
# store-fleet.sh: a board farm's store at scale. Generates the results files
# of BOARDS boards x RESULTS results (25 benchmarks x 20 sizes by default,
# SAMPLES samples each), then, in alternating rounds, times on this machine:
#
#   import   every file into an empty store with one `perfguide import`
#            (one transaction per file): SQLite file vs PostgreSQL server
#   import16 the same files by 16 concurrent `perfguide import` processes,
#            one file each (a farm's boards reporting at once)
#   report   `perfguide report --format md` and `--format html`, the latest
#            run of every board, from each store
#
# PostgreSQL is a throwaway server of Debian's postgresql (tests/pg/server.sh:
# a temporary directory, a Unix socket) with fsync on, as SQLite's default
# synchronous=FULL is; perfguide reaches it as a client would, over the socket.
# A benchmark script, not a test: it prints the times and exits 0 (2 on a
# usage error, 1 when something it times fails).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<'USAGE'
usage: bench/store-fleet.sh [options]

  --perfguide PATH   perfguide binary (default ./build/perfguide, a release build)
  --boards N         boards (default 100)
  --results N        results per board, a multiple of 20 (default 500)
  --samples N        samples per result (default 10)
  --rounds N         rounds of each measurement, alternating the stores (default 2)
  --keep DIR         generate into DIR and keep it (default: a temporary directory)
  -h, --help         this text
USAGE
}

PGB=./build/perfguide
BOARDS=100
RESULTS=500
SAMPLES=10
ROUNDS=2
KEEP=""
while [ $# -gt 0 ]; do
	case $1 in
	--perfguide) PGB=$2; shift 2 ;;
	--boards) BOARDS=$2; shift 2 ;;
	--results) RESULTS=$2; shift 2 ;;
	--samples) SAMPLES=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ -x "$PGB" ] || { echo "store-fleet.sh: no perfguide at $PGB (--perfguide PATH)" >&2; exit 2; }
case "$BOARDS$RESULTS$SAMPLES$ROUNDS" in *[!0-9]*) usage >&2; exit 2 ;; esac
[ $((RESULTS % 20)) -eq 0 ] || { echo "store-fleet.sh: --results must be a multiple of 20" >&2; exit 2; }

. "$top/tests/pg/server.sh"
if [ -n "$KEEP" ]; then
	D=$KEEP
	mkdir -p "$D"
else
	D=$(mktemp -d /tmp/store-fleet.XXXXXX)
fi
cleanup() {
	pg_server_stop
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT
PG_SERVER_OPTS="-c fsync=on -c max_wal_size=4GB"
pg_server_start || { echo "store-fleet.sh: $PG_SERVER_WHY" >&2; exit 2; }

echo "generating $BOARDS boards x $RESULTS results x $SAMPLES samples in $D ..."
python3 - "$D" "$BOARDS" "$RESULTS" "$SAMPLES" <<'PY'
import json, os, random, sys
d, boards, results, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(1)
benches = results // 20
for b in range(boards):
    board = "board-%03d" % b
    with open(os.path.join(d, board + ".jsonl"), "w") as f:
        f.write(json.dumps({"type": "run", "schema": "perfguide/1", "id": board + "-r1", "board": board,
                            "started": "2026-01-01T00:00:%02dZ" % (b % 60), "labels": {"release": "1"},
                            "machine": {"board": board, "arch": "aarch64", "cpus_online": 4},
                            "build": {"version": "fleet"}, "config": {}}, separators=(",", ":")) + "\n")
        for k in range(benches):
            for s in range(20):
                centre = 1000.0 * (k + 1) / (s + 1) * (1 + b / 1000)
                v = [round(centre * (1 + rnd.uniform(-0.02, 0.02)), 4) for _ in range(samples)]
                sv = sorted(v)
                f.write(json.dumps({"type": "result", "bench": "fleet.b%02d" % k, "params": {"size": 1024 << s},
                                    "metric": "bandwidth", "unit": "MB/s", "better": "higher", "samples": v,
                                    "median": sv[len(sv) // 2], "min": sv[0], "max": sv[-1],
                                    "mean": sum(v) / len(v), "cpu": {"busy_pct": 50.0}, "status": "ok",
                                    "section": "Fleet"}, separators=(",", ":")) + "\n")
        f.write('{"type":"end","finished":"2026-01-01T01:00:00Z","status":"complete"}\n')
PY
du -sh "$D" | awk '{ print "results files: " $1 }'

# t COMMAND...: its wall time in seconds into $T_S; exit 1 when it fails
# (T_OK=0 t ...: go on, T_OK says whether it did).
t() {
	s=$(date +%s.%N)
	if "$@" >/dev/null 2>"$D/err"; then
		T_OK=1
	elif [ "${T_OK:-1}" = 0 ]; then
		T_OK=0
	else
		echo "store-fleet.sh: failed: $* ($(head -c 300 "$D/err"))" >&2
		exit 1
	fi
	e=$(date +%s.%N)
	T_S=$(echo "$e - $s" | bc)
}

# import16 DB: the first file alone (an SQLite store created by concurrent
# importers at once fails: issue 13), then the rest by 16 concurrent
# importers, one file each.
import16() {
	first=$(ls "$D"/board-*.jsonl | head -n 1)
	"$PGB" import --db "$1" "$first" &&
		ls "$D"/board-*.jsonl | sed 1d | xargs -P 16 -n 1 "$PGB" import --db "$1"
}

results="$D/times"
: >"$results"
: >"$D/notes"
for r in $(seq 1 "$ROUNDS"); do
	for store in sqlite pgsql; do
		if [ $store = sqlite ]; then
			db="$D/r$r.db"; db16="$D/r$r-16.db"
			rm -f "$db" "$db16"
		else
			db=$(pg_newdb "r$r"); db16=$(pg_newdb "r${r}c")
		fi
		t "$PGB" import --db "$db" "$D"/board-*.jsonl; echo "$store import $T_S" >>"$results"
		T_OK=0 t import16 "$db16"
		n=$("$PGB" runs --db "$db16" | grep -c ' complete$')
		echo "$store import16 $T_S" >>"$results"
		if [ "$n" -ne "$BOARDS" ]; then
			echo "$store: 16 importers: $n of $BOARDS runs landed; the others failed:" \
				"$(grep -c 'nothing of it was added' "$D/err") x '$(grep -m1 -o ': [^:]*(nothing of it was added)' "$D/err")'" >>"$D/notes"
		fi
		t "$PGB" report --db "$db" --format md -o "$D/$store.md"; echo "$store report-md $T_S" >>"$results"
		t "$PGB" report --db "$db" --format html -o "$D/$store.html"; echo "$store report-html $T_S" >>"$results"
	done
	cmp -s "$D/sqlite.md" "$D/pgsql.md" && cmp -s "$D/sqlite.html" "$D/pgsql.html" ||
		{ echo "store-fleet.sh: the guides from the two stores differ" >&2; exit 1; }
done

echo
echo "$BOARDS boards x $RESULTS results x $SAMPLES samples; $ROUNDS rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %14s %14s\n' "seconds" "SQLite" "PostgreSQL"
for what in import import16 report-md report-html; do
	sq=$(awk -v w=$what '$1 == "sqlite" && $2 == w { printf "%s%.2f", n++ ? " " : "", $3 }' "$results")
	pq=$(awk -v w=$what '$1 == "pgsql" && $2 == w { printf "%s%.2f", n++ ? " " : "", $3 }' "$results")
	printf '%-12s %14s %14s\n' "$what" "$sq" "$pq"
done
cat "$D/notes"
ls -l "$D/sqlite.html" "$D/sqlite.md" | awk '{ printf "guide: %s %d bytes\n", $NF, $5 }' | sed "s|$D/||"

# SPDX-License-Identifier: MIT
# The CAN group where this machine has no CAN interface (most build hosts,
# containers): every benchmark skips (before any trial) and says why, a missing
# interface is named, one that is not CAN is an error, and parameters a
# frame cannot carry are refused before anything runs. (Real drivers are
# tested in tests/vm/can.check.sh and, where vcan loads, can_vcan.sh.)
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

have_can=0
for t in /sys/class/net/*/type; do
	[ "$(cat "$t" 2>/dev/null)" = 280 ] && have_can=1
done

"$PG" run 'can.*' --suite quick --out "$T/q.jsonl" >"$T/table" 2>"$T/err" || fail "quick run failed: $(cat "$T/err")"
"$PG" run can.tx can.rr can.load -p if=pgnosuch0 --out "$T/m.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "a missing interface is not an error: $(cat "$T/err")"
set +e
"$PG" run can.tx -p if=lo --out "$T/lo.jsonl" >>"$T/table" 2>>"$T/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "a run on lo exited $rc, expected 1 (an error result)"

python3 - "$T" "$have_can" <<'PY'
import sys
from pgcheck import check, results
t, have_can = sys.argv[1], sys.argv[2] == "1"

q = results(t + "/q.jsonl")
check({r["bench"] for r in q} == {"can.tx", "can.load"}, "quick suite: can.tx and can.load (%s)" % {r["bench"] for r in q})
if not have_can:
    for r in q:
        check(r["status"] == "skipped", "%s: %s" % (r["bench"], r["status"]))
        check(r["reason"].startswith("no CAN interface here: "), "%s: reason %r" % (r["bench"], r["reason"]))
        check(r.get("section") in (None, "DCAN"), "section " + str(r.get("section")))
        check(not r.get("samples"), "a skip has no samples")
m = results(t + "/m.jsonl")
check(sorted(r["bench"] for r in m) == ["can.load", "can.rr", "can.tx"], "one result each")
for r in m:
    check(r["status"] == "skipped" and "no network interface pgnosuch0" in r["reason"], "%s: %s" % (r["bench"], r.get("reason")))
lo = results(t + "/lo.jsonl")
check(lo[0]["status"] == "error" and lo[0]["reason"] == "lo is not a CAN interface (link type 772)", "lo: %s" % lo[0].get("reason"))
print("ok")
PY

expect_usage_error "an id of 4 digits" run can.tx -p id=1234
expect_usage_error "a standard id above 7ff" run can.rr -p id=800
expect_usage_error "9 bytes in a classic frame" run can.tx -p size=9
expect_usage_error "13 bytes in a CAN FD frame" run can.load -p fd=1 -p size=13
expect_usage_error "time 0" run can.tx -p time=0
echo "ok"
